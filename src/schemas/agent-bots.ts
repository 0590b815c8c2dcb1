import { wrapped } from "./common";
import { AgentBotCreate } from "./platform";

/** POST /agent_bots (flat or wrapped in `agent_bot`) */
export const AccountAgentBotCreate = wrapped("agent_bot", AgentBotCreate);

/** PATCH/PUT /agent_bots/:id */
export const AccountAgentBotUpdate = wrapped("agent_bot", AgentBotCreate.partial());
