/**
 * The columns of a contact that are derived from its other fields. Every write of a contact's email,
 * phone number, identifier, name or additional attributes goes through `derivedContactColumns`, so the
 * list indexes and the "contacts.resolved" counter always agree with the stored values.
 */
import type { JsonObject } from "../../../drizzle/schema";

export type ContactFields = {
  name: string;
  email: string | null;
  phoneNumber: string | null;
  identifier: string | null;
  additionalAttributes: JsonObject;
};

const present = (v: string | null | undefined) => typeof v === "string" && v !== "";

/** Chatwoot lists only "resolved" contacts: those with an email, a phone number or an identifier. */
export const isResolved = (c: Pick<ContactFields, "email" | "phoneNumber" | "identifier">) =>
  present(c.email) || present(c.phoneNumber) || present(c.identifier);

/** Lower-cased, trimmed text, or null when there is none (so the contact sorts last). */
function sortText(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim().toLowerCase();
  return text === "" ? null : text;
}

/** Case-insensitive; names starting with "+" or a digit (phone numbers saved as names) after the others. */
export function nameSortKey(name: string): string | null {
  const text = sortText(name);
  if (text === null) return null;
  return (/^[+0-9]/.test(text) ? "1" : "0") + text;
}

export function derivedContactColumns(c: ContactFields) {
  return {
    resolved: isResolved(c),
    nameSort: nameSortKey(c.name),
    companySort: sortText(c.additionalAttributes.company_name),
    citySort: sortText(c.additionalAttributes.city),
    countrySort: sortText(c.additionalAttributes.country),
  };
}
