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
  };
}
