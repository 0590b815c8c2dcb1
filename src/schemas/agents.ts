import { z } from "zod";
import { AVAILABILITIES, ROLES } from "../domain/kernel/enums";
import { Bool, Email, EnumValue, ShortText, wrapped } from "./common";

const agentFields = {
  name: ShortText.trim().min(1),
  role: EnumValue(ROLES),
  availability: EnumValue(AVAILABILITIES),
  auto_offline: Bool,
};

/** POST /agents (flat or wrapped in `agent`) */
export const AgentCreate = wrapped(
  "agent",
  z.object({
    email: Email,
    name: agentFields.name.optional(),
    role: agentFields.role.optional(),
    availability: agentFields.availability.optional(),
    auto_offline: agentFields.auto_offline.optional(),
  }),
);

/** PATCH/PUT /agents/:id */
export const AgentUpdate = wrapped("agent", z.object(agentFields).partial());

/** The most e-mails one bulk_create takes: each is one invitation, made in the request. */
export const MAX_BULK_AGENTS = 100;

/** POST /agents/bulk_create: every e-mail is checked before anyone is invited. */
export const AgentBulkCreate = z.object({ emails: z.array(Email).min(1).max(MAX_BULK_AGENTS) });

/** An agent as the account shows it (src/views/agents.ts): agents, inbox and team members, assignees. */
export const Agent = z
  .looseObject({
    id: z.number().int().describe("the user's id"),
    account_id: z.number().int(),
    availability_status: z.enum(AVAILABILITIES),
    auto_offline: z.boolean(),
    confirmed: z.boolean(),
    email: z.string(),
    provider: z.string(),
    available_name: z.string(),
    name: z.string(),
    custom_attributes: z.record(z.string(), z.unknown()).optional().describe("present when the user has any"),
    role: z.enum(ROLES),
    thumbnail: z.string(),
    custom_role_id: z.null(),
  })
  .meta({ id: "Agent" });

/** What bulk_create did (Chatwoot answers an empty 200): the agents invited, and the members skipped. */
export const BulkAgents = z
  .object({
    created: z.array(Agent),
    skipped: z.array(z.object({ email: z.string(), reason: z.enum(["already_a_member"]) })),
  })
  .meta({ id: "BulkAgents" });
