/** Campaigns (/campaigns) and what a widget is shown of them (/public/api/v1/inboxes/{id}/campaigns). */
import { z } from "zod";
import { CAMPAIGN_STATUSES, CAMPAIGN_TYPES } from "../domain/campaigns/rows";
import { MAX_PAGE_URL, MAX_URL_RULE } from "../domain/campaigns/url-rules";
import { Bool, Id, Int, ShortText, wrapped } from "./common";
import { Agent } from "./agents";
import { UnixSeconds } from "./conversations";
import { Inbox } from "./inboxes";
import { isoTime, seconds } from "./responses";

/** The latest time a calendar of four-digit years holds (9999-12-31T23:59:59Z), in ms. */
const LATEST_MS = 253_402_300_799_000;

/** Chatwoot's dashboard sends a date; its view answers Unix seconds: either is taken, as epoch ms. */
const ScheduledAt = z
  .union(
    [
      UnixSeconds.transform((s) => Math.round(s * 1000)),
      z
        .string()
        .trim()
        .max(64)
        .transform((v) => Date.parse(v))
        .refine((ms) => Number.isFinite(ms) && ms >= 0 && ms <= LATEST_MS),
    ],
    { error: "must be a time: Unix seconds, or an ISO 8601 date (up to the year 9999)" },
  )
  .describe("Unix seconds or an ISO 8601 date");

const TriggerRules = z.object({
  url: z.string().trim().max(MAX_URL_RULE).optional().describe("a URL pattern: the pages the campaign shows on (website inboxes)"),
  time_on_page: Int.pipe(z.number().min(0).max(86_400)).optional().describe("seconds on the page before the widget shows it"),
});

/** At most ten labels: a run reads a page of contacts per label at each step. */
const Audience = z.array(z.object({ type: z.literal("Label"), id: Id })).max(10);

const fields = {
  title: ShortText.trim().min(1),
  description: z.string().max(1000).nullable(),
  message: z.string().trim().min(1).max(10_000),
  inbox_id: Id,
  sender_id: Id.nullable(),
  enabled: Bool,
  trigger_rules: TriggerRules,
  trigger_only_during_business_hours: Bool,
  scheduled_at: ScheduledAt.nullable(),
  audience: Audience,
};

/** POST /campaigns: flat, or wrapped in `campaign` as Chatwoot's controller requires it. */
export const CampaignCreate = wrapped("campaign", z.object(fields).partial().required({ title: true, message: true, inbox_id: true }));

/** PATCH/PUT /campaigns/:id: the given fields replace the stored ones. */
export const CampaignUpdate = wrapped("campaign", z.object(fields).partial());

/** GET /public/api/v1/inboxes/{id}/campaigns?url= */
export const WidgetCampaignsQuery = z.object({
  url: z.string().trim().min(1).max(MAX_PAGE_URL).optional().describe("the page the widget is on: only the campaigns whose URL rule matches it"),
});

const rulesShape = z.looseObject({ url: z.string().optional(), time_on_page: z.number().optional() });

/** A campaign (src/views/campaigns.ts): Chatwoot's partial, plus edgedesk's run figures. */
export const Campaign = z
  .looseObject({
    id: z.number().int().describe("the per-account display id"),
    display_id: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    account_id: z.number().int(),
    inbox_id: z.number().int(),
    inbox: Inbox.nullable(),
    sender_id: z.number().int().nullable(),
    sender: Agent.nullable(),
    message: z.string(),
    campaign_status: z.enum(CAMPAIGN_STATUSES),
    enabled: z.boolean(),
    campaign_type: z.enum(CAMPAIGN_TYPES),
    scheduled_at: seconds.optional().describe("one-off campaigns only"),
    audience: z.array(z.object({ type: z.string(), id: z.number().int() })).optional().describe("one-off campaigns only"),
    trigger_rules: rulesShape,
    trigger_only_during_business_hours: z.boolean(),
    audience_count: z.number().int().nullable().describe("contacts with an audience label when the run started; null before"),
    sent_count: z.number().int().describe("contacts the campaign has opened a conversation with"),
    started_at: seconds.nullable(),
    completed_at: seconds.nullable(),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: "Campaign" });

/** What a widget is shown of a campaign (Chatwoot's widget campaigns view). */
export const WidgetCampaign = z
  .looseObject({
    id: z.number().int(),
    trigger_rules: rulesShape,
    trigger_only_during_business_hours: z.boolean(),
    message: z.string(),
    sender: z.object({ name: z.string(), avatar_url: z.string() }).nullable(),
  })
  .meta({ id: "WidgetCampaign" });
