/**
 * Attributes a visitor writes without a key (a contact's custom and additional attributes, a new
 * conversation's custom attributes) are bounded, so that an anonymous client cannot grow rows, events
 * and webhook payloads at will. The bound is on what the row would hold after the write, since updates
 * merge into the stored attributes. A contact import's row is held to the same bound (a CSV may carry
 * thousands of columns, each a custom attribute): the bound is in kernel/field-rules.ts.
 */
import type { JsonObject } from "../../../drizzle/schema";
import { invalid } from "../kernel/errors";
import { attributeBoundErrors } from "../kernel/field-rules";

/** Refuses (422 naming the field) when an attribute object, as it would be stored, is over the bounds. */
export function checkPublicAttributes(fields: Record<string, JsonObject | undefined>) {
  const errors = Object.entries(fields).flatMap(([field, value]) => (value ? attributeBoundErrors(field, value) : []));
  if (errors.length > 0) throw invalid(errors);
}
