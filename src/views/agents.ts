import type { AgentRow } from "../domain/people/agents";
import { AVAILABILITIES, ROLES, enumName } from "../domain/kernel/enums";

/**
 * The users with a live presence in the account now (the account feed's, src/realtime/account-feed.ts),
 * looked up once per request that shows agents. Where nobody looked, nobody is online.
 */
export type OnlineUsers = ReadonlySet<number>;
export const NOBODY_ONLINE: OnlineUsers = new Set();

/** Chatwoot's availability_status: the availability the user chose while present, offline otherwise. */
export const availabilityStatus = (userId: number, chosen: number | null, online: OnlineUsers) =>
  online.has(userId) ? (enumName(AVAILABILITIES, chosen) ?? "online") : "offline";

/**
 * An agent as Chatwoot shows people inside an account: agents, inbox and team members, assignees.
 * It also carries every field of the specification's inbox agent.
 */
export function agentView(agent: AgentRow, accountId: number, online: OnlineUsers = NOBODY_ONLINE) {
  return {
    id: agent.userId,
    account_id: accountId,
    availability_status: availabilityStatus(agent.userId, agent.availability, online),
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

/** A user as a message sender (Chatwoot's push form); senders are shown without a presence lookup. */
export function agentPushView(agent: AgentRow, online: OnlineUsers = NOBODY_ONLINE) {
  return agentPushForm({
    id: agent.userId,
    name: agent.name,
    available_name: agent.displayName || agent.name,
    availability_status: availabilityStatus(agent.userId, agent.availability, online),
    thumbnail: agent.avatarUrl ?? "",
  });
}

type ShownAgent = Pick<ReturnType<typeof agentView>, "id" | "name" | "available_name" | "availability_status" | "thumbnail">;

/**
 * The push form of an agent already shown with agentView (a frame's assignee cut for a visitor): only
 * the public fields, never the e-mail, role or attributes the agents see.
 */
export function agentPushForm(agent: ShownAgent) {
  return {
    id: agent.id,
    name: agent.name,
    available_name: agent.available_name,
    avatar_url: agent.thumbnail,
    type: "user",
    availability_status: agent.availability_status,
    thumbnail: agent.thumbnail,
  };
}

export const agentsView = (agents: AgentRow[], accountId: number, online: OnlineUsers) => agents.map((a) => agentView(a, accountId, online));
