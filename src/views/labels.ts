import type { LabelRow } from "../domain/settings/rows";

export function labelView(row: LabelRow) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    color: row.color,
    show_on_sidebar: row.showOnSidebar,
  };
}
