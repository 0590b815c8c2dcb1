/**
 * /campaigns: Chatwoot's campaigns, for administrators (its CampaignPolicy allows agents nothing). What
 * a campaign does is the domain's: src/domain/campaigns (the widget's side in widget.ts, a one-off run in
 * runs.ts).
 */
import { Hono } from "hono";
import {
  type CampaignInput,
  type CampaignRecord,
  createCampaign,
  deleteCampaign,
  listCampaigns,
  listInboxCampaigns,
  showCampaign,
  updateCampaign,
} from "../../domain/campaigns/campaigns";
import type { AppContext, AppEnv } from "../../http/app-env";
import { requireAdministrator } from "../../http/auth";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { Campaign, CampaignCreate, CampaignUpdate } from "../../schemas/campaigns";
import { IdParam } from "../../schemas/common";
import { InboxIdParam } from "../../schemas/inbox-members";
import { Empty } from "../../schemas/responses";
import { campaignView } from "../../views/campaigns";
import { inboxAnswer } from "./inboxes";

type CampaignBody = {
  title?: string;
  description?: string | null;
  message?: string;
  inbox_id?: number;
  sender_id?: number | null;
  enabled?: boolean;
  trigger_rules?: { url?: string; time_on_page?: number };
  trigger_only_during_business_hours?: boolean;
  scheduled_at?: number | null;
  audience?: Array<{ type: "Label"; id: number }>;
};

/** The body as the domain's input; fields left out stay undefined, so an update changes only what it names. */
const campaignInput = (body: CampaignBody): CampaignInput => ({
  title: body.title,
  description: body.description,
  message: body.message,
  inboxId: body.inbox_id,
  senderId: body.sender_id,
  enabled: body.enabled,
  triggerRules: body.trigger_rules,
  triggerOnlyDuringBusinessHours: body.trigger_only_during_business_hours,
  scheduledAt: body.scheduled_at,
  audience: body.audience,
});

const answer = (c: AppContext, record: CampaignRecord) => campaignView(record, record.inbox && inboxAnswer(c, record.inbox));

export const campaignsApi = new Hono<AppEnv>()
  .use("*", requireAdministrator)
  .get("/", doc({ summary: "List campaigns", response: Campaign.array() }), async (c) => c.json((await listCampaigns(accountScope(c))).map((r) => answer(c, r))))
  .post("/", doc({ summary: "Create a campaign (its type follows the inbox)", response: Campaign }), idempotent(), validate("json", CampaignCreate), async (c) => {
    const body = c.req.valid("json");
    const record = await createCampaign(accountScope(c), { ...campaignInput(body), title: body.title, message: body.message, inboxId: body.inbox_id });
    return c.json(answer(c, record));
  })
  .get("/:id", doc({ summary: "Show a campaign", response: Campaign }), validate("param", IdParam), async (c) =>
    c.json(answer(c, await showCampaign(accountScope(c), c.req.valid("param").id))),
  )
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a campaign", response: Campaign }), validate("param", IdParam), validate("json", CampaignUpdate), async (c) =>
    c.json(answer(c, await updateCampaign(accountScope(c), c.req.valid("param").id, campaignInput(c.req.valid("json"))))),
  )
  .delete("/:id", doc({ summary: "Delete a campaign (its conversations stay)", response: Empty }), validate("param", IdParam), async (c) => {
    await deleteCampaign(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });

/** /inboxes/:inbox_id/campaigns: one inbox's campaigns (Chatwoot's `inboxes#campaigns`, administrators only). */
export const inboxCampaignsApi = new Hono<AppEnv>()
  .use("*", requireAdministrator)
  .get("/", doc({ summary: "List an inbox's campaigns", response: Campaign.array() }), validate("param", InboxIdParam), async (c) =>
    c.json((await listInboxCampaigns(accountScope(c), c.req.valid("param").inbox_id)).map((r) => answer(c, r))),
  );
