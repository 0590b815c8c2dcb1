/** Request and response schemas of contact import and export (/contacts/import, /contacts/export and their records). */
import { z } from "zod";
import { ShortText } from "./common";
import { ContactFilterCondition } from "./contacts";

const seconds = z.number().int().describe("Unix seconds");
const Status = z.enum(["pending", "processing", "completed", "failed"]);

/** `column_names[]=id&column_names[]=name`, a JSON array, or one comma-separated string. */
const ColumnNames = z
  .union([z.array(z.string().max(100)).max(50), z.string().max(2000)])
  .transform((v) => (Array.isArray(v) ? v : v.split(",").map((name) => name.trim()).filter((name) => name !== "")));

export const ContactExportBody = z.object({
  column_names: ColumnNames.optional(),
  payload: z.array(ContactFilterCondition).max(20).optional(),
  label: ShortText.min(1).optional(),
});

export const ContactImportQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});

const FieldError = z.object({ field: z.string(), message: z.string(), code: z.string() });

export const ContactImport = z
  .looseObject({
    id: z.number().int(),
    data_type: z.literal("contacts"),
    status: Status,
    file_name: z.string(),
    file_size: z.number().int(),
    total_records: z.number().int().describe("rows read so far (imported and refused)"),
    processed_records: z.number().int().describe("rows imported: contacts created or updated"),
    refused_records: z.number().int(),
    failure: z.string().nullable().describe("why the import stopped, when its status is failed"),
    created_at: seconds,
    updated_at: seconds,
    completed_at: seconds.nullable(),
    refused_rows: z
      .array(z.object({ row: z.number().int().describe("the row's number in the file; the header is row 1"), errors: z.array(FieldError) }))
      .optional()
      .describe("one page of the refused rows, in row order (100 a page, `page` in the query)"),
  })
  .meta({ id: "ContactImport" });

export const ContactExport = z
  .looseObject({
    id: z.number().int(),
    status: Status,
    column_names: z.array(z.string()),
    filter: z.object({ payload: z.array(z.unknown()).nullable(), label: z.string().nullable() }).nullable().describe("what selects the contacts; null: every contact"),
    exported_records: z.number().int(),
    file_size: z.number().int(),
    created_at: seconds,
    completed_at: seconds.nullable(),
    download_url: z.string().nullable().describe("signed URL of the CSV once completed; it expires after one to two hours (load the export again for a fresh one)"),
    download_expires_at: seconds.nullable(),
  })
  .meta({ id: "ContactExport" });
