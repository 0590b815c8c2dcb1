/**
 * The people a conversation shows: assignee agents, bots and teams. A local Agent view until the agents
 * work (src/views/agents.ts on ws-people) lands; the lead unifies them.
 */
import type { AgentBotRow } from "../domain/access";
import { AVAILABILITIES, ROLES, enumName } from "../domain/enums";
import type { AgentRow, TeamRow } from "../domain/records";
import { iso } from "./time";

const availabilityStatus = (agent: AgentRow) => enumName(AVAILABILITIES, agent.availability) ?? "offline";

/** Chatwoot's Agent (§6.3): assignees and assignment responses. */
export function assigneeView(agent: AgentRow, accountId: number) {
  return {
    id: agent.id,
    account_id: accountId,
    availability_status: availabilityStatus(agent),
    auto_offline: agent.autoOffline ?? true,
    confirmed: agent.confirmedAt !== null,
    email: agent.email,
    provider: "email",
    available_name: agent.displayName || agent.name,
    name: agent.name,
    role: enumName(ROLES, agent.role),
    thumbnail: agent.avatarUrl ?? "",
    ...(Object.keys(agent.customAttributes).length > 0 && { custom_attributes: agent.customAttributes }),
  };
}

/** A user as a message sender. */
export function agentPushView(agent: AgentRow) {
  return {
    id: agent.id,
    name: agent.name,
    available_name: agent.displayName || agent.name,
    avatar_url: agent.avatarUrl ?? "",
    type: "user",
    availability_status: availabilityStatus(agent),
    thumbnail: agent.avatarUrl ?? "",
  };
}

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

/** The raw Team record the assignments endpoint answers with (Chatwoot renders the model: ISO times). */
export function teamRecordView(team: TeamRow) {
  return { ...teamView(team), created_at: iso(team.createdAt), updated_at: iso(team.updatedAt) };
}
