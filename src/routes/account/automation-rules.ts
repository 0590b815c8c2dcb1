import { type Context, Hono } from "hono";
import type { z } from "zod";
import { cloneRule, createRule, deleteRule, getRule, listRules, updateRule } from "../../domain/automation/rules";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { AutomationRule, AutomationRuleCreate, AutomationRuleUpdate, RuleFile } from "../../schemas/automation-rules";
import { IdParam } from "../../schemas/common";
import { automationRuleView, ruleFileView } from "../../views/automation-rules";
import { acceptFiles, filesNamed } from "../../http/body";
import { MAX_FILES_BODY_BYTES, checkUploads } from "../../domain/attachments/uploads";
import { attachRuleFile } from "../../domain/automation/rule-files";
import { invalidField } from "../../domain/kernel/errors";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty, payloadOf } from "../../schemas/responses";

const toInput = (body: z.infer<typeof AutomationRuleUpdate>) => ({
  name: body.name,
  description: body.description,
  eventName: body.event_name,
  active: body.active,
  conditions: body.conditions,
  actions: body.actions,
});

/** Chatwoot's upload for send_attachment (rules' and macros'): one file as `attachment`; its blob_id goes in the action's params. */
export async function uploadRuleFile(c: Context<AppEnv>) {
  const uploads = filesNamed(c, "attachment");
  if (uploads.length !== 1) throw invalidField("attachment", "must be exactly one file (multipart, as attachment)", uploads.length === 0 ? "required" : "too_many_files");
  const [file] = await checkUploads(accountScope(c), uploads, "attachment");
  return c.json(ruleFileView(await attachRuleFile(accountScope(c), file)));
}

/** /automation_rules: administrators only (Chatwoot's policy); agents and bots get a 403. */
export const automationRulesApi = new Hono<AppEnv>()
  .use("*", requireAdministrator)
  .get("/", doc({ summary: "List automation rules", response: payloadOf(AutomationRule.array()) }), async (c) => c.json({ payload: (await listRules(accountScope(c))).map(automationRuleView) }))
  .post("/", doc({ summary: "Create an automation rule", response: payloadOf(AutomationRule.array().describe("the rule created, as the specification answers it: a list of one")) }), idempotent(), validate("json", AutomationRuleCreate), async (c) => {
    const body = c.req.valid("json");
    const rule = await createRule(accountScope(c), { ...toInput(body), name: body.name, eventName: body.event_name, conditions: body.conditions, actions: body.actions });
    // the specification: 200 with `payload`, an array of automation rule records
    return c.json({ payload: [automationRuleView(rule)] });
  })
  // Chatwoot's upload for send_attachment: one file as `attachment`; its blob_id goes in the action's params
  .post("/attach_file", doc({ summary: "Upload a file for a send_attachment action", response: RuleFile }), idempotent(), acceptFiles({ maxBodyBytes: MAX_FILES_BODY_BYTES }), uploadRuleFile)
  .post("/:id/clone", doc({ summary: "Clone an automation rule", response: payloadOf(AutomationRule) }), idempotent(), validate("param", IdParam), async (c) => {
    const rule = await cloneRule(accountScope(c), c.req.valid("param").id);
    return c.json({ payload: automationRuleView(rule) });
  })
  .get("/:id", doc({ summary: "Show an automation rule", response: payloadOf(AutomationRule) }), validate("param", IdParam), async (c) => c.json({ payload: automationRuleView(await getRule(accountScope(c), c.req.valid("param").id)) }))
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update an automation rule", response: payloadOf(AutomationRule) }), validate("param", IdParam), validate("json", AutomationRuleUpdate), async (c) => {
    const rule = await updateRule(accountScope(c), c.req.valid("param").id, toInput(c.req.valid("json")));
    return c.json({ payload: automationRuleView(rule) });
  })
  .delete("/:id", doc({ summary: "Delete an automation rule", response: Empty }), validate("param", IdParam), async (c) => {
    await deleteRule(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });
