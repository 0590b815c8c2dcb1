/**
 * Contact export (Chatwoot's `POST /contacts/export`): the account's contacts, or those a filter payload
 * (and `label`) selects, as CSV in R2, written in the background and downloaded from a signed, expiring
 * URL (the scheme of message files, attachments/signing.ts). Chatwoot mails the link; here the export's
 * record carries it.
 *
 * Each queue message writes one segment: contacts in id order after the last one written, a page of
 * 1,000 examined per read, until the segment holds about 1 MiB of CSV; it is put in R2 as its own object
 * (`<key>/<n>`) and the export's progress moves in a batch guarded by the segment count, so a duplicate
 * message changes nothing. The download streams the segments back to back. Memory holds one segment.
 */
import { type SQL, and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { AttributeDefinition } from "../custom-attributes/rows";
import { decodeRow, now, rawSql, schema } from "../../db/client";
import { requireSignedAddress } from "../attachments/signing";
import { customAttributeDefinitionsQuery } from "../custom-attributes/values";
import { batch } from "../kernel/batch";
import { csvLine } from "../kernel/csv-fields";
import { TRANSFER_STATUS } from "../kernel/enums";
import { type ErrorEntry, invalid, notFound } from "../kernel/errors";
import type { ContactTransferMessage } from "../kernel/ports";
import { type AccountScope, type TransportScope, actingUserId, systemScope } from "../kernel/scope";
import { CONTACT_ATTRIBUTE } from "./contacts";
import { STALLED_AFTER_MS } from "./imports";
import { type FilterCondition, compileContactFilter } from "./filter";
import type { ContactExportRow, ContactRow } from "./rows";

const { contacts, contactExports } = schema;

/** Chatwoot's default columns. */
export const DEFAULT_EXPORT_COLUMNS = ["id", "name", "email", "phone_number"];

const iso = (ms: number | null) => (ms ? new Date(ms).toISOString() : "");
const attribute = (c: ContactRow, key: string) => {
  const v = c.additionalAttributes[key];
  return typeof v === "string" || typeof v === "number" ? v : "";
};

/** The columns an export may have: the contact's own (as Chatwoot's Contact columns), and a few of its additional attributes. */
const EXPORT_COLUMNS: Record<string, (c: ContactRow) => string | number | boolean | null> = {
  id: (c) => c.id,
  name: (c) => c.name,
  email: (c) => c.email,
  phone_number: (c) => c.phoneNumber,
  identifier: (c) => c.identifier,
  blocked: (c) => c.blocked,
  company_name: (c) => attribute(c, "company_name"),
  city: (c) => attribute(c, "city"),
  country: (c) => attribute(c, "country"),
  created_at: (c) => iso(c.createdAt),
  updated_at: (c) => iso(c.updatedAt),
  last_activity_at: (c) => iso(c.lastActivityAt),
  additional_attributes: (c) => JSON.stringify(c.additionalAttributes),
  custom_attributes: (c) => JSON.stringify(c.customAttributes),
};
export const EXPORT_COLUMN_NAMES = Object.keys(EXPORT_COLUMNS);

/** Contacts examined per read, and the CSV one queue message writes before handing over. */
export const EXPORT_PAGE = 1_000;
export const SEGMENT_BYTES = 1024 * 1024;

export type ExportInput = { columnNames?: string[]; payload?: FilterCondition[]; label?: string };

/**
 * The condition an export's filter selects by: the payload's conditions (over listed contacts, as the
 * filter route) and, with a label, also the label (Chatwoot's `label`), each compiled on its own so the
 * payload's ORs stay inside it.
 */
function exportCondition(accountId: number, filter: ContactExportRow["filter"], definitions: AttributeDefinition[]): SQL | null {
  if (!filter) return null;
  const parts: SQL[] = [sql`contacts.resolved = 1`];
  if (filter.payload && filter.payload.length > 0) parts.push(compileContactFilter(accountId, filter.payload as FilterCondition[], definitions, now()).where);
  if (filter.label) {
    const byLabel: FilterCondition = { attribute_key: "labels", filter_operator: "equal_to", values: [filter.label], query_operator: null };
    parts.push(compileContactFilter(accountId, [byLabel], definitions, now()).where);
  }
  return sql.join(parts, sql` AND `);
}

/** Records an export (its columns and filter checked first) and asks the background to write it. */
export async function startContactExport(scope: AccountScope, input: ExportInput): Promise<ContactExportRow> {
  const { db, accountId } = scope;
  const columnNames = input.columnNames && input.columnNames.length > 0 ? [...new Set(input.columnNames)] : DEFAULT_EXPORT_COLUMNS;
  const errors: ErrorEntry[] = (input.columnNames ?? []).flatMap((name, i) =>
    Object.hasOwn(EXPORT_COLUMNS, name) ? [] : [{ field: `column_names[${i}]`, message: `must be one of: ${EXPORT_COLUMN_NAMES.join(", ")}`, code: "invalid_value" }],
  );
  if (errors.length > 0) throw invalid(errors);
  const filter = (input.payload && input.payload.length > 0) || input.label ? { payload: input.payload ?? null, label: input.label ?? null } : null;
  if (filter) {
    // a payload that cannot run is refused now, as POST /contacts/filter refuses it
    const [definitions] = await batch(db, [customAttributeDefinitionsQuery(db, accountId, CONTACT_ATTRIBUTE)]);
    exportCondition(accountId, filter, definitions);
  }
  const at = now();
  const [[created]] = await batch(db, [
    db
      .insert(contactExports)
      .values({
        accountId,
        userId: actingUserId(scope),
        columnNames,
        filter,
        storageKey: `accounts/${accountId}/contact_exports/${crypto.randomUUID()}`,
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
  ]);
  await scope.ports.work.contactTransfer({ kind: "contact_export", accountId, exportId: created.id, segment: 0 });
  return created;
}

export async function showContactExport(scope: AccountScope, exportId: number): Promise<ContactExportRow> {
  const [rows] = await batch(scope.db, [
    scope.db.select().from(contactExports).where(and(eq(contactExports.id, exportId), eq(contactExports.accountId, scope.accountId))),
  ]);
  if (!rows[0]) throw notFound("Contact export", exportId);
  return rows[0];
}

/** The account's exports, newest first (the last 25). */
export async function listContactExports(scope: AccountScope): Promise<ContactExportRow[]> {
  const { db, accountId } = scope;
  const [rows] = await batch(db, [db.select().from(contactExports).where(eq(contactExports.accountId, accountId)).orderBy(desc(contactExports.id)).limit(25)]);
  return rows;
}

const segmentKey = (job: Pick<ContactExportRow, "storageKey">, n: number) => `${job.storageKey}/${n}`;

/** One segment of an export, then the next message (or the export completed). */
export async function runContactExportStep(transport: TransportScope, message: Extract<ContactTransferMessage, { kind: "contact_export" }>): Promise<void> {
  const scope = systemScope(transport, message.accountId);
  const { db, env, accountId } = scope;
  const [rows, definitions] = await batch(db, [
    db.select().from(contactExports).where(and(eq(contactExports.id, message.exportId), eq(contactExports.accountId, accountId))),
    customAttributeDefinitionsQuery(db, accountId, CONTACT_ATTRIBUTE),
  ]);
  const job = rows[0];
  if (!job || job.status >= TRANSFER_STATUS.completed || job.segments !== message.segment) return;
  const condition = exportCondition(accountId, job.filter, definitions);
  const columns = job.columnNames.map((name) => EXPORT_COLUMNS[name]).filter((f) => f !== undefined);

  let text = job.segments === 0 ? csvLine(job.columnNames) : "";
  let lastId = job.lastContactId;
  let exported = 0;
  let ended = false;
  while (!ended && text.length < SEGMENT_BYTES) {
    // a page of the account's contacts in id order; the filter (over listed contacts, as the filter
    // route) picks among them, so each read examines at most EXPORT_PAGE contacts whatever it matches
    const page = sql`SELECT id FROM ${contacts} WHERE account_id = ${accountId} AND id > ${lastId} ORDER BY id LIMIT ${EXPORT_PAGE}`;
    const where = condition ?? sql`1`;
    const [matched, examined] = await batch(db, [
      rawSql(db, sql`SELECT contacts.* FROM (${page}) AS page CROSS JOIN ${contacts} ON contacts.id = page.id AND contacts.account_id = ${accountId} WHERE ${where} ORDER BY contacts.id`),
      rawSql<{ last: number | null; n: number }>(db, sql`SELECT max(id) AS last, count(*) AS n FROM (${page})`),
    ]);
    for (const raw of matched) text += csvLine(columns.map((column) => column(decodeRow(contacts, raw))));
    exported += matched.length;
    const { last, n } = examined[0] ?? { last: null, n: 0 };
    if (last !== null) lastId = Number(last);
    ended = Number(n) < EXPORT_PAGE;
  }
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > 0) await env.FILES.put(segmentKey(job, job.segments), bytes, { httpMetadata: { contentType: "text/csv" } });
  const at = now();
  const [moved] = await batch(db, [
    db
      .update(contactExports)
      .set({
        segments: bytes.length > 0 ? job.segments + 1 : job.segments,
        lastContactId: lastId,
        exportedRecords: sql`${contactExports.exportedRecords} + ${exported}`,
        fileSize: sql`${contactExports.fileSize} + ${bytes.length}`,
        status: ended ? TRANSFER_STATUS.completed : TRANSFER_STATUS.processing,
        ...(ended && { completedAt: at }),
        updatedAt: at,
      })
      .where(and(eq(contactExports.accountId, accountId), eq(contactExports.id, job.id), eq(contactExports.segments, job.segments), eq(contactExports.lastContactId, job.lastContactId)))
      .returning({ segments: contactExports.segments }),
  ]);
  if (moved.length > 0 && !ended) await scope.ports.work.contactTransfer({ kind: "contact_export", accountId, exportId: job.id, segment: moved[0].segments });
}

/** Re-sends the next step of exports that stopped moving (a lost queue message, a Worker cut short). */
export async function resumeStalledExports(transport: TransportScope, at = now(), stalledAfterMs = STALLED_AFTER_MS): Promise<number> {
  const { db } = transport;
  const [stalled] = await batch(db, [
    db
      .select({ id: contactExports.id, accountId: contactExports.accountId, segments: contactExports.segments })
      .from(contactExports)
      .where(and(lt(contactExports.status, TRANSFER_STATUS.completed), lt(contactExports.updatedAt, at - stalledAfterMs)))
      .limit(50),
  ]);
  for (const s of stalled) await transport.ports.work.contactTransfer({ kind: "contact_export", accountId: s.accountId, exportId: s.id, segment: s.segments });
  if (stalled.length > 0) await batch(db, stalled.map((s) => db.update(contactExports).set({ updatedAt: at }).where(and(eq(contactExports.accountId, s.accountId), eq(contactExports.id, s.id), eq(contactExports.segments, s.segments)))));
  return stalled.length;
}

/** How long an ended export (its record and its file) is kept: as long as the webhook delivery log. */
export const EXPORT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Deletes exports that ended more than EXPORT_RETENTION_MS ago, their file's segments first, a few each
 * minute. Their link then answers 404, as a link to an export that never was.
 */
export async function deleteExpiredExports(transport: TransportScope, at = now()): Promise<number> {
  const { db, env } = transport;
  const [expired] = await batch(db, [
    db
      .select({ id: contactExports.id, accountId: contactExports.accountId, storageKey: contactExports.storageKey, segments: contactExports.segments })
      .from(contactExports)
      .where(and(gte(contactExports.status, TRANSFER_STATUS.completed), lt(contactExports.completedAt, at - EXPORT_RETENTION_MS)))
      .limit(20),
  ]);
  if (expired.length === 0) return 0;
  const keys = expired.flatMap((job) => Array.from({ length: job.segments }, (_, n) => segmentKey(job, n)));
  // R2 deletes up to 1,000 keys a call
  for (let i = 0; i < keys.length; i += 1000) await env.FILES.delete(keys.slice(i, i + 1000));
  await batch(db, expired.map((job) => db.delete(contactExports).where(and(eq(contactExports.accountId, job.accountId), eq(contactExports.id, job.id)))));
  return expired.length;
}

export type OpenedExport = { body: ReadableStream<Uint8Array>; size: number; fileName: string; etag: string };

/**
 * The CSV a signed URL names: 403 when the signature is wrong or the URL expired, 404 when the export is
 * not (or no longer) there or not finished. Its segments are streamed one after another.
 */
export async function openSignedExport(scope: TransportScope, accountId: number, exportId: number, expires: number, signature: string): Promise<OpenedExport> {
  const { db, env } = scope;
  requireSignedAddress(env.ATTACHMENT_URL_SECRET, { collection: "contact_exports", accountId, fileId: exportId }, expires, signature, "load the export again");
  const [rows] = await batch(db, [db.select().from(contactExports).where(and(eq(contactExports.id, exportId), eq(contactExports.accountId, accountId)))]);
  const job = rows[0];
  if (!job || job.status !== TRANSFER_STATUS.completed) throw notFound("Contact export", exportId);
  let next = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          if (next >= job.segments) return controller.close();
          const object = await env.FILES.get(segmentKey(job, next++));
          if (!object) return controller.error(new Error(`segment ${next - 1} of contact export ${job.id} is missing`));
          reader = object.body.getReader();
        }
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        reader = null;
      }
    },
    async cancel() {
      await reader?.cancel();
    },
  });
  return { body, size: job.fileSize, fileName: exportFileName(job), etag: `"export-${job.id}-${job.completedAt}"` };
}

/** The download's name, as Chatwoot's: `<account>_<id>_contacts.csv` (here with the export's id). */
export const exportFileName = (job: Pick<ContactExportRow, "id" | "accountId">) => `contacts_${job.accountId}_${job.id}.csv`;
