/**
 * One CSV row of a contact import read as a contact, with Chatwoot's columns: `name`, `email`,
 * `phone_number`, `identifier`, `company` (or `company_name`) and `city` go to their fields (the last two
 * into additional attributes); every other column with a value becomes a custom attribute. Header names
 * are compared as Chatwoot normalises them: trimmed, lower-case, spaces, hyphens and colons as `_`.
 * A row is held to the rules `POST /contacts` applies (kernel/field-rules.ts, the custom attribute
 * definitions); Chatwoot's one allowance is kept: a phone number without its leading `+` gets one. Its
 * custom attributes are bounded as the public API's are (50 keys, 16 KB: kernel/field-rules.ts).
 */
import type { AttributeDefinition } from "../custom-attributes/rows";
import { checkCustomAttributeValues } from "../custom-attributes/values";
import { ATTRIBUTE_DISPLAY_TYPE } from "../kernel/enums";
import type { ErrorEntry } from "../kernel/errors";
import { E164_MESSAGE, E164_PATTERN, EMAIL_MESSAGE, EMAIL_PATTERN, SHORT_TEXT_MAX, attributeBoundErrors } from "../kernel/field-rules";
import type { ContactInput } from "./contacts";

/** The columns with a place of their own; any other column is a custom attribute. */
const FIELD_COLUMNS = ["name", "email", "phone_number", "identifier", "company", "company_name", "city"] as const;
/** At least one of these must head the file, or it is not a file of contacts. */
export const IDENTITY_COLUMNS = ["name", "email", "phone_number", "identifier"] as const;

export function normalizeColumn(name: string): string {
  return name.replace(/^\uFEFF/, "").trim().toLowerCase().replace(/:/g, "_").replace(/[\s-]+/g, "_");
}

/** What a row sets on a contact: only the fields it has a value for (Chatwoot never clears from a CSV). */
export type RowContact = Required<Pick<ContactInput, "additionalAttributes" | "customAttributes">> &
  Pick<ContactInput, "name"> & { email: string | null; phoneNumber: string | null; identifier: string | null };

export type ReadRow = { contact: RowContact } | { errors: ErrorEntry[] } | { blank: true };

const tooLong = (field: string): ErrorEntry => ({ field, message: `is too long (maximum is ${SHORT_TEXT_MAX} characters)`, code: "too_long" });

/** Text a CSV carries for a checkbox attribute, as the boolean the API stores. */
function checkboxValue(text: string): boolean | string {
  const lower = text.toLowerCase();
  if (["true", "yes", "1"].includes(lower)) return true;
  if (["false", "no", "0"].includes(lower)) return false;
  return text;
}

export function readRow(columns: string[], fields: string[], definitions: AttributeDefinition[]): ReadRow {
  if (fields.every((f) => f.trim() === "")) return { blank: true };
  const errors: ErrorEntry[] = [];
  // values beyond the header are refused, empty ones (a trailing comma) are not
  if (fields.slice(columns.length).some((f) => f.trim() !== "")) {
    errors.push({ field: "row", message: `has ${fields.length} values; the header names ${columns.length} columns`, code: "column_count" });
    return { errors };
  }
  const value = (column: string) => {
    const i = columns.indexOf(column);
    const text = i >= 0 ? (fields[i] ?? "").trim() : "";
    return text === "" ? null : text;
  };

  const name = value("name");
  if (name !== null && name.length > SHORT_TEXT_MAX) errors.push(tooLong("name"));
  let email = value("email");
  if (email !== null) {
    email = email.toLowerCase();
    if (email.length > SHORT_TEXT_MAX) errors.push(tooLong("email"));
    else if (!EMAIL_PATTERN.test(email)) errors.push({ field: "email", message: EMAIL_MESSAGE, code: "invalid_format" });
  }
  let phoneNumber = value("phone_number");
  if (phoneNumber !== null) {
    if (!phoneNumber.startsWith("+")) phoneNumber = `+${phoneNumber}`;
    if (!E164_PATTERN.test(phoneNumber)) errors.push({ field: "phone_number", message: E164_MESSAGE, code: "invalid_format" });
  }
  const identifier = value("identifier");
  if (identifier !== null && identifier.length > SHORT_TEXT_MAX) errors.push(tooLong("identifier"));

  const additionalAttributes: Record<string, string> = {};
  const company = value("company") ?? value("company_name");
  if (company !== null) additionalAttributes.company_name = company;
  const city = value("city");
  if (city !== null) additionalAttributes.city = city;
  for (const [key, text] of Object.entries(additionalAttributes)) if (text.length > SHORT_TEXT_MAX) errors.push(tooLong(key === "company_name" ? "company" : key));

  const byKey = new Map(definitions.map((d) => [d.attributeKey, d]));
  const customAttributes: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const text = (fields[i] ?? "").trim();
    if (column === "" || text === "" || (FIELD_COLUMNS as readonly string[]).includes(column)) return;
    customAttributes[column] = byKey.get(column)?.attributeDisplayType === ATTRIBUTE_DISPLAY_TYPE.checkbox ? checkboxValue(text) : text;
  });
  // a file may have thousands of columns: a row holds as many custom attributes as the public API allows
  const bounded = attributeBoundErrors("custom_attributes", customAttributes);
  errors.push(...(bounded.length > 0 ? bounded : checkCustomAttributeValues(definitions, customAttributes, "custom_attributes")));

  if (errors.length > 0) return { errors };
  return { contact: { ...(name !== null && { name }), email, phoneNumber, identifier, additionalAttributes, customAttributes } };
}
