import { z } from "zod";
import { Email, JsonObject, ShortText, wrapped } from "./common";

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
