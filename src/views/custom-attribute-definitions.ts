import type { AttributeDefinition } from "../domain/custom-attributes/rows";
import { ATTRIBUTE_DISPLAY_TYPES, ATTRIBUTE_MODELS, enumName } from "../domain/kernel/enums";
import { iso } from "./time";

/** Enums render as names; times are ISO strings (Chatwoot's jbuilder passes the Time through). */
export function attributeDefinitionView(row: AttributeDefinition) {
  return {
    id: row.id,
    attribute_display_name: row.attributeDisplayName,
    attribute_display_type: enumName(ATTRIBUTE_DISPLAY_TYPES, row.attributeDisplayType),
    attribute_description: row.attributeDescription,
    attribute_key: row.attributeKey,
    regex_pattern: row.regexPattern,
    regex_cue: row.regexCue,
    attribute_values: row.attributeValues,
    attribute_model: enumName(ATTRIBUTE_MODELS, row.attributeModel),
    default_value: row.defaultValue,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
