import { z } from "zod";
import { ACCOUNT_STATUSES } from "../domain/kernel/enums";
import { Bool, Email, EnumValue, Int, JsonObject, ShortText, wrapped } from "./common";
import { isoTime } from "./responses";

const Name = ShortText.trim().min(1);

/** POST /platform/api/v1/accounts */
export const PlatformAccountCreate = z.object({
  name: Name,
  locale: z.string().trim().min(2).max(10).optional(),
  domain: z.string().trim().max(100).nullish(),
  support_email: Email.nullish(),
  status: EnumValue(ACCOUNT_STATUSES).optional(),
  limits: JsonObject.optional(),
  custom_attributes: JsonObject.optional(),
  features: z.record(z.string().min(1).max(100), Bool).optional(),
});

/** PATCH /platform/api/v1/accounts/:id */
export const PlatformAccountUpdate = PlatformAccountCreate.partial();

/** PATCH /api/v1/accounts/:id: general fields, plus company details and auto-resolve settings. */
export const AccountUpdate = wrapped(
  "account",
  z.object({
    name: Name.optional(),
    locale: z.string().trim().min(2).max(10).optional(),
    domain: z.string().trim().max(100).nullish(),
    support_email: Email.nullish(),
    // kept in custom_attributes, as Chatwoot does
    industry: ShortText.nullish(),
    company_size: ShortText.nullish(),
    timezone: ShortText.nullish(),
    // kept in settings
    auto_resolve_after: Int.pipe(z.number().min(10).max(1_439_856)).nullish(),
    auto_resolve_message: z.string().max(10_000).nullish(),
    auto_resolve_ignore_waiting: Bool.nullish(),
    auto_resolve_label: ShortText.nullish(),
    audio_transcriptions: Bool.nullish(),
  }),
);

export const COMPANY_FIELDS = ["industry", "company_size", "timezone"] as const;
export const SETTINGS_FIELDS = [
  "auto_resolve_after",
  "auto_resolve_message",
  "auto_resolve_ignore_waiting",
  "auto_resolve_label",
  "audio_transcriptions",
] as const;

/** The account as its members see it (src/views/accounts.ts, GET/PATCH /api/v1/accounts/:id). */
export const Account = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    locale: z.string(),
    domain: z.string().nullable(),
    support_email: z.string().nullable(),
    status: z.enum(ACCOUNT_STATUSES),
    settings: z.record(z.string(), z.unknown()),
    created_at: isoTime,
    custom_attributes: z.record(z.string(), z.unknown()).optional().describe("present when the account has any"),
    features: z.record(z.string(), z.literal(true)).describe("the enabled features"),
    latest_chatwoot_version: z.string().describe("this service's version"),
  })
  .meta({ id: "Account" });
