/**
 * Labels of an account. Conversations and contacts carry labels by title (table `taggings`), as
 * Chatwoot's tagging does, so renaming a label renames its taggings in the same batch.
 */
import { and, asc, eq, exists, inArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { now, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { type AccountScope } from "../kernel/scope";
import type { LabelRow } from "./rows";
import { invalidField, notFound } from "../kernel/errors";

const { labels, taggings } = schema;

export type LabelInput = { title?: string; description?: string | null; color?: string; showOnSidebar?: boolean };

const TAGGABLE_TYPES = ["Conversation", "Contact"];

const inAccount = (scope: AccountScope) => eq(labels.accountId, scope.accountId);
const titleTaken = () => invalidField("title", "has already been taken", "taken");

export async function listLabels(scope: AccountScope): Promise<LabelRow[]> {
  const { db } = scope;
  const [rows] = await batch(db, [db.select().from(labels).where(inAccount(scope)).orderBy(asc(labels.title))]);
  return rows;
}

export async function getLabel(scope: AccountScope, id: number): Promise<LabelRow> {
  const { db } = scope;
  const [rows] = await batch(db, [db.select().from(labels).where(and(inAccount(scope), eq(labels.id, id)))]);
  if (!rows[0]) throw notFound("Label", id);
  return rows[0];
}

export async function createLabel(scope: AccountScope, input: LabelInput & { title: string }): Promise<LabelRow> {
  const { db, accountId } = scope;
  const [clash] = await batch(db, [
    db.select({ id: labels.id }).from(labels).where(and(inAccount(scope), eq(labels.title, input.title))),
  ]);
  if (clash.length) throw titleTaken();
  const at = now();
  const [rows] = await batch(db, [
    db
      .insert(labels)
      .values({
        accountId,
        title: input.title,
        description: input.description ?? null,
        color: input.color ?? "#1f93ff",
        showOnSidebar: input.showOnSidebar ?? true,
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
  ]);
  return rows[0];
}

export async function updateLabel(scope: AccountScope, id: number, input: LabelInput): Promise<LabelRow> {
  const { db } = scope;
  // One read finds the label and any other label that already has the new title.
  const [rows] = await batch(db, [
    db
      .select({ id: labels.id, title: labels.title })
      .from(labels)
      .where(and(inAccount(scope), or(eq(labels.id, id), input.title === undefined ? undefined : eq(labels.title, input.title)))),
  ]);
  const current = rows.find((r) => r.id === id);
  if (!current) throw notFound("Label", id);
  if (rows.some((r) => r.id !== id)) throw titleTaken();

  const update = db
    .update(labels)
    .set({
      title: input.title,
      description: input.description,
      color: input.color,
      showOnSidebar: input.showOnSidebar,
      updatedAt: now(),
    })
    .where(and(inAccount(scope), eq(labels.id, id)))
    .returning();
  const renamed = input.title !== undefined && input.title !== current.title;
  const [updated] = await batch(db, [update, ...(renamed ? renameTaggings(scope, current.title, input.title!) : [])]);
  return updated[0];
}

/**
 * Moves every tagging from `from` to `to`. A record that already carries `to` (a tag applied without a
 * label) keeps one tagging: its `from` tagging is removed first, so the rename never breaks the unique
 * (record, tag) index.
 */
function renameTaggings(scope: AccountScope, from: string, to: string) {
  const { db, accountId } = scope;
  const withOldTag = and(eq(taggings.accountId, accountId), inArray(taggings.taggableType, TAGGABLE_TYPES), eq(taggings.tag, from));
  const other = alias(taggings, "other");
  const alreadyTagged = db
    .select({ one: sql`1` })
    .from(other)
    .where(
      and(
        eq(other.accountId, accountId),
        sql`${other.taggableType} = "taggings"."taggable_type"`,
        sql`${other.taggableId} = "taggings"."taggable_id"`,
        eq(other.tag, to),
      ),
    );
  return [
    db.delete(taggings).where(and(withOldTag, exists(alreadyTagged))),
    db.update(taggings).set({ tag: to }).where(withOldTag),
  ] as const;
}

/** Deletes the label. Like Chatwoot, records keep the tag; it simply has no label record any more. */
export async function deleteLabel(scope: AccountScope, id: number): Promise<void> {
  const { db } = scope;
  const [deleted] = await batch(db, [
    db.delete(labels).where(and(inAccount(scope), eq(labels.id, id))).returning({ id: labels.id }),
  ]);
  if (!deleted.length) throw notFound("Label", id);
}
