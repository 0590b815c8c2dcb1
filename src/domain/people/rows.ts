/** The rows the people aggregate owns (agents are users seen through their account membership). */
import { schema } from "../../db/client";

export type AgentBotRow = typeof schema.agentBots.$inferSelect;
export type TeamRow = typeof schema.teams.$inferSelect;
