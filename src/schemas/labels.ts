import { z } from "zod";
import { Bool, LongText, ShortText, wrapped } from "./common";

/**
 * Chatwoot's rule, checked after lower-casing: a Unicode letter or digit, then at least one letter,
 * digit, `_` or `-`. No spaces, at least two characters.
 */
const TITLE = /^[\p{L}\p{N}][\p{L}\p{N}_-]+$/u;

const Title = ShortText.trim()
  .min(1)
  .transform((v) => v.toLowerCase())
  .refine((v) => TITLE.test(v), {
    error: "is invalid: use a letter or digit followed by letters, digits, _ or - (at least 2 characters, no spaces)",
    params: { code: "invalid" },
  });

const Color = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: "must be a colour in the form #rrggbb" });

const fields = {
  title: Title,
  description: LongText.nullish(),
  color: Color.optional(),
  show_on_sidebar: Bool.optional(),
};

/** POST /labels */
export const LabelCreate = wrapped("label", z.object(fields));

/** PATCH/PUT /labels/:id */
export const LabelUpdate = wrapped("label", z.object(fields).partial());

/** A label (src/views/labels.ts). */
export const Label = z
  .looseObject({
    id: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    color: z.string(),
    show_on_sidebar: z.boolean(),
  })
  .meta({ id: "Label" });
