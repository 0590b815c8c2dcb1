/**
 * A campaign reaching one contact: a new conversation (marked with the campaign) whose first message is
 * the campaign's, outgoing from its sender (no sender when it has none), made by the conversations
 * aggregate's own create, so it has the events, counters and deliveries (an API inbox's callback) of any
 * new conversation and message. The contact is recorded as reached in the same batch, under a unique
 * index, so a contact gets a campaign at most once however often, and however concurrently, it is sent.
 */
import { and, eq, sql } from "drizzle-orm";
import { lastInsertedId, now, schema } from "../../db/client";
import { createConversation } from "../conversations/conversations";
import type { ConversationRecord } from "../conversations/loader";
import type { AccountScope } from "../kernel/scope";
import type { CampaignRow } from "./rows";

const { campaigns, campaignRecipients, conversations } = schema;

/** Whether `error` is the recipient row's unique index refusing a second row for the same contact. */
const alreadyReached = (error: unknown) => /UNIQUE constraint failed: campaign_recipients\./.test(String((error as Error)?.message ?? "") + String((error as Error)?.cause ?? ""));

export type CampaignTarget = {
  contactId: number;
  /** the contact inbox to use (the widget's own); otherwise the contact's latest in the inbox, or a new one */
  sourceId?: string;
  additionalAttributes?: Record<string, unknown>;
};

/** Sends the campaign to the contact; answers the new conversation, or null when the contact had it already. */
export async function sendCampaignTo(scope: AccountScope, campaign: CampaignRow, target: CampaignTarget): Promise<ConversationRecord | null> {
  const { db } = scope;
  const at = now();
  try {
    return await createConversation(scope, {
      inboxId: campaign.inboxId,
      contactId: target.contactId,
      sourceId: target.sourceId,
      additionalAttributes: target.additionalAttributes,
      campaignId: campaign.id,
      message: { content: campaign.message, sender: campaign.senderId === null ? null : { senderType: "User", senderId: campaign.senderId } },
      alsoWrite: [
        db.insert(campaignRecipients).values({
          accountId: campaign.accountId,
          campaignId: campaign.id,
          contactId: target.contactId,
          conversationId: lastInsertedId(conversations),
          createdAt: at,
        }),
        db
          .update(campaigns)
          .set({ sentCount: sql`${campaigns.sentCount} + 1` })
          .where(and(eq(campaigns.accountId, campaign.accountId), eq(campaigns.id, campaign.id))),
      ],
    });
  } catch (error) {
    if (alreadyReached(error)) return null;
    throw error;
  }
}
