/**
 * Files a client sends with a message (or a rule): checked before anything is stored, then put in R2.
 * A refused upload (too many files, one too large, empty, or of a type that is not accepted) leaves
 * nothing behind: every file is checked before the first one is stored.
 */
import { type ErrorEntry, invalid, invalidField } from "../kernel/errors";
import type { TransportScope } from "../kernel/scope";
import { type FileKind, SNIFF_BYTES, sniffFile } from "./kinds";

/** Chatwoot's limit of files on one message. */
export const MAX_FILES_PER_MESSAGE = 15;
const DEFAULT_MAX_FILE_MB = 40;

/** A file as the client sent it (a multipart part). */
export type IncomingFile = { field: string; file: File };

/** A file that passed the checks (or a copy of a stored one): what it really is, and the name it is served under. */
export type CheckedFile = { body: Blob | ReadableStream; fileName: string; size: number; kind: FileKind };

/**
 * The largest body a route that takes files accepts: 100 MB, Cloudflare's request limit on the Free and
 * Pro plans (and about what a Worker can hold in memory while the form is parsed). One file may still be
 * refused below that, by its own limit.
 */
export const MAX_FILES_BODY_BYTES = 100 * 1024 * 1024;

/** A checked file once it is in R2. */
export type StoredFile = CheckedFile & { storageKey: string };

/** The largest file accepted, in bytes: MAXIMUM_FILE_UPLOAD_SIZE (MB, as Chatwoot reads it), 40 MB by default. */
export function maxFileBytes(env: Env): number {
  const mb = Number(env.MAXIMUM_FILE_UPLOAD_SIZE);
  return (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_FILE_MB) * 1024 * 1024;
}

const formatMb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

function nameParts(name: string): { stem: string; extension: string } {
  // a path from an old browser ("C:\\Users\\x\\photo.png") keeps its last part; control characters go
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 200);
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return { stem: base || "file", extension: "" };
  return { stem: base.slice(0, dot), extension: base.slice(dot + 1).toLowerCase() };
}

/**
 * Checks every file (count, size, kind by content) and answers them ready to store, or throws one 422
 * naming each refused file by its position (`attachments[2]`).
 */
export async function checkUploads(scope: TransportScope, files: IncomingFile[], field = "attachments"): Promise<CheckedFile[]> {
  const { env } = scope;
  if (files.length > MAX_FILES_PER_MESSAGE) {
    throw invalidField(field, `must have at most ${MAX_FILES_PER_MESSAGE} files (got ${files.length})`, "too_many_files");
  }
  if (files.length > 0 && !env.ATTACHMENT_URL_SECRET) {
    throw invalidField(field, "file uploads are not configured on this server (ATTACHMENT_URL_SECRET is not set)", "uploads_not_configured");
  }
  const maxBytes = maxFileBytes(env);
  const errors: ErrorEntry[] = [];
  const checked: CheckedFile[] = [];
  for (const [i, { file }] of files.entries()) {
    const at = `${field}[${i}]`;
    if (file.size === 0) {
      errors.push({ field: at, message: "is empty", code: "empty_file" });
      continue;
    }
    if (file.size > maxBytes) {
      errors.push({ field: at, message: `is too large (${formatMb(file.size)}; the maximum is ${formatMb(maxBytes)})`, code: "file_too_large" });
      continue;
    }
    const { stem, extension } = nameParts(file.name);
    const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
    const kind = sniffFile(head, extension);
    if (!kind) {
      errors.push({
        field: at,
        message: "is not an accepted file type: images, audio, video, PDF, office documents, archives and plain text are (its content decides, not its name)",
        code: "file_type_not_allowed",
      });
      continue;
    }
    // the name shows what the file is: "invoice.pdf.exe" stays refused above; "scan" becomes "scan.pdf"
    const fileName = extension === kind.extension || (kind.extension === "jpg" && extension === "jpeg") ? `${stem}.${extension}` : `${stem}.${kind.extension}`;
    checked.push({ body: file, fileName, size: file.size, kind });
  }
  if (errors.length > 0) throw invalid(errors);
  return checked;
}

/**
 * Puts the files in R2 under fresh keys of the account. If one put fails, the others are removed before
 * the error goes on, so a failed upload leaves no object.
 */
export async function storeFiles(env: Env, accountId: number, files: CheckedFile[], folder: string): Promise<StoredFile[]> {
  const stored = files.map((f) => ({ ...f, storageKey: `accounts/${accountId}/${folder}/${crypto.randomUUID()}` }));
  const puts = await Promise.allSettled(
    stored.map((f) => env.FILES.put(f.storageKey, f.body, { httpMetadata: { contentType: f.kind.contentType }, customMetadata: { account_id: String(accountId) } })),
  );
  const failed = puts.find((p): p is PromiseRejectedResult => p.status === "rejected");
  if (failed) {
    await removeObjects(env, stored.map((f) => f.storageKey));
    throw failed.reason;
  }
  return stored;
}

/** Removes objects from R2 (1,000 keys a call, R2's limit). A failure is logged: the rows are gone already. */
export async function removeObjects(env: Env, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    try {
      await env.FILES.delete(keys.slice(i, i + 1000));
    } catch (error) {
      console.error(JSON.stringify({ level: "error", message: "R2 delete failed", keys: keys.slice(i, i + 1000).length, error: String(error) }));
    }
  }
}
