import { Hono } from "hono";
import {
  createCannedResponse,
  deleteCannedResponse,
  listCannedResponses,
  updateCannedResponse,
} from "../../domain/settings/canned-responses";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { CannedResponse, CannedResponseCreate, CannedResponseQuery, CannedResponseUpdate } from "../../schemas/canned-responses";
import { IdParam } from "../../schemas/common";
import { cannedResponseView } from "../../views/canned-responses";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty } from "../../schemas/responses";

/** /canned_responses: any member may read and change them (Chatwoot has no policy here). */
export const cannedResponsesApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List canned responses", response: CannedResponse.array() }), validate("query", CannedResponseQuery), async (c) => {
    const rows = await listCannedResponses(accountScope(c), c.req.valid("query").search);
    return c.json(rows.map(cannedResponseView));
  })
  .post("/", doc({ summary: "Create a canned response", response: CannedResponse }), idempotent(), validate("json", CannedResponseCreate), async (c) => {
    const body = c.req.valid("json");
    const row = await createCannedResponse(accountScope(c), { shortCode: body.short_code, content: body.content });
    return c.json(cannedResponseView(row));
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a canned response", response: CannedResponse }), validate("param", IdParam), validate("json", CannedResponseUpdate), async (c) => {
    const body = c.req.valid("json");
    const row = await updateCannedResponse(accountScope(c), c.req.valid("param").id, {
      shortCode: body.short_code,
      content: body.content,
    });
    return c.json(cannedResponseView(row));
  })
  .delete("/:id", doc({ summary: "Delete a canned response", response: Empty }), validate("param", IdParam), async (c) => {
    await deleteCannedResponse(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });
