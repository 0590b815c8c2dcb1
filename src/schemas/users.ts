import { z } from "zod";
import { ACCOUNT_STATUSES, AVAILABILITIES, ROLES } from "../domain/kernel/enums";
import { Email, Id, JsonObject, ShortText, wrapped } from "./common";
import { isoTime } from "./responses";

/** Chatwoot's password rule: 6 to 128 characters with an upper-case and a lower-case letter, a digit and a symbol. */
export const Password = z
  .string()
  .min(6, { error: "is too short (minimum is 6 characters)", abort: true })
  .max(128)
  .refine((p) => /[A-Z]/.test(p) && /[a-z]/.test(p) && /\d/.test(p) && /[^A-Za-z0-9]/.test(p), {
    error: "must contain an upper-case letter, a lower-case letter, a number and a special character",
  });

const Name = ShortText.trim().min(1);

/** POST /platform/api/v1/users */
export const PlatformUserCreate = z.object({
  name: Name,
  display_name: ShortText.nullish(),
  email: Email,
  password: Password.optional(),
  custom_attributes: JsonObject.optional(),
});

/** PATCH /platform/api/v1/users/:id */
export const PlatformUserUpdate = PlatformUserCreate.partial();

/** PUT/PATCH /api/v1/profile (flat or wrapped in `profile`) */
export const ProfileUpdate = wrapped(
  "profile",
  z
    .object({
      name: Name.optional(),
      display_name: ShortText.nullish(),
      email: Email.optional(),
      message_signature: z.string().max(20_000).nullish(),
      ui_settings: JsonObject.optional(),
      phone_number: z
        .string()
        .trim()
        .regex(/^\+[1-9]\d{1,14}$/, { error: "should be in e164 format" })
        .nullish(),
      current_password: z.string().optional(),
      password: Password.optional(),
      password_confirmation: z.string().optional(),
    })
    .refine((p) => p.password === undefined || p.password === p.password_confirmation, {
      error: "does not match password",
      path: ["password_confirmation"],
    })
    .refine((p) => p.password === undefined || p.current_password !== undefined, {
      error: "is required to change the password",
      path: ["current_password"],
    }),
);

/** POST /api/v1/profile/availability: `{profile: {availability, account_id}}` (or flat). */
export const SetAvailability = wrapped("profile", z.object({ availability: z.enum(AVAILABILITIES), account_id: Id }));

/** PUT /api/v1/profile/set_active_account: `{profile: {account_id}}` (or flat). */
export const SetActiveAccount = wrapped("profile", z.object({ account_id: Id }));

/**
 * A user as the platform API and the profile show it (src/views/users.ts). `account_id` and `role` are
 * those of the most recently active account; `hmac_identifier` is empty without DESK_USER_HMAC_KEY.
 */
export const User = z
  .looseObject({
    id: z.number().int(),
    access_token: z.string(),
    account_id: z.number().int().nullable(),
    available_name: z.string(),
    avatar_url: z.string(),
    confirmed: z.boolean(),
    display_name: z.string().nullable(),
    message_signature: z.string().nullable(),
    email: z.string(),
    hmac_identifier: z.string(),
    inviter_id: z.number().int().nullable(),
    name: z.string(),
    provider: z.string(),
    pubsub_token: z.string(),
    role: z.enum(ROLES).nullable(),
    ui_settings: z.record(z.string(), z.unknown()),
    uid: z.string(),
    type: z.string().nullable(),
    unconfirmed_email: z.string().nullable().describe("a new address the user asked for, until its confirmation link is followed"),
    custom_attributes: z.record(z.string(), z.unknown()).optional().describe("present when the user has any"),
    accounts: z.array(
      z.looseObject({
        id: z.number().int(),
        name: z.string(),
        status: z.enum(ACCOUNT_STATUSES),
        active_at: isoTime.nullable(),
        role: z.enum(ROLES),
        permissions: z.array(z.string()),
        availability: z.enum(AVAILABILITIES),
        availability_status: z.enum(AVAILABILITIES),
        auto_offline: z.boolean(),
        custom_role_id: z.null(),
        custom_role: z.null(),
      }),
    ),
  })
  .meta({ id: "User" });

/** GET /auth/confirmation */
export const EmailConfirmationQuery = z.object({
  confirmation_token: z.string().min(1).max(256).describe("the token of the link mailed to the new address"),
});

/** GET /auth/confirmation, confirmed */
export const EmailConfirmed = z.looseObject({ email: z.string(), confirmed: z.literal(true) }).meta({ id: "EmailConfirmed" });

/** GET /platform/api/v1/users/:id/login */
export const LoginLink = z.looseObject({ url: z.string().describe("a one-time link that signs the user in") });

/** POST /platform/api/v1/users/:id/token */
export const UserToken = z.looseObject({
  access_token: z.string(),
  expiry: z.null(),
  user: z.looseObject({ id: z.number().int(), name: z.string(), display_name: z.string().nullable(), email: z.string(), pubsub_token: z.string() }),
});

const Secret = z.string().min(1).max(256);

/**
 * POST /auth/sign_in. The second-factor and single sign-on fields of Chatwoot's apps are read only to
 * answer that they are not offered (422 `not_offered`).
 */
export const SignInBody = z.object({
  email: z.string().trim().max(255).optional().describe("the user's e-mail address (any case)"),
  password: z.string().max(128).optional(),
  mfa_token: Secret.optional().describe("not offered: answers 422 not_offered"),
  otp_code: Secret.optional().describe("not offered: answers 422 not_offered"),
  backup_code: Secret.optional().describe("not offered: answers 422 not_offered"),
  sso_auth_token: Secret.optional().describe("not offered: answers 422 not_offered"),
});

/** POST /auth/sign_in and GET /auth/validate_token: the signed-in user, as the profile shows it. */
export const SignedInUser = z.looseObject({ data: User }).meta({ id: "SignedInUser" });

/** GET /auth/validate_token */
export const ValidToken = z.looseObject({ success: z.literal(true), data: User }).meta({ id: "ValidToken" });

/** DELETE /auth/sign_out, POST /auth/password */
export const AuthSuccess = z.looseObject({ success: z.literal(true), message: z.string() }).meta({ id: "AuthSuccess" });

/** POST /auth/password */
export const PasswordResetRequest = z.object({ email: Email });

/** PUT /auth/password */
export const PasswordResetBody = z
  .object({
    reset_password_token: Secret.describe("the token of the link mailed by POST /auth/password"),
    password: Password,
    password_confirmation: z.string().max(128),
  })
  .refine((p) => p.password === p.password_confirmation, { error: "does not match password", path: ["password_confirmation"] });
