/**
 * Custom attribute definitions: the typed extra fields of contacts and conversations. Chatwoot has no
 * policy on them, so every member of the account may manage them.
 */
import { and, eq, inArray, or } from "drizzle-orm";
import { now, schema } from "../../db/client";
import type { AttributeDefinition } from "./rows";
import { batch } from "../kernel/batch";
import { ATTRIBUTE_DISPLAY_TYPE, ATTRIBUTE_MODEL } from "../kernel/enums";
import { type AccountScope } from "../kernel/scope";
import { type ErrorEntry, invalid, notFound } from "../kernel/errors";

const { customAttributeDefinitions: definitions } = schema;

export type AttributeDefinitionInput = {
  displayName?: string;
  key?: string;
  displayType?: number;
  model?: number;
  description?: string | null;
  values?: string[] | null;
  regexPattern?: string | null;
  regexCue?: string | null;
};

/** Standard attributes of each model, by stored model value; a definition may not shadow them. */
const RESERVED_KEYS: Readonly<Record<number, readonly string[]>> = {
  [ATTRIBUTE_MODEL.conversation_attribute]: ["status", "priority", "assignee_id", "inbox_id", "team_id", "display_id", "campaign_id", "labels", "browser_language", "country_code", "referer", "created_at", "last_activity_at"],
  [ATTRIBUTE_MODEL.contact_attribute]: ["name", "email", "phone_number", "identifier", "country_code", "city", "created_at", "last_activity_at", "referer", "blocked"],
};

const inAccount = (scope: AccountScope) => eq(definitions.accountId, scope.accountId);

export async function listDefinitions(scope: AccountScope, model?: number): Promise<AttributeDefinition[]> {
  const { db } = scope;
  const byModel = model === undefined ? undefined : eq(definitions.attributeModel, model);
  const [rows] = await batch(db, [db.select().from(definitions).where(and(inAccount(scope), byModel)).orderBy(definitions.id)]);
  return rows;
}

export async function getDefinition(scope: AccountScope, id: number): Promise<AttributeDefinition> {
  const { db } = scope;
  const [rows] = await batch(db, [db.select().from(definitions).where(and(inAccount(scope), eq(definitions.id, id)))]);
  if (!rows[0]) throw notFound("Custom attribute definition", id);
  return rows[0];
}

type Resolved = { key: string; model: number; displayType: number; values: string[] };

/**
 * The rules a definition must satisfy once the change is applied. `others` are the account's definitions
 * that could clash (same key); `keyChanged` says whether the reserved-key rule applies (Chatwoot applies it
 * on create only; edgedesk also when a key or model changes, so an update cannot get round it).
 */
function check(next: Resolved, others: readonly AttributeDefinition[], keyChanged: boolean) {
  const errors: ErrorEntry[] = [];
  if (keyChanged && RESERVED_KEYS[next.model]?.includes(next.key)) {
    errors.push({
      field: "attribute_key",
      message: "is reserved: it would conflict with a standard attribute",
      code: "reserved",
    });
  } else if (others.some((d) => d.attributeKey === next.key && d.attributeModel === next.model)) {
    errors.push({ field: "attribute_key", message: "has already been taken", code: "taken" });
  }
  if (next.displayType === ATTRIBUTE_DISPLAY_TYPE.list && next.values.length === 0) {
    errors.push({ field: "attribute_values", message: "must list at least one value for a list attribute", code: "blank" });
  }
  if (errors.length) throw invalid(errors);
}

export async function createDefinition(
  scope: AccountScope,
  input: AttributeDefinitionInput & { displayName: string; key: string },
): Promise<AttributeDefinition> {
  const { db, accountId } = scope;
  const next = {
    key: input.key,
    model: input.model ?? ATTRIBUTE_MODEL.conversation_attribute,
    displayType: input.displayType ?? ATTRIBUTE_DISPLAY_TYPE.text,
    values: input.values ?? [],
  };
  const [sameKey] = await batch(db, [
    db.select().from(definitions).where(and(inAccount(scope), eq(definitions.attributeKey, input.key))),
  ]);
  check(next, sameKey, true);
  const at = now();
  const [rows] = await batch(db, [
    db
      .insert(definitions)
      .values({
        accountId,
        attributeDisplayName: input.displayName,
        attributeKey: next.key,
        attributeDisplayType: next.displayType,
        attributeModel: next.model,
        attributeDescription: input.description ?? null,
        attributeValues: next.values,
        regexPattern: input.regexPattern || null,
        regexCue: input.regexCue || null,
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
  ]);
  return rows[0];
}

export async function updateDefinition(
  scope: AccountScope,
  id: number,
  input: AttributeDefinitionInput,
): Promise<AttributeDefinition> {
  const { db } = scope;
  // One read: the definition, and every definition sharing its current key or the new one.
  const currentKey = db.select({ key: definitions.attributeKey }).from(definitions).where(and(inAccount(scope), eq(definitions.id, id)));
  const [rows] = await batch(db, [
    db
      .select()
      .from(definitions)
      .where(
        and(
          inAccount(scope),
          or(
            eq(definitions.id, id),
            inArray(definitions.attributeKey, currentKey),
            input.key === undefined ? undefined : eq(definitions.attributeKey, input.key),
          ),
        ),
      ),
  ]);
  const current = rows.find((r) => r.id === id);
  if (!current) throw notFound("Custom attribute definition", id);
  const next = {
    key: input.key ?? current.attributeKey,
    model: input.model ?? current.attributeModel,
    displayType: input.displayType ?? current.attributeDisplayType,
    values: input.values === undefined ? current.attributeValues : (input.values ?? []),
  };
  const keyChanged = next.key !== current.attributeKey || next.model !== current.attributeModel;
  check(next, rows.filter((r) => r.id !== id), keyChanged);

  const [updated] = await batch(db, [
    db
      .update(definitions)
      .set({
        attributeDisplayName: input.displayName,
        attributeKey: next.key,
        attributeDisplayType: next.displayType,
        attributeModel: next.model,
        attributeDescription: input.description,
        attributeValues: next.values,
        regexPattern: input.regexPattern === undefined ? undefined : input.regexPattern || null,
        regexCue: input.regexCue === undefined ? undefined : input.regexCue || null,
        updatedAt: now(),
      })
      .where(and(inAccount(scope), eq(definitions.id, id)))
      .returning(),
  ]);
  return updated[0];
}

export async function deleteDefinition(scope: AccountScope, id: number): Promise<void> {
  const { db } = scope;
  const [deleted] = await batch(db, [
    db.delete(definitions).where(and(inAccount(scope), eq(definitions.id, id))).returning({ id: definitions.id }),
  ]);
  if (!deleted.length) throw notFound("Custom attribute definition", id);
}
