import type { AgentRow } from "../domain/people/agents";
import { AVAILABILITIES, ROLES, enumName } from "../domain/kernel/enums";

/**
 * An agent as Chatwoot shows people inside an account: agents, inbox and team members, assignees.
 * It also carries every field of the specification's inbox agent.
 */
export function agentView(agent: AgentRow, accountId: number) {
  return {
    id: agent.userId,
    account_id: accountId,
    // No live presence store yet: the configured availability is what others see.
    availability_status: enumName(AVAILABILITIES, agent.availability),
    auto_offline: agent.autoOffline,
    confirmed: agent.confirmedAt !== null,
    email: agent.email,
    provider: "email",
    available_name: agent.displayName || agent.name,
    name: agent.name,
    ...(Object.keys(agent.customAttributes).length > 0 && { custom_attributes: agent.customAttributes }),
    role: enumName(ROLES, agent.role),
    thumbnail: agent.avatarUrl ?? "",
    custom_role_id: null,
  };
}

/** A user as a message sender (Chatwoot's push form). */
export function agentPushView(agent: AgentRow) {
  return {
    id: agent.userId,
    name: agent.name,
    available_name: agent.displayName || agent.name,
    avatar_url: agent.avatarUrl ?? "",
    type: "user",
    availability_status: enumName(AVAILABILITIES, agent.availability),
    thumbnail: agent.avatarUrl ?? "",
  };
}

export const agentsView = (agents: AgentRow[], accountId: number) => agents.map((a) => agentView(a, accountId));
