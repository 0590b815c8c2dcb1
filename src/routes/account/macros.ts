import { Hono } from "hono";
import { createMacro, deleteMacro, listMacros, showMacro, updateMacro } from "../../domain/macros/macros";
import { executeMacro } from "../../domain/macros/execute";
import { MAX_FILES_BODY_BYTES } from "../../domain/attachments/uploads";
import { type AppEnv } from "../../http/app-env";
import { acceptFiles } from "../../http/body";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { RuleFile } from "../../schemas/automation-rules";
import { IdParam } from "../../schemas/common";
import { Macro, MacroCreate, MacroExecute, MacroRun, MacroUpdate } from "../../schemas/macros";
import { Empty, payloadOf } from "../../schemas/responses";
import { macroRunView, macrosView } from "../../views/macros";
import { uploadRuleFile } from "./automation-rules";

/**
 * /macros: every member (no bot keys). Who sees, changes and runs which macro is the domain's (Chatwoot's
 * policy, src/domain/macros/macros.ts). Execute runs in the request, for at most 25 conversations.
 */
export const macrosApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List the macros the user may see", response: payloadOf(Macro.array()) }), async (c) => c.json({ payload: macrosView(await listMacros(accountScope(c))) }))
  .post("/", doc({ summary: "Create a macro", response: payloadOf(Macro) }), idempotent(), validate("json", MacroCreate), async (c) => {
    const body = c.req.valid("json");
    const [macro] = macrosView(await createMacro(accountScope(c), { name: body.name, visibility: body.visibility, actions: body.actions }));
    return c.json({ payload: macro });
  })
  // the same upload as automation rules' files, open to every member: a macro's send_attachment names its blob_id
  .post("/attach_file", doc({ summary: "Upload a file for a macro's send_attachment action", response: RuleFile }), idempotent(), acceptFiles({ maxBodyBytes: MAX_FILES_BODY_BYTES }), uploadRuleFile)
  .get("/:id", doc({ summary: "Show a macro", response: payloadOf(Macro) }), validate("param", IdParam), async (c) => {
    const [macro] = macrosView(await showMacro(accountScope(c), c.req.valid("param").id));
    return c.json({ payload: macro });
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a macro", response: payloadOf(Macro) }), validate("param", IdParam), validate("json", MacroUpdate), async (c) => {
    const body = c.req.valid("json");
    const [macro] = macrosView(await updateMacro(accountScope(c), c.req.valid("param").id, { name: body.name, visibility: body.visibility, actions: body.actions }));
    return c.json({ payload: macro });
  })
  .delete("/:id", doc({ summary: "Delete a macro", response: Empty }), validate("param", IdParam), async (c) => {
    await deleteMacro(accountScope(c), c.req.valid("param").id);
    return c.json({});
  })
  .post("/:id/execute", doc({ summary: "Run a macro on conversations (display ids)", response: payloadOf(MacroRun) }), validate("param", IdParam), validate("json", MacroExecute), async (c) => {
    const run = await executeMacro(accountScope(c), c.req.valid("param").id, c.req.valid("json").conversation_ids);
    return c.json({ payload: macroRunView(run) });
  });
