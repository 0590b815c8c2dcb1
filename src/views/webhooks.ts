import type { WebhookRecord } from "../domain/settings/webhooks";

/** Only administrators reach webhooks, so the signing secret is shown. */
export function webhookView({ webhook, inbox }: WebhookRecord) {
  return {
    id: webhook.id,
    name: webhook.name,
    url: webhook.url,
    account_id: webhook.accountId,
    subscriptions: webhook.subscriptions,
    inbox: inbox && { id: inbox.id, name: inbox.name },
    secret: webhook.secret,
    /** false once the service stopped delivering (410 Gone, 3 days of failures) or an administrator did */
    enabled: webhook.disabledAt === null,
    disabled_at: webhook.disabledAt ? new Date(webhook.disabledAt).toISOString() : null,
    disabled_reason: webhook.disabledReason,
  };
}
