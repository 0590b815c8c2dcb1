/** The rows the campaigns aggregate owns, and its enumerations as Chatwoot names them. */
import type { schema } from "../../db/client";

export type CampaignRow = typeof schema.campaigns.$inferSelect;
export type CampaignRecipientRow = typeof schema.campaignRecipients.$inferSelect;

/** Stored as the index (Chatwoot's enum values). */
export const CAMPAIGN_TYPES = ["ongoing", "one_off"] as const;
export const CAMPAIGN_STATUSES = ["active", "completed"] as const;
export const CAMPAIGN_TYPE = { ongoing: 0, one_off: 1 } as const;
export const CAMPAIGN_STATUS = { active: 0, completed: 1 } as const;

export type AudienceEntry = { type: "Label"; id: number };
export type TriggerRules = { url?: string; time_on_page?: number };
