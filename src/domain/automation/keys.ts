/**
 * Which attribute a condition reads: one of Chatwoot's standard keys, or a custom attribute of the account
 * (`custom_attribute_type` picks the conversation's or the contact's; without it a standard key wins, then
 * a conversation attribute, then a contact attribute). Shared by save-time validation and the engine, so a
 * rule is read the same way in both.
 */
import type { AttributeDefinition } from "../custom-attributes/values";
import type { Condition } from "./rows";
import { type KeySpec, STANDARD_KEYS, customAttributeSpec } from "./vocabulary";

export type ResolvedKey = KeySpec & { custom: AttributeDefinition | null };

const MODEL = { conversation_attribute: 0, contact_attribute: 1 } as const;

export function resolveKey(condition: Pick<Condition, "attribute_key" | "custom_attribute_type">, definitions: readonly AttributeDefinition[]): ResolvedKey | null {
  const key = condition.attribute_key;
  const definition = (model: 0 | 1) => definitions.find((d) => d.attributeModel === model && d.attributeKey === key);
  const custom = (d: AttributeDefinition | undefined): ResolvedKey | null => {
    if (!d) return null;
    const options = Array.isArray(d.attributeValues) ? (d.attributeValues as unknown[]).map(String) : [];
    const spec = customAttributeSpec(d.attributeDisplayType, options);
    return {
      ...spec,
      source: d.attributeModel === 0 ? { from: "conversation_custom", name: key } : { from: "contact_custom", name: key },
      // conversation attributes change inside the conversation's own events; contact attributes do not
      changedAs: d.attributeModel === 0 ? "custom_attributes" : undefined,
      custom: d,
    };
  };
  if (condition.custom_attribute_type) return custom(definition(MODEL[condition.custom_attribute_type]));
  const standard = Object.hasOwn(STANDARD_KEYS, key) ? STANDARD_KEYS[key] : undefined;
  if (standard) return { ...standard, custom: null };
  return custom(definition(0)) ?? custom(definition(1));
}
