/** The rows the help-center aggregate owns: portals, their categories and articles. */
import { schema } from "../../db/client";

export type PortalRow = typeof schema.portals.$inferSelect;
export type CategoryRow = typeof schema.categories.$inferSelect;
export type ArticleRow = typeof schema.articles.$inferSelect;
