/**
 * An agent became available in an account (came online, or chose "online" again): the queue's consumer
 * hands them, and every other online agent in turn, the conversations waiting in their inboxes
 * (src/jobs/auto-assignment.ts). Sent by the account's live feed, where presence is kept.
 */
export type AgentAvailableMessage = { kind: "agent_available"; accountId: number; userId: number };

export async function announceAgentAvailable(queue: Queue, accountId: number, userId: number) {
  await queue.send({ kind: "agent_available", accountId, userId } satisfies AgentAvailableMessage);
}
