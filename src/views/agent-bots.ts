import type { AgentBotRecord } from "../domain/people/agent-bots";

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

/**
 * An agent bot as an account's members see it: the key only for administrators and only of the
 * account's own bots; a system bot's outgoing URL is left out (Chatwoot's rule).
 */
export function accountAgentBotView(record: AgentBotRecord, viewer: { accountId: number; isAdministrator: boolean }) {
  const own = record.bot.accountId === viewer.accountId;
  const { outgoing_url, ...rest } = agentBotView(record, { withKey: own && viewer.isAdministrator });
  return record.bot.accountId === null ? rest : { ...rest, outgoing_url };
}
