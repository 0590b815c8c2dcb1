import { Hono } from "hono";
import { z } from "zod";
import { contactsAmong, filterContacts, listContacts, searchContacts } from "../../domain/contacts/lists";
import { contactConversations } from "../../domain/contacts/conversations";
import { contactableInboxes, createContactInbox } from "../../domain/contacts/contact-inboxes";
import { listContactLabels, replaceContactLabels } from "../../domain/contacts/labels";
import { mergeContacts } from "../../domain/contacts/merge";
import { type ContactInput, createContact, deleteContact, destroyCustomAttributes, showContact, updateContact } from "../../domain/contacts/contacts";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { linkNext, nextCursorMeta } from "../../http/paging";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import {
  ContactCreate,
  ContactCustomAttributeKeys,
  ContactFilterBody,
  ContactInboxCreate,
  ContactLabels,
  ContactListQuery,
  ContactMerge,
  ContactSearchQuery,
  ContactShowQuery,
  ContactUpdate,
} from "../../schemas/contacts";
import { contactInboxView, contactView } from "../../views/contacts";
import { conversationView } from "../../views/conversations";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Contact, Empty, ContactInbox, Conversation, pageOf, payloadOf } from "../../schemas/responses";
import { onlineContactsInAccount, onlineInAccount } from "./online";
import { acceptFiles, filesNamed } from "../../http/body";
import { MAX_FILES_BODY_BYTES } from "../../domain/attachments/uploads";
import { listContactImports, showContactImport, startContactImport } from "../../domain/contacts/imports";
import { listContactExports, showContactExport, startContactExport } from "../../domain/contacts/exports";
import { invalidField } from "../../domain/kernel/errors";
import { ContactExport, ContactExportBody, ContactImport, ContactImportQuery } from "../../schemas/contact-transfers";
import { contactExportView, contactImportView } from "../../views/contact-transfers";

/** A contact update's body as the domain takes it (the MCP tool update_contact too). */
export const contactInputOf = (body: z.infer<typeof ContactUpdate>): ContactInput => ({
  name: body.name,
  email: body.email,
  phoneNumber: body.phone_number,
  identifier: body.identifier,
  blocked: body.blocked,
  avatarUrl: body.avatar_url,
  additionalAttributes: body.additional_attributes,
  customAttributes: body.custom_attributes,
});

/** Chatwoot includes contact inboxes unless `include_contact_inboxes` is exactly "false". */
const withInboxes = (value: string | undefined) => value !== "false";

const listQuery = (q: Pick<z.infer<typeof ContactSearchQuery>, "page" | "sort" | "include_contact_inboxes" | "cursor">) => ({
  page: Number(q.page ?? 1),
  sort: q.sort,
  withInboxes: withInboxes(q.include_contact_inboxes),
  cursor: q.cursor,
});

/** `meta.current_page`: the `page` parameter as given, 1 without one (as Chatwoot). */
const currentPage = (page: string | undefined) => page ?? 1;

/**
 * /api/v1/accounts/:account_id/contacts. Any member may use every route except DELETE, import and export
 * (administrators).
 * Static paths are registered before `/:id`, which would otherwise capture them.
 */
export const contactsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List contacts (15 a page)", response: pageOf(Contact) }), validate("query", ContactListQuery), async (c) => {
    const q = c.req.valid("query");
    const { count, records, hasMore, labelled, nextCursor } = await listContacts(accountScope(c), { ...listQuery(q), labels: q.labels });
    const meta = { count, current_page: currentPage(q.page), ...(labelled && { has_more: hasMore }), ...nextCursorMeta(nextCursor) };
    linkNext(c, nextCursor);
    return c.json({ meta, payload: records.map(contactView) });
  })
  .get("/search", doc({ summary: "Search contacts by name, email, phone number or identifier", response: pageOf(Contact) }), validate("query", ContactSearchQuery), async (c) => {
    const q = c.req.valid("query");
    const { records, hasMore, nextCursor } = await searchContacts(accountScope(c), q.q, listQuery(q));
    linkNext(c, nextCursor);
    return c.json({
      meta: { count: records.length, current_page: currentPage(q.page), has_more: hasMore, ...nextCursorMeta(nextCursor) },
      payload: records.map(contactView),
    });
  })
  // Contacts online now: a widget socket of theirs is open in one of the account's conversation rooms.
  .get("/active", doc({ summary: "List contacts online now (a widget socket of theirs is open)", response: pageOf(Contact) }), validate("query", ContactListQuery), async (c) => {
    const q = c.req.valid("query");
    const { records, count, hasMore, nextCursor } = await contactsAmong(accountScope(c), await onlineContactsInAccount(c), listQuery(q));
    linkNext(c, nextCursor);
    return c.json({
      meta: { count, current_page: currentPage(q.page), has_more: hasMore, ...nextCursorMeta(nextCursor) },
      payload: records.map(contactView),
    });
  })
  .post("/filter", doc({ summary: "Filter contacts", response: pageOf(Contact) }), validate("query", ContactListQuery), validate("json", ContactFilterBody), async (c) => {
    const q = c.req.valid("query");
    const { records, hasMore, nextCursor } = await filterContacts(accountScope(c), c.req.valid("json").payload, listQuery(q));
    linkNext(c, nextCursor);
    return c.json({
      meta: { count: records.length, current_page: currentPage(q.page), has_more: hasMore, ...nextCursorMeta(nextCursor) },
      payload: records.map(contactView),
    });
  })
  // import and export (administrators, as Chatwoot's policy): the work runs in the background; the
  // records say how far it got, which rows were refused and why, and where the export can be downloaded
  .post(
    "/import",
    doc({
      summary: "Import contacts from a CSV file (administrators)",
      description:
        "Multipart, the file in `import_file`: Chatwoot's columns (name, email, phone_number, identifier, company or company_name, city; any other column becomes a custom attribute). A row updates the contact with its identifier, email or phone number, or creates one. Answers the pending import; `GET /contacts/imports/{id}` follows it.",
      response: ContactImport,
    }),
    requireAdministrator,
    idempotent(),
    acceptFiles({ maxBodyBytes: MAX_FILES_BODY_BYTES }),
    async (c) => {
      const uploads = filesNamed(c, "import_file");
      if (uploads.length > 1) throw invalidField("import_file", "must be exactly one file", "too_many_files");
      return c.json(contactImportView(await startContactImport(accountScope(c), uploads[0])));
    },
  )
  .get("/imports", doc({ summary: "List contact imports, newest first (administrators)", response: payloadOf(z.array(ContactImport)) }), requireAdministrator, async (c) => {
    return c.json({ payload: (await listContactImports(accountScope(c))).map((row) => contactImportView(row)) });
  })
  .get(
    "/imports/:id",
    doc({ summary: "Show a contact import: its progress and a page of its refused rows with their reasons (administrators)", response: ContactImport }),
    requireAdministrator,
    validate("param", IdParam),
    validate("query", ContactImportQuery),
    async (c) => {
      const { record, refusals } = await showContactImport(accountScope(c), c.req.valid("param").id, c.req.valid("query").page ?? 1);
      return c.json(contactImportView(record, refusals));
    },
  )
  .post(
    "/export",
    doc({
      summary: "Export contacts as CSV (administrators)",
      description:
        "`column_names` (default id, name, email, phone_number), and optionally a filter `payload` as `POST /contacts/filter` takes it and a `label`. Written in the background; `GET /contacts/exports/{id}` gives the signed download URL once completed (Chatwoot mails it).",
      response: ContactExport,
    }),
    requireAdministrator,
    idempotent(),
    validate("json", ContactExportBody),
    async (c) => {
      const body = c.req.valid("json");
      const record = await startContactExport(accountScope(c), { columnNames: body.column_names, payload: body.payload, label: body.label });
      return c.json(contactExportView(record));
    },
  )
  .get("/exports", doc({ summary: "List contact exports, newest first (administrators)", response: payloadOf(z.array(ContactExport)) }), requireAdministrator, async (c) => {
    return c.json({ payload: (await listContactExports(accountScope(c))).map((row) => contactExportView(row)) });
  })
  .get("/exports/:id", doc({ summary: "Show a contact export, with its signed download URL once completed (administrators)", response: ContactExport }), requireAdministrator, validate("param", IdParam), async (c) => {
    return c.json(contactExportView(await showContactExport(accountScope(c), c.req.valid("param").id)));
  })
  .post("/", doc({ summary: "Create a contact", response: payloadOf(z.looseObject({ contact: Contact, contact_inbox: z.looseObject({ source_id: z.string().nullable() }) })) }), idempotent(), validate("json", ContactCreate), async (c) => {
    const body = c.req.valid("json");
    const { record, contactInbox } = await createContact(accountScope(c), {
      ...contactInputOf(body),
      inboxId: body.inbox_id,
      sourceId: body.source_id,
    });
    return c.json({
      payload: {
        contact: contactView(record),
        contact_inbox: contactInbox ? contactInboxView(contactInbox) : { inbox: null, source_id: null },
      },
    });
  })
  .get("/:id", doc({ summary: "Show a contact", response: payloadOf(Contact) }), validate("param", IdParam), validate("query", ContactShowQuery), async (c) => {
    const include = withInboxes(c.req.valid("query").include_contact_inboxes);
    return c.json({ payload: contactView(await showContact(accountScope(c), c.req.valid("param").id, include)) });
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a contact", response: payloadOf(Contact) }), validate("param", IdParam), validate("json", ContactUpdate), async (c) => {
    const record = await updateContact(accountScope(c), c.req.valid("param").id, contactInputOf(c.req.valid("json")), true);
    return c.json({ payload: contactView(record) });
  })
  .delete("/:id", doc({ summary: "Delete a contact (administrators)", response: Empty }), requireAdministrator, validate("param", IdParam), async (c) => {
    await deleteContact(accountScope(c), c.req.valid("param").id);
    return c.json({});
  })
  .get("/:id/contactable_inboxes", doc({ summary: "List the inboxes a contact can be reached in", response: payloadOf(z.array(ContactInbox)) }), validate("param", IdParam), async (c) => {
    const inboxes = await contactableInboxes(accountScope(c), c.req.valid("param").id);
    return c.json({ payload: inboxes.map(contactInboxView) });
  })
  .post("/:id/contact_inboxes", doc({ summary: "Create a contact inbox (a contact's identity in an inbox)", response: ContactInbox }), idempotent(), validate("param", IdParam), validate("json", ContactInboxCreate), async (c) => {
    const body = c.req.valid("json");
    const created = await createContactInbox(accountScope(c), c.req.valid("param").id, {
      inboxId: body.inbox_id,
      sourceId: body.source_id,
      hmacVerified: body.hmac_verified,
    });
    return c.json(contactInboxView(created));
  })
  .post("/:id/destroy_custom_attributes", doc({ summary: "Remove custom attributes from a contact", response: payloadOf(Contact) }), validate("param", IdParam), validate("json", ContactCustomAttributeKeys), async (c) => {
    const record = await destroyCustomAttributes(accountScope(c), c.req.valid("param").id, c.req.valid("json").custom_attributes);
    return c.json({ payload: contactView(record) });
  })
  .get("/:id/conversations", doc({ summary: "List a contact's conversations", response: payloadOf(z.array(Conversation)) }), validate("param", IdParam), async (c) => {
    const records = await contactConversations(accountScope(c), c.req.valid("param").id);
    const online = await onlineInAccount(c);
    return c.json({ payload: records.map((record) => conversationView(record, online)) });
  })
  .get("/:id/labels", doc({ summary: "List a contact's labels", response: payloadOf(z.array(z.string())) }), validate("param", IdParam), async (c) => {
    return c.json({ payload: await listContactLabels(accountScope(c), c.req.valid("param").id) });
  })
  .post("/:id/labels", doc({ summary: "Replace a contact's labels", response: payloadOf(z.array(z.string())) }), validate("param", IdParam), validate("json", ContactLabels), async (c) => {
    const labels = await replaceContactLabels(accountScope(c), c.req.valid("param").id, c.req.valid("json").labels);
    return c.json({ payload: labels });
  });

/**
 * POST /api/v1/accounts/:account_id/actions/contact_merge: answers the base contact, bare (as Chatwoot).
 * Administrators only: a merge deletes the mergee, and deleting contacts is theirs (Chatwoot lets agents).
 */
export const contactMergeApi = new Hono<AppEnv>().post("/", doc({ summary: "Merge two contacts into the base contact (administrators)", response: Contact }), requireAdministrator, validate("json", ContactMerge), async (c) => {
  const body = c.req.valid("json");
  return c.json(contactView(await mergeContacts(accountScope(c), body.base_contact_id, body.mergee_contact_id)));
});
