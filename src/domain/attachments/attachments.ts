/**
 * Message files as rows: their inserts (in the batch that inserts the message), the copy a message keeps
 * of them, and the file a signed URL opens.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import type { TransportScope } from "../kernel/scope";
import { batch } from "../kernel/batch";
import { notFound } from "../kernel/errors";
import { type FileAddress, requireSignedAddress } from "./signing";
import type { StoredFile } from "./uploads";

const { attachments, automationRuleFiles } = schema;

/** A value bound as a parameter, or a subquery of the same batch (e.g. `lastInsertedId`). */
type Ref = number | SQL<number>;

/** The inserts of a new message's files; `messageId` may be the message inserted earlier in the batch. */
export function attachmentInsertStatements(db: Database, accountId: number, target: { conversationId: Ref; messageId: Ref }, files: StoredFile[], at: number) {
  return files.map((f) =>
    db.insert(attachments).values({
      accountId,
      conversationId: sql`${target.conversationId}`,
      messageId: sql`${target.messageId}`,
      fileType: f.kind.fileType,
      extension: f.kind.extension,
      contentType: f.kind.contentType,
      fileName: f.fileName,
      fileSize: f.size,
      width: f.kind.width,
      height: f.kind.height,
      storageKey: f.storageKey,
      createdAt: at,
    }),
  );
}

/** The JSON array a message keeps of its files (`messages.attachments`), built from their rows in SQL. */
export const storedAttachmentsJson = (accountId: number, messageId: Ref) => sql`(SELECT coalesce(json_group_array(json_object(
    'id', a.id, 'file_type', a.file_type, 'extension', a.extension, 'content_type', a.content_type, 'file_name', a.file_name,
    'file_size', a.file_size, 'width', a.width, 'height', a.height)), '[]')
  FROM (SELECT * FROM ${attachments} WHERE message_id = ${messageId} AND account_id = ${accountId} ORDER BY id) a)`;

/** The storage keys of the files of some messages or conversations, read before their rows are deleted. */
export const attachmentKeysQuery = (db: Database, accountId: number, where: SQL) =>
  db.select({ key: attachments.storageKey }).from(attachments).where(and(eq(attachments.accountId, accountId), where));

export type OpenedFile = { object: R2ObjectBody; contentType: string; fileName: string; size: number };

/**
 * The file a signed URL names: 403 when the signature is wrong or the URL expired; 404 when the file is
 * gone (its message was deleted) even though the URL is still valid.
 */
export async function openSignedFile(scope: TransportScope, address: FileAddress, expires: number, signature: string): Promise<OpenedFile> {
  const { db, env } = scope;
  requireSignedAddress(env.ATTACHMENT_URL_SECRET, address, expires, signature, "load the message again");
  const table = address.collection === "attachments" ? attachments : automationRuleFiles;
  const [rows] = await batch(db, [
    db
      .select({ storageKey: table.storageKey, contentType: table.contentType, fileName: table.fileName, fileSize: table.fileSize })
      .from(table)
      .where(and(eq(table.id, address.fileId), eq(table.accountId, address.accountId))),
  ]);
  const row = rows[0];
  const object = row ? await env.FILES.get(row.storageKey) : null;
  if (!row || !object) throw notFound("File", address.fileId);
  return { object, contentType: row.contentType, fileName: row.fileName, size: row.fileSize };
}
