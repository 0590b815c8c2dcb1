/** Contact labels (Chatwoot tags contacts by label title). */
import { and, eq } from "drizzle-orm";
import { type Statement, now, schema } from "../../db/client";
import { batch, writeThenRead } from "../kernel/batch";
import { contactQuery } from "./contacts";
import { type AccountScope } from "../kernel/scope";
import { notFound } from "../kernel/errors";

const { taggings } = schema;

const contactLabelsQuery = (scope: AccountScope, contactId: number) =>
  scope.db
    .select({ tag: taggings.tag })
    .from(taggings)
    .where(and(eq(taggings.accountId, scope.accountId), eq(taggings.taggableType, "Contact"), eq(taggings.taggableId, contactId)))
    .orderBy(taggings.tag);

export async function listContactLabels(scope: AccountScope, contactId: number): Promise<string[]> {
  const [contactRows, tags] = await batch(scope.db, [contactQuery(scope, contactId), contactLabelsQuery(scope, contactId)]);
  if (!contactRows[0]) throw notFound("Contact", contactId);
  return tags.map((t) => t.tag);
}

/** Replaces the contact's labels with `labels` (Chatwoot's POST replaces, never appends). */
export async function replaceContactLabels(scope: AccountScope, contactId: number, labels: string[]): Promise<string[]> {
  const { db, accountId } = scope;
  const [contactRows] = await batch(db, [contactQuery(scope, contactId)]);
  if (!contactRows[0]) throw notFound("Contact", contactId);
  const tags = [...new Set(labels.map((l) => l.trim()).filter((l) => l !== ""))];
  const at = now();
  // 5 columns a row: chunked to stay within D1's 100 bound parameters per statement.
  const inserts: Statement[] = [];
  for (let i = 0; i < tags.length; i += 19) {
    const rows = tags.slice(i, i + 19).map((tag) => ({ accountId, taggableType: "Contact", taggableId: contactId, tag, createdAt: at }));
    inserts.push(db.insert(taggings).values(rows));
  }
  const replace = [
    db.delete(taggings).where(and(eq(taggings.accountId, accountId), eq(taggings.taggableType, "Contact"), eq(taggings.taggableId, contactId))),
    ...inserts,
  ];
  const [tagged] = await writeThenRead(db, replace, [contactLabelsQuery(scope, contactId)]);
  return tagged.map((t) => t.tag);
}
