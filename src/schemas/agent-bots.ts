import { z } from "zod";
import { wrapped } from "./common";
import { AgentBotCreate } from "./platform";

/** POST /agent_bots (flat or wrapped in `agent_bot`) */
export const AccountAgentBotCreate = wrapped("agent_bot", AgentBotCreate);

/** PATCH/PUT /agent_bots/:id */
export const AccountAgentBotUpdate = wrapped("agent_bot", AgentBotCreate.partial());

/**
 * An agent bot (src/views/agent-bots.ts). `access_token` only for who may use the bot's key; a system
 * bot's `outgoing_url` is not shown inside accounts.
 */
export const AgentBot = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    thumbnail: z.string(),
    outgoing_url: z.string().nullable().optional(),
    bot_type: z.literal("webhook"),
    bot_config: z.record(z.string(), z.unknown()),
    account_id: z.number().int().nullable().describe("null for a system bot"),
    system_bot: z.boolean(),
    access_token: z.string().optional(),
  })
  .meta({ id: "AgentBot" });
