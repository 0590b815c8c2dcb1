/**
 * Ongoing campaigns as a website's widget meets them (Chatwoot's widget campaigns API and its
 * `campaign.triggered` event): the inbox's enabled campaigns whose URL rule matches the page, leaving
 * out those limited to business hours while the inbox is closed; and a triggered campaign becoming the
 * first message of a new conversation of the visitor, as Chatwoot's CampaignConversationBuilder does
 * (nothing when the visitor's contact inbox has a conversation already).
 */
import { and, eq } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batchNamed } from "../kernel/batch";
import { invalidField, notFound } from "../kernel/errors";
import { type TransportScope, systemScope } from "../kernel/scope";
import { outOfOffice } from "../inboxes/business-hours";
import type { InboxRow } from "../inboxes/rows";
import type { ConversationRecord } from "../conversations/loader";
import { type ContactChain, type PublicInbox, contactScope } from "../widget/chain";
import { checkPublicAttributes } from "../widget/attributes";
import { type CampaignRecord, withSenders } from "./campaigns";
import { CAMPAIGN_STATUS, CAMPAIGN_TYPE, type CampaignRow, type TriggerRules } from "./rows";
import { sendCampaignTo } from "./sending";
import { pageMatchesRule } from "./url-rules";

const { campaigns, conversations } = schema;

const liveCampaignsOf = (transport: TransportScope, inbox: InboxRow) =>
  transport.db
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.accountId, inbox.accountId),
        eq(campaigns.inboxId, inbox.id),
        eq(campaigns.campaignType, CAMPAIGN_TYPE.ongoing),
        eq(campaigns.campaignStatus, CAMPAIGN_STATUS.active),
        eq(campaigns.enabled, true),
      ),
    )
    .orderBy(campaigns.displayId);

/** Whether the campaign may show now: not limited to business hours, or the inbox is open. */
const showsNow = (campaign: CampaignRow, inbox: InboxRow, at: number) => !campaign.triggerOnlyDuringBusinessHours || !outOfOffice(inbox, at);

/**
 * The campaigns the widget may show: on the page `pageUrl` when given (without it, all of them, for the
 * widget to match itself as Chatwoot's does), and only while the inbox is open for those limited to
 * business hours.
 */
export async function listWidgetCampaigns(transport: TransportScope, found: PublicInbox, pageUrl?: string): Promise<CampaignRecord[]> {
  const { inbox } = found;
  const { rows } = await batchNamed(transport.db, { rows: liveCampaignsOf(transport, inbox) });
  const at = now();
  const shown = rows.filter((c) => showsNow(c, inbox, at) && (pageUrl === undefined || pageMatchesRule(String((c.triggerRules as TriggerRules).url ?? ""), pageUrl)));
  return withSenders(systemScope(transport, inbox.accountId), shown, { inboxes: false });
}

/**
 * The visitor's widget triggered the campaign (`campaign_id`: its display id): a new conversation of the
 * visitor's contact inbox opens with the campaign's message, from its sender. Answers it, or null when
 * the contact inbox has a conversation already or the contact had this campaign before. The rest of
 * `event_info` becomes the conversation's additional attributes (bounded as a visitor's attributes are).
 */
export async function triggerCampaign(
  transport: TransportScope,
  chain: ContactChain,
  input: { campaignId: number; eventInfo: Record<string, unknown> },
): Promise<ConversationRecord | null> {
  const { db } = transport;
  const { inbox, contactInbox } = chain;
  const read = await batchNamed(db, {
    campaign: db
      .select()
      .from(campaigns)
      .where(
        and(eq(campaigns.accountId, inbox.accountId), eq(campaigns.inboxId, inbox.id), eq(campaigns.campaignType, CAMPAIGN_TYPE.ongoing), eq(campaigns.displayId, input.campaignId)),
      ),
    existing: db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.accountId, inbox.accountId), eq(conversations.contactInboxId, contactInbox.id)))
      .limit(1),
  });
  const campaign = read.campaign.find((c) => c.campaignStatus === CAMPAIGN_STATUS.active && c.enabled);
  if (!campaign) throw notFound("Campaign", input.campaignId, "event_info.campaign_id");
  if (!showsNow(campaign, inbox, now())) {
    throw invalidField("event_info.campaign_id", "is shown only during the inbox's business hours, and the inbox is closed now", "outside_business_hours");
  }
  // Chatwoot sends no campaign into a contact inbox that has a conversation already
  if (read.existing.length > 0) return null;
  const { campaign_id: _, ...attributes } = input.eventInfo;
  checkPublicAttributes({ event_info: attributes });
  return sendCampaignTo(contactScope(transport, chain), campaign, { contactId: chain.contact.id, sourceId: contactInbox.sourceId, additionalAttributes: attributes });
}
