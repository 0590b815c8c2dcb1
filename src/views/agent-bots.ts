import type { AgentBotRecord } from "../domain/agent-bots";

/**
 * An agent bot. `access_token` is included only for viewers that may use the bot's key (administrators
 * of its account, the platform app that created it).
 */
export function agentBotView({ bot, accessToken }: AgentBotRecord, options: { withKey: boolean }) {
  return {
    id: bot.id,
    name: bot.name,
    description: bot.description,
    thumbnail: bot.avatarUrl ?? "",
    outgoing_url: bot.outgoingUrl,
    bot_type: "webhook",
    bot_config: bot.botConfig,
    account_id: bot.accountId,
    system_bot: bot.accountId === null,
    ...(options.withKey && { access_token: accessToken }),
  };
}
