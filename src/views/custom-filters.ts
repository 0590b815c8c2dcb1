import type { CustomFilterRow } from "../domain/settings/rows";
import { FILTER_TYPES, enumName } from "../domain/kernel/enums";
import { iso } from "./time";

export function customFilterView(row: CustomFilterRow) {
  return {
    id: row.id,
    name: row.name,
    filter_type: enumName(FILTER_TYPES, row.filterType),
    query: row.query,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
