/**
 * Contact import (Chatwoot's `POST /contacts/import` and its data_imports record). The upload is checked
 * (a non-empty text file within the file size limit whose header names contact columns), put in R2, and
 * recorded as a pending import; the queue consumer then reads it in steps (`runContactImportStep`).
 *
 * A step reads the file from its byte offset as a stream (an R2 range read) one record at a time and
 * writes chunks of rows, each in one atomic batch with the import's progress: memory holds one chunk,
 * whatever the size of the file. As in Chatwoot, a row updates the contact it names (by identifier, then
 * email, then phone number) or creates one; a row that breaks a rule is refused with its reasons and its
 * row number (the header is row 1), and the others go on. Like Chatwoot's bulk insert, an import sends no
 * contact_created / contact_updated events.
 */
import { and, asc, desc, eq, lt, sql } from "drizzle-orm";
import { type Statement, decodeRow, now, rawSql, schema } from "../../db/client";
import { SNIFF_BYTES, sniffFile } from "../attachments/kinds";
import { maxFileBytes } from "../attachments/uploads";
import type { AttributeDefinition } from "../custom-attributes/rows";
import { customAttributeDefinitionsQuery } from "../custom-attributes/values";
import { batch, batchGroups } from "../kernel/batch";
import { TRANSFER_STATUS } from "../kernel/enums";
import { type ErrorEntry, invalidField, notFound } from "../kernel/errors";
import type { ContactTransferMessage } from "../kernel/ports";
import { type AccountScope, type TransportScope, actingUserId, systemScope } from "../kernel/scope";
import { CONTACT_ATTRIBUTE, applyInput, resolvedCounter } from "./contacts";
import { CsvRecordReader, parseFields } from "./csv";
import { IDENTITY_COLUMNS, type ReadRow, type RowContact, normalizeColumn, readRow } from "./import-rows";
import type { ContactImportRefusalRow, ContactImportRow, ContactRow } from "./rows";
import { reindexContacts } from "./search-index";

const { contacts, contactImports, contactImportRefusals } = schema;

/** A record longer than this is not a contact: the import stops there (a file cut or not CSV at all). */
export const MAX_RECORD_BYTES = 64 * 1024;
/** Rows written per batch, and the bytes of their records: the JSON parameter stays well under D1's 2 MB value limit. */
export const CHUNK_ROWS = 500;
const CHUNK_BYTES = 256 * 1024;
/** What one queue message does before it hands the rest to the next one (a Worker's time is bounded). */
export const STEP_ROWS = 10_000;
const STEP_MS = 20_000;
/** Refused rows shown per page of an import. */
export const REFUSALS_PER_PAGE = 100;

export type UploadedFile = { file: File };

const EMPTY_CONTACT = { name: "", email: null, phoneNumber: null, identifier: null, blocked: false, avatarUrl: null, additionalAttributes: {}, customAttributes: {} };

// ---------------------------------------------------------------- the upload

/** The column names of a file's first record, read from its first bytes (null when there is no whole record there). */
function headerOf(head: Uint8Array): string[] | null {
  const text = new TextDecoder().decode(head);
  const end = text.search(/\r?\n/);
  if (end < 0 && head.length >= SNIFF_BYTES) return null;
  return parseFields(end < 0 ? text : text.slice(0, end)).map(normalizeColumn);
}

/**
 * Checks the uploaded file, stores it in R2 and records a pending import, then asks the background to
 * start on it. A refused file leaves nothing behind.
 */
export async function startContactImport(scope: AccountScope, upload: UploadedFile | undefined): Promise<ContactImportRow> {
  const { db, env, accountId } = scope;
  const field = "import_file";
  if (!upload) throw invalidField(field, "is required: send the CSV file as multipart form data, in import_file", "required");
  const { file } = upload;
  if (file.size === 0) throw invalidField(field, "is empty", "empty_file");
  const maxBytes = maxFileBytes(env);
  if (file.size > maxBytes) {
    const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
    throw invalidField(field, `is too large (${mb(file.size)}; the maximum is ${mb(maxBytes)})`, "file_too_large");
  }
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  // its content decides, not its name: UTF-8 text that is not markup
  if (sniffFile(head, "csv")?.contentType !== "text/csv") throw invalidField(field, "is not a CSV file (UTF-8 text with a header row)", "not_csv");
  const columns = headerOf(head);
  if (!columns || !IDENTITY_COLUMNS.some((c) => columns.includes(c))) {
    throw invalidField(field, `is not a CSV of contacts: its header row must name at least one of ${IDENTITY_COLUMNS.join(", ")}`, "not_contacts_csv");
  }

  const storageKey = `accounts/${accountId}/contact_imports/${crypto.randomUUID()}`;
  await env.FILES.put(storageKey, file, { httpMetadata: { contentType: "text/csv" }, customMetadata: { account_id: String(accountId) } });
  const at = now();
  let created: ContactImportRow;
  try {
    [[created]] = await batch(db, [
      db
        .insert(contactImports)
        .values({ accountId, userId: actingUserId(scope), fileName: file.name.slice(0, 255) || "contacts.csv", fileSize: file.size, storageKey, createdAt: at, updatedAt: at })
        .returning(),
    ]);
  } catch (error) {
    await env.FILES.delete(storageKey).catch(() => undefined);
    throw error;
  }
  await scope.ports.work.contactTransfer({ kind: "contact_import", accountId, importId: created.id, offset: 0 });
  return created;
}

// ---------------------------------------------------------------- reading the result

export type ContactImportResult = { record: ContactImportRow; refusals: ContactImportRefusalRow[]; page: number };

/** An import of the account, with one page of its refused rows (in row order). */
export async function showContactImport(scope: AccountScope, importId: number, page: number): Promise<ContactImportResult> {
  const { db, accountId } = scope;
  const [rows, refusals] = await batch(db, [
    db.select().from(contactImports).where(and(eq(contactImports.id, importId), eq(contactImports.accountId, accountId))),
    db
      .select()
      .from(contactImportRefusals)
      .where(and(eq(contactImportRefusals.importId, importId), eq(contactImportRefusals.accountId, accountId)))
      .orderBy(asc(contactImportRefusals.rowNumber))
      .limit(REFUSALS_PER_PAGE)
      .offset((page - 1) * REFUSALS_PER_PAGE),
  ]);
  if (!rows[0]) throw notFound("Contact import", importId);
  return { record: rows[0], refusals, page };
}

/** The account's imports, newest first (the last 25). */
export async function listContactImports(scope: AccountScope): Promise<ContactImportRow[]> {
  const { db, accountId } = scope;
  const [rows] = await batch(db, [db.select().from(contactImports).where(eq(contactImports.accountId, accountId)).orderBy(desc(contactImports.id)).limit(25)]);
  return rows;
}

// ---------------------------------------------------------------- the background steps

type Row = { rowNumber: number; fields: string[]; start: number; end: number; unterminated: boolean };

/** Where reading stands: the offset and row number of the next record, and the header's columns once read. */
type Progress = { offset: number; row: number; columns: string[] | null };

/** How the file ended, once it has: at its end, or at a record that cannot be read (`failure`). */
type Ending = { failure: string | null };

/**
 * One queue message's worth of an import: chunks of rows from `message.offset` until the file ends or the
 * step's budget is spent; then the next message is sent. A message whose offset is not the import's
 * stored one (a duplicate, or one the sweep re-sent after it was handled) does nothing.
 */
export async function runContactImportStep(transport: TransportScope, message: Extract<ContactTransferMessage, { kind: "contact_import" }>): Promise<void> {
  const scope = systemScope(transport, message.accountId);
  const { db, env, accountId } = scope;
  const [rows, definitions] = await batch(db, [
    db.select().from(contactImports).where(and(eq(contactImports.id, message.importId), eq(contactImports.accountId, accountId))),
    customAttributeDefinitionsQuery(db, accountId, CONTACT_ATTRIBUTE),
  ]);
  const job = rows[0];
  if (!job || job.status >= TRANSFER_STATUS.completed || job.nextOffset !== message.offset) return;

  if (job.nextOffset >= job.fileSize) {
    // the last step ended with the file's last row: nothing is left to read, only to finish
    const at = { offset: job.nextOffset, row: job.nextRow, columns: job.columns };
    const written = await writeChunk(scope, job.id, job.nextOffset, at, [], definitions, { header: false, ending: { failure: null } });
    if (written.finished && !written.lost) await forgetUploadedFile(scope, job);
    return;
  }
  const object = await env.FILES.get(job.storageKey, { range: { offset: job.nextOffset } });
  if (!object) {
    await batch(db, [
      db
        .update(contactImports)
        .set({ status: TRANSFER_STATUS.failed, failure: "the uploaded file is no longer stored", updatedAt: now(), completedAt: now() })
        .where(and(eq(contactImports.accountId, accountId), eq(contactImports.id, job.id), eq(contactImports.nextOffset, job.nextOffset))),
    ]);
    return;
  }
  const reader = new CsvRecordReader(object.body, job.nextOffset, MAX_RECORD_BYTES);
  const started = Date.now();
  let progress: Progress = { offset: job.nextOffset, row: job.nextRow, columns: job.columns };
  let storedOffset = job.nextOffset;
  let carried: Row[] = [];
  let ending: Ending | null = null;
  let rowsThisStep = 0;
  try {
    while (rowsThisStep < STEP_ROWS && Date.now() - started < STEP_MS) {
      // a chunk: the rows the last one left over first, then records until it is full or the file ends
      const chunk = carried;
      let bytes = chunk.reduce((n, r) => n + r.end - r.start, 0);
      let header = false;
      while (!ending && chunk.length < CHUNK_ROWS && bytes < CHUNK_BYTES) {
        const nextRow = chunk.length > 0 ? chunk[chunk.length - 1].rowNumber + 1 : progress.row;
        const record = await reader.next();
        if (record === null) ending = { failure: null };
        else if ("tooLong" in record) ending = { failure: `row ${nextRow} is longer than ${MAX_RECORD_BYTES} bytes: the rest of the file cannot be read as CSV` };
        else if (!progress.columns) {
          header = true;
          progress = { offset: record.end, row: progress.row + 1, columns: record.fields.map(normalizeColumn) };
        } else {
          chunk.push({ rowNumber: nextRow, fields: record.fields, start: record.start, end: record.end, unterminated: record.unterminated });
          bytes += record.end - record.start;
        }
      }
      const written = await writeChunk(scope, job.id, storedOffset, progress, chunk, definitions, { header, ending });
      if (written.lost) return; // another message got there first
      progress = written.progress;
      storedOffset = progress.offset;
      carried = chunk.slice(written.consumed);
      rowsThisStep += written.consumed;
      if (written.finished) return await forgetUploadedFile(scope, job);
    }
  } finally {
    await reader.cancel();
  }
  await scope.ports.work.contactTransfer({ kind: "contact_import", accountId, importId: job.id, offset: storedOffset });
}

/**
 * An import that ended has no further use for its upload: what it did is in the contacts, and what it
 * refused in its refusal rows. A delete that fails leaves a file behind, never an import undone.
 */
async function forgetUploadedFile(scope: AccountScope, job: Pick<ContactImportRow, "storageKey">) {
  await scope.env.FILES.delete(job.storageKey).catch((error) => console.error(JSON.stringify({ level: "error", contactImportFile: job.storageKey, error: String(error) })));
}

/** Where each chunk's rows find the contacts they name: one read by each unique key, through its index. */
function existingContactsQuery(scope: AccountScope, keys: { email: string[]; phone: string[]; identifier: string[] }) {
  const { accountId } = scope;
  const by = (column: string, values: string[]) =>
    sql`SELECT * FROM contacts WHERE account_id = ${accountId} AND ${sql.raw(column)} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
  return rawSql(scope.db, sql`${by("identifier", keys.identifier)} UNION ${by("email", keys.email)} UNION ${by("phone_number", keys.phone)}`);
}

type ContactValues = ReturnType<typeof applyInput>;
type Planned =
  | { kind: "create"; rowNumber: number; values: ContactValues }
  | { kind: "update"; rowNumber: number; id: number; values: ContactValues }
  | { kind: "refuse"; rowNumber: number; errors: ErrorEntry[] };

const UNTERMINATED: ErrorEntry = { field: "row", message: 'ends inside a quoted value (a closing " is missing)', code: "malformed_csv" };

/**
 * Validates the rows of one chunk against the contacts they name. A row that names a contact an earlier
 * row of the chunk created or changed ends the chunk before it: it is carried into the next chunk, which
 * reads that contact as stored (so the rows of a file apply in order, as one by one).
 */
function planChunk(chunk: Row[], reads: ReadRow[], stored: ContactRow[]): { planned: Planned[]; consumed: number } {
  const planned: Planned[] = [];
  const claimedKeys = new Set<string>();
  const touched = new Set<number>();
  let consumed = 0;
  for (const [i, row] of chunk.entries()) {
    const { rowNumber } = row;
    const read = reads[i];
    if ("contact" in read) {
      const c = read.contact;
      const rowKeys = [c.email && `e:${c.email}`, c.phoneNumber && `p:${c.phoneNumber}`, c.identifier && `i:${c.identifier}`].filter((k): k is string => !!k);
      const match = matchContact(stored, c);
      const found = "contact" in match ? match.contact : null;
      if (consumed > 0 && (rowKeys.some((k) => claimedKeys.has(k)) || (found && touched.has(found.id)))) break;
      if ("errors" in match) planned.push({ kind: "refuse", rowNumber, errors: match.errors });
      else {
        rowKeys.forEach((k) => claimedKeys.add(k));
        const input = { ...c, email: c.email ?? undefined, phoneNumber: c.phoneNumber ?? undefined, identifier: c.identifier ?? undefined };
        if (found) {
          touched.add(found.id);
          planned.push({ kind: "update", rowNumber, id: found.id, values: applyInput(found, input) });
        } else planned.push({ kind: "create", rowNumber, values: applyInput(EMPTY_CONTACT, input) });
      }
    } else if ("errors" in read) planned.push({ kind: "refuse", rowNumber, errors: read.errors });
    consumed++;
  }
  return { planned, consumed };
}

/** A contact's stored columns as one JSON object of the chunk's parameter. */
const contactJson = (v: ContactValues, id?: number) => ({
  ...(id !== undefined && { id }),
  name: v.name,
  email: v.email,
  phone_number: v.phoneNumber,
  identifier: v.identifier,
  additional_attributes: v.additionalAttributes,
  custom_attributes: v.customAttributes,
  resolved: v.resolved ? 1 : 0,
  name_sort: v.nameSort,
  company_sort: v.companySort,
  city_sort: v.citySort,
  country_sort: v.countrySort,
});

/** A value of each element of a json_each parameter (objects and arrays as JSON text). */
const member = (name: string) => sql.raw(`json_extract(value, '$.${name}')`);
const jsonMember = (name: string) => sql.raw(`json(json_extract(value, '$.${name}'))`);

/**
 * Writes one chunk in one batch: new contacts, changed contacts, their search index rows, the counter,
 * the refused rows and the import's progress. Every statement is guarded by the import's stored offset
 * (`storedOffset`), and the progress moves last: a duplicate message's batch writes nothing.
 */
async function writeChunk(
  scope: AccountScope,
  importId: number,
  storedOffset: number,
  before: Progress,
  chunk: Row[],
  definitions: AttributeDefinition[],
  read: { header: boolean; ending: Ending | null },
): Promise<{ consumed: number; progress: Progress; lost: boolean; finished: boolean }> {
  const { db, accountId } = scope;
  const columns = before.columns ?? [];
  const reads: ReadRow[] = chunk.map((row) => (row.unterminated ? { errors: [UNTERMINATED] } : readRow(columns, row.fields, definitions)));
  const keys = { email: new Set<string>(), phone: new Set<string>(), identifier: new Set<string>() };
  for (const r of reads) {
    if (!("contact" in r)) continue;
    if (r.contact.email) keys.email.add(r.contact.email);
    if (r.contact.phoneNumber) keys.phone.add(r.contact.phoneNumber);
    if (r.contact.identifier) keys.identifier.add(r.contact.identifier);
  }
  // (nothing to look up, as for a chunk of refused or name-only rows: no read)
  const anyKey = keys.email.size + keys.phone.size + keys.identifier.size > 0;
  const [existing] = anyKey ? await batch(db, [existingContactsQuery(scope, { email: [...keys.email], phone: [...keys.phone], identifier: [...keys.identifier] })]) : [[]];
  const { planned, consumed } = planChunk(chunk, reads, existing.map((raw) => decodeRow(contacts, raw)));

  const last = chunk[consumed - 1];
  const progress: Progress = { offset: last ? last.end : before.offset, row: last ? last.rowNumber + 1 : before.row, columns };
  const finished = consumed === chunk.length && read.ending !== null;
  const guard = sql`EXISTS (SELECT 1 FROM ${contactImports} WHERE id = ${importId} AND next_offset = ${storedOffset})`;

  const creates = planned.filter((p) => p.kind === "create");
  const updates = planned.filter((p) => p.kind === "update");
  const refusals = planned.filter((p) => p.kind === "refuse");
  const updatedIds = JSON.stringify(updates.map((p) => p.id));
  const newResolved = [...creates, ...updates].filter((p) => p.values.resolved).length;
  const at = now();
  const writes: Statement[] = [
    // the counter moves first, while the changed contacts still hold their old `resolved`
    resolvedCounter(
      scope,
      sql<number>`CASE WHEN ${guard} THEN ${newResolved} - (SELECT count(*) FROM ${contacts} WHERE account_id = ${accountId} AND resolved = 1
        AND id IN (SELECT value FROM json_each(${updatedIds}))) ELSE 0 END`,
    ),
  ];
  if (creates.length > 0) {
    writes.push(
      rawSql(
        db,
        sql`INSERT INTO ${contacts} (account_id, name, email, phone_number, identifier, blocked, additional_attributes, custom_attributes,
          resolved, name_sort, company_sort, city_sort, country_sort, created_at, updated_at)
          SELECT ${accountId}, ${member("name")}, ${member("email")}, ${member("phone_number")}, ${member("identifier")}, 0,
            ${jsonMember("additional_attributes")}, ${jsonMember("custom_attributes")}, ${member("resolved")}, ${member("name_sort")},
            ${member("company_sort")}, ${member("city_sort")}, ${member("country_sort")}, ${at}, ${at}
          FROM json_each(${JSON.stringify(creates.map((p) => contactJson(p.values)))}) WHERE ${guard} ORDER BY key`,
      ),
      // AUTOINCREMENT ids, one statement, the batch alone: the new contacts are the account's highest ids
      ...reindexContacts(db, accountId, sql`SELECT id FROM ${contacts} WHERE account_id = ${accountId} AND ${guard} ORDER BY id DESC LIMIT ${creates.length}`),
    );
  }
  if (updates.length > 0) {
    writes.push(
      rawSql(
        db,
        sql`UPDATE ${contacts} SET name = j.name, email = j.email, phone_number = j.phone_number, identifier = j.identifier,
          additional_attributes = j.additional_attributes, custom_attributes = j.custom_attributes, resolved = j.resolved,
          name_sort = j.name_sort, company_sort = j.company_sort, city_sort = j.city_sort, country_sort = j.country_sort, updated_at = ${at}
          FROM (SELECT ${member("id")} AS id, ${member("name")} AS name, ${member("email")} AS email, ${member("phone_number")} AS phone_number,
            ${member("identifier")} AS identifier, ${jsonMember("additional_attributes")} AS additional_attributes,
            ${jsonMember("custom_attributes")} AS custom_attributes, ${member("resolved")} AS resolved, ${member("name_sort")} AS name_sort,
            ${member("company_sort")} AS company_sort, ${member("city_sort")} AS city_sort, ${member("country_sort")} AS country_sort
            FROM json_each(${JSON.stringify(updates.map((p) => contactJson(p.values, p.id)))})) AS j
          WHERE contacts.id = j.id AND contacts.account_id = ${accountId} AND ${guard}`,
      ),
      ...reindexContacts(db, accountId, sql`SELECT value FROM json_each(${updatedIds}) WHERE ${guard}`),
    );
  }
  if (refusals.length > 0) {
    writes.push(
      rawSql(
        db,
        sql`INSERT INTO ${contactImportRefusals} (account_id, import_id, row_number, errors)
          SELECT ${accountId}, ${importId}, ${member("row")}, ${jsonMember("errors")}
          FROM json_each(${JSON.stringify(refusals.map((p) => ({ row: p.rowNumber, errors: p.errors })))}) WHERE ${guard}`,
      ),
    );
  }
  const imported = creates.length + updates.length;
  const status = !finished ? TRANSFER_STATUS.processing : read.ending?.failure ? TRANSFER_STATUS.failed : TRANSFER_STATUS.completed;
  const { moved } = await batchGroups(db, {
    writes,
    moved: [
      db
        .update(contactImports)
        .set({
          nextOffset: progress.offset,
          nextRow: progress.row,
          ...(read.header && { columns }),
          status,
          totalRecords: sql`${contactImports.totalRecords} + ${imported + refusals.length}`,
          processedRecords: sql`${contactImports.processedRecords} + ${imported}`,
          refusedRecords: sql`${contactImports.refusedRecords} + ${refusals.length}`,
          ...(finished && { completedAt: at, failure: read.ending?.failure ?? null }),
          updatedAt: at,
        })
        .where(and(eq(contactImports.accountId, accountId), eq(contactImports.id, importId), eq(contactImports.nextOffset, storedOffset)))
        .returning({ id: contactImports.id }),
    ],
  });
  return { consumed, progress, lost: moved[0].length === 0, finished };
}

/**
 * The stored contact a row names, as Chatwoot finds it (identifier, then email, then phone number), or a
 * refusal when the row's values belong to different contacts (the API's uniqueness rule).
 */
function matchContact(stored: ContactRow[], c: RowContact): { contact: ContactRow | null } | { errors: ErrorEntry[] } {
  const byIdentifier = c.identifier ? stored.find((s) => s.identifier === c.identifier) : undefined;
  const byEmail = c.email ? stored.find((s) => s.email === c.email) : undefined;
  const byPhone = c.phoneNumber ? stored.find((s) => s.phoneNumber === c.phoneNumber) : undefined;
  const found = byIdentifier ?? byEmail ?? byPhone ?? null;
  const taken = (other: ContactRow | undefined, field: string): ErrorEntry[] =>
    other && found && other.id !== found.id ? [{ field, message: `has already been taken (by contact ${other.id})`, code: "taken" }] : [];
  const errors = [...taken(byEmail, "email"), ...taken(byPhone, "phone_number")];
  return errors.length > 0 ? { errors } : { contact: found };
}

/** Imports and exports whose last step is older than this are sent again by the minute sweep. */
export const STALLED_AFTER_MS = 5 * 60 * 1000;

/** Re-sends the next step of imports that stopped moving (a lost queue message, a Worker cut short). */
export async function resumeStalledImports(transport: TransportScope, at = now()): Promise<number> {
  const { db } = transport;
  const [stalled] = await batch(db, [
    db
      .select({ id: contactImports.id, accountId: contactImports.accountId, offset: contactImports.nextOffset })
      .from(contactImports)
      .where(and(lt(contactImports.status, TRANSFER_STATUS.completed), lt(contactImports.updatedAt, at - STALLED_AFTER_MS)))
      .limit(50),
  ]);
  for (const s of stalled) {
    await transport.ports.work.contactTransfer({ kind: "contact_import", accountId: s.accountId, importId: s.id, offset: s.offset });
  }
  // touch them, so each is re-sent once per STALLED_AFTER_MS rather than every minute
  if (stalled.length > 0) {
    await batch(db, stalled.map((s) => db.update(contactImports).set({ updatedAt: at }).where(and(eq(contactImports.accountId, s.accountId), eq(contactImports.id, s.id), eq(contactImports.nextOffset, s.offset)))));
  }
  return stalled.length;
}
