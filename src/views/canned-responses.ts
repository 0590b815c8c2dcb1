import type { CannedResponseRow } from "../domain/settings/rows";
import { iso } from "./time";

/** Chatwoot renders the raw record, so the times are ISO strings. */
export function cannedResponseView(row: CannedResponseRow) {
  return {
    id: row.id,
    account_id: row.accountId,
    short_code: row.shortCode,
    content: row.content,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
