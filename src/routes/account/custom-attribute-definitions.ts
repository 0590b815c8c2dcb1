import { Hono } from "hono";
import type { z } from "zod";
import {
  createDefinition,
  deleteDefinition,
  getDefinition,
  listDefinitions,
  updateDefinition,
} from "../../domain/custom-attributes/definitions";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import {
  AttributeDefinitionCreate,
  AttributeDefinitionQuery,
  AttributeDefinitionUpdate,
  AttributeDefinition,
} from "../../schemas/custom-attribute-definitions";
import { attributeDefinitionView } from "../../views/custom-attribute-definitions";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";

const toInput = (body: z.infer<typeof AttributeDefinitionUpdate>) => ({
  displayName: body.attribute_display_name,
  key: body.attribute_key,
  displayType: body.attribute_display_type,
  model: body.attribute_model,
  description: body.attribute_description,
  values: body.attribute_values,
  regexPattern: body.regex_pattern,
  regexCue: body.regex_cue,
});

/** /custom_attribute_definitions: any member may manage them (Chatwoot has no policy here). */
export const customAttributeDefinitionsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List custom attribute definitions", response: AttributeDefinition.array() }), validate("query", AttributeDefinitionQuery), async (c) => {
    const rows = await listDefinitions(accountScope(c), c.req.valid("query").attribute_model);
    return c.json(rows.map(attributeDefinitionView));
  })
  .get("/:id", doc({ summary: "Show a custom attribute definition", response: AttributeDefinition }), validate("param", IdParam), async (c) =>
    c.json(attributeDefinitionView(await getDefinition(accountScope(c), c.req.valid("param").id))),
  )
  .post("/", doc({ summary: "Create a custom attribute definition", response: AttributeDefinition }), idempotent(), validate("json", AttributeDefinitionCreate), async (c) => {
    const body = c.req.valid("json");
    const row = await createDefinition(accountScope(c), {
      ...toInput(body),
      displayName: body.attribute_display_name,
      key: body.attribute_key,
    });
    return c.json(attributeDefinitionView(row));
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a custom attribute definition", response: AttributeDefinition }), validate("param", IdParam), validate("json", AttributeDefinitionUpdate), async (c) => {
    const row = await updateDefinition(accountScope(c), c.req.valid("param").id, toInput(c.req.valid("json")));
    return c.json(attributeDefinitionView(row));
  })
  .delete("/:id", doc({ summary: "Delete a custom attribute definition", status: 204 }), validate("param", IdParam), async (c) => {
    await deleteDefinition(accountScope(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
