/** The rows the identity aggregate owns. */
import { schema } from "../../db/client";

export type UserRow = typeof schema.users.$inferSelect;
export type AccountRow = typeof schema.accounts.$inferSelect;
export type AccountUserRow = typeof schema.accountUsers.$inferSelect;
