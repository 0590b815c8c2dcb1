/** Bots and teams as a conversation shows them (agents: src/views/agents.ts). */
import { iso } from "./time";
import { type AgentBotRow, type TeamRow } from "../domain/people/rows";

/** Chatwoot's AgentBotSlim: a bot as a conversation's assignee. */
export function agentBotSlimView(bot: AgentBotRow) {
  return {
    id: bot.id,
    name: bot.name,
    description: bot.description,
    thumbnail: bot.avatarUrl ?? "",
    ...(bot.accountId !== null && { outgoing_url: bot.outgoingUrl }),
    bot_type: "webhook",
  };
}

/** A conversation's team (meta.team). */
export function teamView(team: TeamRow) {
  return { id: team.id, name: team.name, description: team.description, allow_auto_assign: team.allowAutoAssign, account_id: team.accountId };
}

/** A team as Chatwoot pushes it to a contact (Team#push_event_data): its id and name, nothing of its settings. */
export const teamPushForm = (team: { id: number; name: string }) => ({ id: team.id, name: team.name });

/** An AgentBotSlim as Chatwoot pushes it to a contact: never its description or the URL it is called at. */
export const agentBotPushForm = (bot: { id: number; name: string; thumbnail: string }) => ({ id: bot.id, name: bot.name, avatar_url: bot.thumbnail, type: "agent_bot" });

/** The raw Team record the assignments endpoint answers with (Chatwoot renders the model: ISO times). */
export function teamRecordView(team: TeamRow) {
  return { ...teamView(team), created_at: iso(team.createdAt), updated_at: iso(team.updatedAt) };
}
