/** Contact imports (as Chatwoot's data_imports record) and exports, with the export's signed download URL. */
import type { ContactExportRow, ContactImportRefusalRow, ContactImportRow } from "../domain/contacts/rows";
import { exportFileName } from "../domain/contacts/exports";
import { urlExpiry } from "../domain/attachments/signing";
import { TRANSFER_STATUSES, TRANSFER_STATUS, enumName } from "../domain/kernel/enums";
import { fileUrl } from "./attachments";
import { unixSeconds } from "./time";

const statusName = (status: number) => enumName(TRANSFER_STATUSES, status) ?? "pending";

export function contactImportView(row: ContactImportRow, refusals?: ContactImportRefusalRow[]) {
  return {
    id: row.id,
    data_type: "contacts" as const,
    status: statusName(row.status),
    file_name: row.fileName,
    file_size: row.fileSize,
    total_records: row.totalRecords,
    processed_records: row.processedRecords,
    refused_records: row.refusedRecords,
    failure: row.failure,
    created_at: unixSeconds(row.createdAt),
    updated_at: unixSeconds(row.updatedAt),
    completed_at: unixSeconds(row.completedAt),
    ...(refusals && { refused_rows: refusals.map((r) => ({ row: r.rowNumber, errors: r.errors })) }),
  };
}

export function contactExportView(row: ContactExportRow, nowMs = Date.now()) {
  const ready = row.status === TRANSFER_STATUS.completed;
  const url = ready ? fileUrl({ collection: "contact_exports", accountId: row.accountId, fileId: row.id }, exportFileName(row), nowMs) : "";
  return {
    id: row.id,
    status: statusName(row.status),
    column_names: row.columnNames,
    filter: row.filter,
    exported_records: row.exportedRecords,
    file_size: row.fileSize,
    created_at: unixSeconds(row.createdAt),
    completed_at: unixSeconds(row.completedAt),
    download_url: url || null,
    download_expires_at: url ? urlExpiry(nowMs) : null,
  };
}
