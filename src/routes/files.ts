/**
 * /files/{attachments|rule_files|contact_exports}/{account_id}/{id}/{name}?expires=&signature=: a stored file, served by
 * the Worker without a key (an `<img>` tag cannot send one) to whoever holds a valid signed URL.
 */
import { Hono } from "hono";
import { z } from "zod";
import { openSignedFile } from "../domain/attachments/attachments";
import { openSignedExport } from "../domain/contacts/exports";
import { servedInline } from "../domain/attachments/kinds";
import type { AppEnv } from "../http/app-env";
import { publicScope } from "../http/scopes";
import { useShardOfAccount } from "../http/public-route";
import { doc } from "../http/openapi";
import { validate } from "../http/validate";
import { Id } from "../schemas/common";

const FileParam = z.object({ collection: z.enum(["attachments", "rule_files", "contact_exports"]), account_id: Id, file_id: Id });
const SignedQuery = z.object({ expires: z.coerce.number().int().nonnegative(), signature: z.string().min(1).max(100) });

/** RFC 6266: an ASCII fallback name, and the real one percent-encoded (RFC 5987). */
function contentDisposition(kind: "inline" | "attachment", fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export const filesApi = new Hono<AppEnv>().get(
  "/:collection/:account_id/:file_id/:file_name?",
  doc({
    summary: "A stored file, from its signed URL",
    description: "The URL comes signed in a message's `attachments[].data_url` (or a rule file's, or a contact export's `download_url`); no key. The file's own type is answered; 403 when the signature expired or was altered.",
  }),
  validate("param", FileParam.extend({ file_name: z.string().optional() })),
  validate("query", SignedQuery),
  async (c) => {
    const { collection, account_id, file_id } = c.req.valid("param");
    const { expires, signature } = c.req.valid("query");
    await useShardOfAccount(c, account_id);
    if (collection === "contact_exports") {
      // a contact export's CSV, streamed from its segments; always downloaded
      const opened = await openSignedExport(publicScope(c), account_id, file_id, expires, signature);
      return new Response(opened.body, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-length": String(opened.size),
          "content-disposition": contentDisposition("attachment", opened.fileName),
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'; sandbox",
          "cache-control": "private, no-store",
          etag: opened.etag,
        },
      });
    }
    const file = await openSignedFile(publicScope(c), { collection, accountId: account_id, fileId: file_id }, expires, signature);
    const inline = servedInline(file.contentType);
    const headers = new Headers({
      "content-type": file.contentType,
      "content-length": String(file.object.size),
      // only plain raster images show in the page; everything else (PDF, audio, text...) is downloaded
      "content-disposition": contentDisposition(inline ? "inline" : "attachment", file.fileName),
      "x-content-type-options": "nosniff",
      // a file is never a page: no scripts, no plugins, no frames, even when opened directly
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": `private, max-age=${Math.max(0, expires - Math.floor(Date.now() / 1000))}`,
      etag: file.object.httpEtag,
    });
    return new Response(file.object.body, { headers });
  },
);
