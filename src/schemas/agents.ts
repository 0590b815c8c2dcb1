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
