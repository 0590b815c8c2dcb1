/** Request schemas of /api/v1/accounts/:account_id/contacts and the contact merge action. */
import { z } from "zod";
import { E164_MESSAGE, E164_PATTERN } from "../domain/kernel/field-rules";
import { CONTACT_SORT_KEYS, type ContactSort, type ContactSortKey } from "../domain/contacts/order";
import { Bool, Cursor, Email, HttpUrl, Id, JsonObject, ShortText, wrapped } from "./common";

/** Clients clear a field with "" or null; both are stored as null. */
const clearable = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === "" ? null : v), schema.nullable()).optional();

/** E.164: "+", a first digit 1-9, 2 to 15 digits in all. */
export const PhoneNumber = z.string().trim().regex(E164_PATTERN, { error: E164_MESSAGE });

const contactFields = {
  name: ShortText.optional(),
  email: clearable(Email),
  phone_number: clearable(PhoneNumber),
  identifier: clearable(ShortText),
  blocked: Bool.optional(),
  avatar_url: clearable(HttpUrl),
  additional_attributes: JsonObject.optional(),
  custom_attributes: JsonObject.optional(),
};

export const ContactCreate = wrapped(
  "contact",
  z.object({ ...contactFields, inbox_id: Id.optional(), source_id: ShortText.min(1).optional() }),
);

/** The fields a contact update may change, bare (the MCP tool update_contact takes them so). */
export const ContactChanges = z.object(contactFields);

export const ContactUpdate = wrapped("contact", ContactChanges);

const SORT_VALUES = Object.keys(CONTACT_SORT_KEYS).flatMap((k) => [k, `-${k}`]) as [string, ...string[]];

/** `sort` as Chatwoot names it: a key, "-" in front for descending; blank means the default order. */
const Sort = z
  .preprocess((v) => (v === "" ? undefined : v), z.enum(SORT_VALUES).optional())
  .transform((v): ContactSort =>
    v === undefined ? { key: null, descending: false } : { key: v.replace(/^-/, "") as ContactSortKey, descending: v.startsWith("-") },
  );

/** `page` from 1; the view echoes it as given (Chatwoot's `meta.current_page` is the raw parameter). */
const Page = z
  .string()
  .regex(/^\d+$/, { error: "must be a positive integer" })
  .refine((v) => Number(v) >= 1 && Number(v) <= 1_000_000, { error: "must be between 1 and 1000000" })
  .optional();


const listFields = {
  page: Page,
  cursor: Cursor,
  sort: Sort,
  /** Chatwoot includes contact inboxes unless this is exactly "false". */
  include_contact_inboxes: z.string().optional(),
};

/** `labels[]=a&labels[]=b` (Rails style) or `labels=a`: one value arrives as a string, several as an array. */
const Labels = z.union([ShortText, z.array(ShortText).max(20)]).transform((v) => (Array.isArray(v) ? v : [v]));

export const ContactListQuery = z
  .object({ ...listFields, "labels[]": Labels.optional(), labels: Labels.optional() })
  .transform(({ "labels[]": bracketed, labels, ...rest }) => ({ ...rest, labels: [...(bracketed ?? []), ...(labels ?? [])] }));
export const ContactSearchQuery = z.object({ ...listFields, q: z.string().trim().min(1).max(255) });
export const ContactShowQuery = z.object({ include_contact_inboxes: listFields.include_contact_inboxes });

const FilterValue = z.union([z.string().max(255), z.number(), z.boolean()]);

export const ContactFilterCondition = z.object({
  attribute_key: z.string().min(1).max(255),
  filter_operator: z.string().min(1).max(50),
  values: z.preprocess((v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]), z.array(FilterValue).max(100)),
  query_operator: z.string().max(10).nullable().optional(),
  custom_attribute_type: z.string().max(50).nullable().optional(),
});

export const ContactFilterBody = z.object({ payload: z.array(ContactFilterCondition).min(1).max(20) });

export const ContactInboxCreate = z.object({
  inbox_id: Id,
  source_id: ShortText.min(1).optional(),
  hmac_verified: Bool.optional(),
});

export const ContactLabels = z.object({ labels: z.array(ShortText).max(100) });

export const ContactCustomAttributeKeys = z.object({ custom_attributes: z.array(z.string().max(255)).max(100) });

export const ContactMerge = z.object({ base_contact_id: Id, mergee_contact_id: Id });
