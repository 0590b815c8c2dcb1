import type { CampaignRecord } from "../domain/campaigns/campaigns";
import { CAMPAIGN_STATUSES, CAMPAIGN_TYPE, CAMPAIGN_TYPES, type TriggerRules } from "../domain/campaigns/rows";
import { enumName } from "../domain/kernel/enums";
import { agentView } from "./agents";
import { iso, unixSeconds } from "./time";

/**
 * A campaign as Chatwoot's partial shows it (`id` is the per-account display id; `scheduled_at` and
 * `audience` only for one-off campaigns; times ISO 8601), with the inbox rendered by the caller (the
 * inbox view depends on who looks), plus edgedesk's `display_id`, `inbox_id`, `sender_id` and the run's
 * figures: `audience_count`, `sent_count`, `started_at`, `completed_at`.
 */
export function campaignView({ campaign, sender }: CampaignRecord, inbox: unknown) {
  const oneOff = campaign.campaignType === CAMPAIGN_TYPE.one_off;
  return {
    id: campaign.displayId,
    display_id: campaign.displayId,
    title: campaign.title,
    description: campaign.description,
    account_id: campaign.accountId,
    inbox_id: campaign.inboxId,
    inbox,
    sender_id: campaign.senderId,
    sender: sender && agentView(sender, campaign.accountId),
    message: campaign.message,
    campaign_status: enumName(CAMPAIGN_STATUSES, campaign.campaignStatus) ?? "active",
    enabled: campaign.enabled,
    campaign_type: enumName(CAMPAIGN_TYPES, campaign.campaignType) ?? "ongoing",
    ...(oneOff && { scheduled_at: unixSeconds(campaign.scheduledAt ?? campaign.createdAt), audience: campaign.audience }),
    trigger_rules: campaign.triggerRules,
    trigger_only_during_business_hours: campaign.triggerOnlyDuringBusinessHours,
    audience_count: campaign.audienceCount,
    sent_count: campaign.sentCount,
    started_at: unixSeconds(campaign.runStartedAt),
    completed_at: unixSeconds(campaign.completedAt),
    created_at: iso(campaign.createdAt),
    updated_at: iso(campaign.updatedAt),
  };
}

/** What a widget is shown of a campaign (Chatwoot's widget view), and whether it waits for business hours. */
export function widgetCampaignView({ campaign, sender }: CampaignRecord) {
  return {
    id: campaign.displayId,
    trigger_rules: campaign.triggerRules as TriggerRules,
    trigger_only_during_business_hours: campaign.triggerOnlyDuringBusinessHours,
    message: campaign.message,
    sender: sender && { name: sender.displayName || sender.name, avatar_url: sender.avatarUrl ?? "" },
  };
}
