import { z } from "zod";
import { ROLES } from "../domain/kernel/enums";
import { EnumValue, HttpUrl, Id, JsonObject, ShortText } from "./common";

/** POST /platform/api/v1/accounts/:account_id/account_users */
export const AccountUserCreate = z.object({
  user_id: Id,
  role: EnumValue(ROLES).optional(),
});

/** DELETE /platform/api/v1/accounts/:account_id/account_users */
export const AccountUserDelete = z.object({ user_id: Id });

export const AccountIdParam = z.object({ account_id: Id });

/** POST /platform/api/v1/agent_bots (and the account API's agent bots) */
export const AgentBotCreate = z.object({
  name: ShortText.trim().min(1),
  description: z.string().max(20_000).nullish(),
  outgoing_url: HttpUrl.nullish(),
  avatar_url: HttpUrl.nullish(),
  bot_type: z.union([z.literal("webhook"), z.literal(0)]).optional(),
  bot_config: JsonObject.optional(),
});

export const PlatformAgentBotCreate = AgentBotCreate.extend({ account_id: Id.nullish() });
export const PlatformAgentBotUpdate = PlatformAgentBotCreate.partial();

/** A user's membership of an account (the platform API's account_users). */
export const AccountUser = z.looseObject({ account_id: z.number().int(), user_id: z.number().int(), role: z.enum(ROLES) }).meta({ id: "AccountUser" });
