import { z } from "zod";
import { attributePatternProblem } from "../domain/custom-attributes/values";
import { ATTRIBUTE_DISPLAY_TYPES, ATTRIBUTE_MODELS } from "../domain/kernel/enums";
import { EnumParam, LongText, ShortText, wrapped } from "./common";
import { isoTime } from "./responses";

/** Chatwoot's dashboard derives keys this way from the display name; contacts and filters address them by it. */
const Key = ShortText.trim()
  .min(1)
  .regex(/^[a-z0-9_]+$/, { error: "may contain only lower-case letters, digits and underscores" });

/** A pattern that compiles and whose worst case is bounded (see attributePatternProblem). */
const Pattern = ShortText.superRefine((v, ctx) => {
  const problem = v === "" ? null : attributePatternProblem(v);
  if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { code: problem.code } });
});

const fields = {
  attribute_display_name: ShortText.trim().min(1),
  attribute_key: Key,
  attribute_display_type: EnumParam(ATTRIBUTE_DISPLAY_TYPES).optional(),
  attribute_model: EnumParam(ATTRIBUTE_MODELS).optional(),
  attribute_description: LongText.nullish(),
  attribute_values: z.array(ShortText.trim().min(1)).max(1000).nullish(),
  regex_pattern: Pattern.nullish(),
  regex_cue: ShortText.nullish(),
};

/** POST /custom_attribute_definitions */
export const AttributeDefinitionCreate = wrapped("custom_attribute_definition", z.object(fields));

/** PATCH/PUT /custom_attribute_definitions/:id */
export const AttributeDefinitionUpdate = wrapped("custom_attribute_definition", z.object(fields).partial());

/** GET /custom_attribute_definitions: absent model = every definition. */
export const AttributeDefinitionQuery = z.object({ attribute_model: EnumParam(ATTRIBUTE_MODELS).optional() });

/** A custom attribute definition (src/views/custom-attribute-definitions.ts): enums as names, ISO times. */
export const AttributeDefinition = z
  .looseObject({
    id: z.number().int(),
    attribute_display_name: z.string(),
    attribute_display_type: z.enum(ATTRIBUTE_DISPLAY_TYPES),
    attribute_description: z.string().nullable(),
    attribute_key: z.string(),
    regex_pattern: z.string().nullable(),
    regex_cue: z.string().nullable(),
    attribute_values: z.array(z.string()).describe("the choices of a list attribute"),
    attribute_model: z.enum(ATTRIBUTE_MODELS),
    default_value: z.string().nullable(),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: "CustomAttributeDefinition" });
