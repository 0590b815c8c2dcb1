/** The rows the people aggregate owns (agents are users seen through their account membership). */
import { schema } from "../../db/client";

export type AgentBotRow = typeof schema.agentBots.$inferSelect;
export type TeamRow = typeof schema.teams.$inferSelect;

/** A user as an agent of one account: the user's fields and the membership's. */
export type AgentRow = {
  userId: number;
  name: string;
  displayName: string | null;
  email: string;
  avatarUrl: string | null;
  confirmedAt: number | null;
  customAttributes: Record<string, unknown>;
  /** the membership's fields; null for a user who is no longer a member (see `usersAsAgentsQuery`) */
  role: number | null;
  availability: number | null;
  autoOffline: boolean | null;
};
