import { Hono } from "hono";
import { createLabel, deleteLabel, getLabel, listLabels, updateLabel } from "../../domain/settings/labels";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { Label, LabelCreate, LabelUpdate } from "../../schemas/labels";
import { labelView } from "../../views/labels";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty, payloadOf } from "../../schemas/responses";

/** /labels: any member may list them; showing one and every change is for administrators (Chatwoot's policy). */
export const labelsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List labels", response: payloadOf(Label.array()) }), async (c) => c.json({ payload: (await listLabels(accountScope(c))).map(labelView) }))
  .get("/:id", doc({ summary: "Show a label", response: Label }), requireAdministrator, validate("param", IdParam), async (c) =>
    c.json(labelView(await getLabel(accountScope(c), c.req.valid("param").id))),
  )
  .post("/", doc({ summary: "Create a label", response: Label }), requireAdministrator, idempotent(), validate("json", LabelCreate), async (c) => {
    const body = c.req.valid("json");
    const row = await createLabel(accountScope(c), {
      title: body.title,
      description: body.description,
      color: body.color,
      showOnSidebar: body.show_on_sidebar,
    });
    return c.json(labelView(row));
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a label", response: Label }), requireAdministrator, validate("param", IdParam), validate("json", LabelUpdate), async (c) => {
    const body = c.req.valid("json");
    const row = await updateLabel(accountScope(c), c.req.valid("param").id, {
      title: body.title,
      description: body.description,
      color: body.color,
      showOnSidebar: body.show_on_sidebar,
    });
    return c.json(labelView(row));
  })
  .delete("/:id", doc({ summary: "Delete a label", response: Empty }), requireAdministrator, validate("param", IdParam), async (c) => {
    await deleteLabel(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });
