import { z } from "zod";
import { MACRO_VISIBILITIES } from "../domain/macros/rows";
import { Agent } from "./agents";
import { Id, ShortText, wrapped } from "./common";
import { isoTime } from "./responses";

/** An action's shape (what it means is checked by the automation validator, at its path). */
const Action = z.object({
  action_name: z.string().trim().min(1).max(100),
  action_params: z.array(z.unknown()).max(100).nullish().transform((v) => v ?? []),
});

const fields = {
  name: ShortText.trim().min(1),
  visibility: z.enum(MACRO_VISIBILITIES),
  actions: z.array(Action).min(1).max(50),
};

/** POST /macros: Chatwoot's flat body (or wrapped under `macro`, as Rails accepts it). */
export const MacroCreate = wrapped("macro", z.object({ ...fields, visibility: fields.visibility.optional() }));

/** PATCH/PUT /macros/:id: the given fields replace the stored ones. */
export const MacroUpdate = wrapped("macro", z.object(fields).partial());

/** The most conversations one execute request runs the macro on (it runs in the request). */
export const MAX_MACRO_CONVERSATIONS = 25;

/** POST /macros/:id/execute: display ids of the account's conversations. */
export const MacroExecute = z.object({ conversation_ids: z.array(Id).min(1).max(MAX_MACRO_CONVERSATIONS) });

/** A macro (src/views/macros.ts), as Chatwoot's partial shows it, with its times. */
export const Macro = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    visibility: z.enum(MACRO_VISIBILITIES),
    actions: z.array(z.looseObject({ action_name: z.string(), action_params: z.array(z.unknown()) })),
    created_by: Agent.nullable(),
    updated_by: Agent.nullable(),
    account_id: z.number().int(),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: "Macro" });

/** What an execute request did: the conversations it ran on, those it skipped, and the actions refused. */
export const MacroRun = z
  .object({
    conversation_ids: z.array(z.number().int()),
    skipped: z.array(z.object({ conversation_id: z.number().int(), reason: z.enum(["not_found", "not_accessible"]) })),
    failures: z.array(z.object({ conversation_id: z.number().int(), action_name: z.string(), message: z.string() })),
  })
  .meta({ id: "MacroRun" });
