/** The rows the attachments aggregate owns: message files and automation rule files (both in R2). */
import { schema } from "../../db/client";
export type { StoredAttachment } from "../../../drizzle/schema";

export type AttachmentRow = typeof schema.attachments.$inferSelect;
export type RuleFileRow = typeof schema.automationRuleFiles.$inferSelect;
