/**
 * Bulk actions on contacts (Chatwoot's `POST /bulk_actions` with `type: Contact`): `action_name: delete`
 * (administrators, as Chatwoot's contact policy has it) or labels added and removed. Each contact goes
 * through the function its own route uses (deleteContact, replaceContactLabels), so it is changed, and
 * its events written, as if one by one. The ids are contact ids; those the account does not have are
 * skipped and reported (every member reaches every contact of the account). Up to BULK_IN_REQUEST
 * contacts run in the request; a larger selection runs on the queue in slices, as conversations' do.
 */
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { batchNamed } from "../kernel/batch";
import { DomainError, forbidden } from "../kernel/errors";
import { type AccountScope } from "../kernel/scope";
import type { ContactBulkInput } from "../kernel/bulk-inputs";
import { BULK_IN_REQUEST, queueBulkAction } from "../kernel/bulk-queue";
import { deleteContact } from "./contacts";
import { replaceContactLabels } from "./labels";

const { contacts, taggings } = schema;

export const BULK_CONTACT_SLICE = 100;

export type { ContactBulkInput };

export type ContactBulkResult = {
  ids: number[];
  skipped: Array<{ id: number; reason: "not_found" }>;
  failures: Array<{ id: number; field: string; code: string; message: string }>;
  /** ids sent to the queue (a selection larger than BULK_IN_REQUEST) */
  queued: number;
};

export async function bulkUpdateContacts(scope: AccountScope, input: ContactBulkInput): Promise<ContactBulkResult> {
  if (scope.actor.type !== "user") throw forbidden("Only users run bulk actions", "user_required");
  if (input.action === "delete" && scope.role !== "administrator") {
    throw forbidden("Only administrators of this account may delete contacts", "administrator_required");
  }
  const ids = [...new Set(input.ids)];
  if (ids.length > BULK_IN_REQUEST) return queueBulkAction(scope, ids, (slice) => ({ type: "Contact", input: { ...input, ids: slice } }));
  const result: ContactBulkResult = { ids: [], skipped: [], failures: [], queued: 0 };
  for (let i = 0; i < ids.length; i += BULK_CONTACT_SLICE) {
    const slice = ids.slice(i, i + BULK_CONTACT_SLICE);
    const { found, tags } = await readSlice(scope, slice);
    const known = new Set(found.map((c) => c.id));
    const tagsOf = new Map<number, string[]>();
    for (const t of tags) tagsOf.set(t.contactId, [...(tagsOf.get(t.contactId) ?? []), t.tag]);
    for (const id of slice) {
      if (!known.has(id)) {
        result.skipped.push({ id, reason: "not_found" });
        continue;
      }
      try {
        if (input.action === "delete") await deleteContact(scope, id);
        else {
          const current = tagsOf.get(id) ?? [];
          const remove = input.remove ?? [];
          const kept = current.filter((l) => !remove.includes(l));
          const next = [...kept, ...(input.add ?? []).filter((l) => !kept.includes(l))];
          if (JSON.stringify(next) !== JSON.stringify(current)) await replaceContactLabels(scope, id, next);
        }
        result.ids.push(id);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const entry = error.errors[0];
        result.failures.push({ id, field: entry?.field ?? "", code: entry?.code ?? error.code, message: entry?.message ?? error.description });
      }
    }
  }
  return result;
}

function readSlice(scope: AccountScope, ids: number[]) {
  const { db, accountId } = scope;
  const inSlice = sql`IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  return batchNamed(db, {
    found: db.select({ id: contacts.id }).from(contacts).where(and(eq(contacts.accountId, accountId), sql`${contacts.id} ${inSlice}`)),
    tags: db
      .select({ contactId: taggings.taggableId, tag: taggings.tag })
      .from(taggings)
      .where(and(eq(taggings.accountId, accountId), eq(taggings.taggableType, "Contact"), sql`${taggings.taggableId} ${inSlice}`))
      .orderBy(taggings.tag),
  });
}
