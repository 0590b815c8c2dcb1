import { Hono } from "hono";
import {
  createCannedResponse,
  deleteCannedResponse,
  listCannedResponses,
  updateCannedResponse,
} from "../../domain/settings/canned-responses";
import { type AppEnv, accountScope } from "../../http/app-env";
import { validate } from "../../http/validate";
import { CannedResponseCreate, CannedResponseQuery, CannedResponseUpdate } from "../../schemas/canned-responses";
import { IdParam } from "../../schemas/common";
import { cannedResponseView } from "../../views/canned-responses";
import { idempotent } from "../../http/idempotency";

/** /canned_responses: any member may read and change them (Chatwoot has no policy here). */
export const cannedResponsesApi = new Hono<AppEnv>()
  .get("/", validate("query", CannedResponseQuery), async (c) => {
    const rows = await listCannedResponses(accountScope(c), c.req.valid("query").search);
    return c.json(rows.map(cannedResponseView));
  })
  .post("/", idempotent(), validate("json", CannedResponseCreate), async (c) => {
    const body = c.req.valid("json");
    const row = await createCannedResponse(accountScope(c), { shortCode: body.short_code, content: body.content });
    return c.json(cannedResponseView(row));
  })
  .on(["PATCH", "PUT"], "/:id", validate("param", IdParam), validate("json", CannedResponseUpdate), async (c) => {
    const body = c.req.valid("json");
    const row = await updateCannedResponse(accountScope(c), c.req.valid("param").id, {
      shortCode: body.short_code,
      content: body.content,
    });
    return c.json(cannedResponseView(row));
  })
  .delete("/:id", validate("param", IdParam), async (c) => {
    await deleteCannedResponse(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });
