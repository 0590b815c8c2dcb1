import { z } from "zod";
import { Bool, EnumParam, Id, JsonObject, wrapped } from "./common";

export const AppIdParam = z.object({ id: z.string().min(1).max(100) });

/** Chatwoot's hook status enum; a boolean is accepted too, since hooks render it as one. */
const HookStatus = z.union([EnumParam(["disabled", "enabled"] as const), Bool.transform((on) => (on ? 1 : 0))]);

/** POST /integrations/hooks */
export const HookCreate = wrapped(
  "hook",
  z.object({
    app_id: z.string().trim().min(1).max(100),
    inbox_id: Id.nullish(),
    status: HookStatus.optional(),
    settings: JsonObject.optional(),
  }),
);

/** PATCH/PUT /integrations/hooks/:id: Chatwoot lets only these change. */
export const HookUpdate = wrapped("hook", z.object({ status: HookStatus.optional(), settings: JsonObject.optional() }));

/** An integration app (src/views/integrations.ts): the specification's fields and Chatwoot's short_description. */
export const IntegrationApp = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    short_description: z.string(),
    description: z.string(),
    hook_type: z.enum(["account", "inbox"]),
    enabled: z.boolean(),
    allow_multiple_hooks: z.boolean(),
    hooks: z.array(z.unknown()).describe("always empty: webhooks and dashboard apps have their own routes"),
  })
  .meta({ id: "IntegrationApp" });
