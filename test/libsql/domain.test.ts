/**
 * The domain on libSQL: contacts (create, update, search through the trigram index, filter by index and
 * by paged scan, cursor paging, merge, delete) and conversations (create with a first message, list,
 * messages, search through the message index, filter by index and by paged scan, cursor paging) and
 * authentication (its one raw statement of joins) against an embedded libSQL file database, through the
 * same `Database` interface and typed batches that D1 serves in production.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/domain/identity/accounts";
import { resolveAccountAccess, resolveCredential } from "../../src/domain/identity/access";
import { upsertAccountUser } from "../../src/domain/identity/account-users";
import { findOrCreateUser } from "../../src/domain/identity/users";
import { createInbox } from "../../src/domain/inboxes/inboxes";
import { createContact, deleteContact, updateContact } from "../../src/domain/contacts/contacts";
import { filterContacts, listContacts, searchContacts } from "../../src/domain/contacts/lists";
import { mergeContacts } from "../../src/domain/contacts/merge";
import { createContactNote } from "../../src/domain/contacts/notes";
import { DomainError } from "../../src/domain/kernel/errors";
import { createConversation } from "../../src/domain/conversations/conversations";
import { createMessage, listMessages } from "../../src/domain/conversations/messages";
import { filterConversations, listConversations } from "../../src/domain/conversations/lists";
import { type AccountScope, type TransportScope, systemScope } from "../../src/domain/kernel/scope";
import { UNREACHABLE_PORTS } from "../../src/domain/kernel/ports";
import { libsqlDatabase } from "./database";
import { singleDatabase } from "../../src/db/shards";

let database: Awaited<ReturnType<typeof libsqlDatabase>>;
let scope: AccountScope;
let transport: TransportScope;
const BY_ID = { key: null, descending: false } as const;
const BY_NAME = { key: "name", descending: false } as const;
const page = (extra: object = {}) => ({ page: 1, sort: BY_ID, withInboxes: false, ...extra });

beforeAll(async () => {
  database = await libsqlDatabase();
  // a scope with no Worker behind it: no bindings, and live rooms nobody can reach; of the vars, the
  // dashboard's address that notification e-mails link to (wrangler.toml always sets it)
  // one database that is the directory and the only shard, as LIBSQL_URL makes it in a Worker
  const env = { FRONTEND_URL: "http://localhost:8787" } as Env;
  transport = { db: database.db, directory: database.db, shards: singleDatabase(database.db), env, ports: UNREACHABLE_PORTS };
  const account = await createAccount({ ...transport, actor: { type: "platform_app", platformAppId: 1 } }, { name: "On libSQL" });
  scope = systemScope(transport, account.id);
});

afterAll(() => database.close());

describe("contacts on libSQL", () => {
  it("creates, searches by substring in any script, filters, pages by cursor, merges and deletes", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { record } = await createContact(scope, { name: `Person ${i}`, email: `p${i}@example.com`, additionalAttributes: { city: i % 2 ? "Oslo" : "Rome" } });
      ids.push(record.contact.id);
    }
    const tokyo = await createContact(scope, { name: "東京太郎", phoneNumber: "+81312345678" });

    expect((await searchContacts(scope, "京太郎", page())).records.map((r) => r.contact.name)).toEqual(["東京太郎"]);
    expect((await searchContacts(scope, "P1@EXAMPLE", page())).records.map((r) => r.contact.email)).toEqual(["p1@example.com"]);
    expect((await searchContacts(scope, "1", page())).records.length).toBeGreaterThan(5);

    const oslo = await filterContacts(scope, [{ attribute_key: "city", filter_operator: "equal_to", values: ["oslo"] }], page({ sort: BY_NAME }));
    expect(oslo.records).toHaveLength(10);
    const scanned = await filterContacts(scope, [{ attribute_key: "blocked", filter_operator: "equal_to", values: ["false"] }], page());
    expect(scanned.records).toHaveLength(15);
    expect(scanned.hasMore).toBe(true);
    const rest = await filterContacts(scope, [{ attribute_key: "blocked", filter_operator: "equal_to", values: ["false"] }], page({ cursor: scanned.nextCursor! }));
    expect([...scanned.records, ...rest.records].map((r) => r.contact.id)).toEqual([...ids, tokyo.record.contact.id]);

    const first = await listContacts(scope, { ...page({ sort: BY_NAME }), labels: [] });
    expect(first.count).toBe(21);
    const second = await listContacts(scope, { ...page({ sort: BY_NAME, cursor: first.nextCursor! }), labels: [] });
    expect(second.records).toHaveLength(6);
    expect(second.nextCursor).toBeNull();

    await updateContact(scope, ids[0], { name: "Renamed Person" }, false);
    expect((await searchContacts(scope, "renamed", page())).records.map((r) => r.contact.id)).toEqual([ids[0]]);
    const merged = await mergeContacts(scope, ids[0], ids[1]);
    expect(merged.contact.id).toBe(ids[0]);
    expect((await searchContacts(scope, "Person 1", page())).records.map((r) => r.contact.id)).not.toContain(ids[1]);
    await deleteContact(scope, ids[0]);
    expect((await searchContacts(scope, "renamed", page())).records).toEqual([]);
  });
});

describe("writes checked by their own constraints on libSQL", () => {
  // libSQL words a refused constraint as D1 does, so a refused batch falls back to the checks there too
  it("creates a contact with its contact inbox in one batch, and answers a taken email and a foreign inbox as D1 does", async () => {
    const inbox = await createInbox(scope, { name: "Checked API" }, { type: "api" });
    const { record, contactInbox } = await createContact(scope, { name: "Checked", email: "checked@example.com", inboxId: inbox.inbox.id, sourceId: "checked-1" });
    expect(contactInbox).toMatchObject({ sourceId: "checked-1", inbox: { id: inbox.inbox.id } });
    expect(record.contactInboxes).toEqual([expect.objectContaining({ sourceId: "checked-1" })]);

    const taken = await createContact(scope, { name: "Again", email: "checked@example.com" }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(DomainError);
    expect((taken as DomainError).errors).toEqual([expect.objectContaining({ field: "email", code: "taken" })]);
    const missing = await createContact(scope, { name: "Nowhere", email: "nowhere@example.com", inboxId: 999_999 }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "not_found" });
    expect((await searchContacts(scope, "nowhere@", page())).records).toEqual([]);

    const note = await createContactNote(scope, record.contact.id, "On libSQL");
    expect(note.note).toMatchObject({ contactId: record.contact.id, content: "On libSQL" });
    await expect(createContactNote(scope, 999_999, "Nobody's")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("conversations on libSQL", () => {
  it("creates a conversation with its first message, lists it and its messages", async () => {
    const inbox = await createInbox(scope, { name: "API" }, { type: "api" });
    const { record } = await createContact(scope, { name: "Caller", email: "caller@example.com" });
    const conversation = await createConversation(scope, { inboxId: inbox.inbox.id, contactId: record.contact.id, message: { content: "Hello from libSQL" } });
    await createMessage(scope, conversation.conversation.displayId, { content: "A reply", messageType: "outgoing" });
    const listed = await listConversations(scope, { status: null, assigneeType: "all", page: 1 });
    expect(listed.records.map((r) => r.conversation.id)).toEqual([conversation.conversation.id]);
    const messages = await listMessages(scope, conversation.conversation.displayId, {});
    expect(messages.messages.map((m) => m.message.content)).toEqual(expect.arrayContaining(["Hello from libSQL", "A reply"]));
  });

  it("searches messages through the trigram index, filters by index and by paged scan, and pages by cursor", async () => {
    const inbox = await createInbox(scope, { name: "Search" }, { type: "api" });
    const { record } = await createContact(scope, { name: "Searcher", email: "searcher@example.com" });
    const displayIds: number[] = [];
    for (let i = 0; i < 30; i++) {
      const created = await createConversation(scope, { inboxId: inbox.inbox.id, contactId: record.contact.id, message: { content: `Ticket ${i} about 東京 shipping` } });
      displayIds.push(created.conversation.displayId);
    }
    const all = { status: null, assigneeType: "all", page: 1 } as const;
    const found = await listConversations(scope, { ...all, q: "TICKET 7 ABOUT" });
    expect(found.records.map((r) => r.conversation.displayId)).toEqual([displayIds[7]]);
    const many = await listConversations(scope, { ...all, q: "東京 ship" });
    expect(many.counts.all).toBe(30);
    const rest = await listConversations(scope, { ...all, q: "東京 ship", cursor: many.nextCursor! });
    expect([...many.records, ...rest.records].map((r) => r.conversation.displayId).sort((a, b) => a - b)).toEqual(displayIds);
    const byIndex = await filterConversations(scope, [{ attribute_key: "display_id", filter_operator: "equal_to", values: [displayIds[3]] }], { page: 1 });
    expect(byIndex.records.map((r) => r.conversation.displayId)).toEqual([displayIds[3]]);
    const scanned = await filterConversations(scope, [{ attribute_key: "display_id", filter_operator: "contains", values: ["1"] }], { page: 1 });
    expect(scanned.scanned).toBe(true);
    expect(scanned.records.length).toBeGreaterThan(0);
  });
});

describe("authentication on libSQL", () => {
  it("finds a key's user with the account and membership, and nothing for a stranger or an unknown key", async () => {
    const platform = { ...transport, actor: { type: "platform_app" as const, platformAppId: 1 } };
    const member = await findOrCreateUser(platform, { name: "Member", email: "member@example.com" });
    const stranger = await findOrCreateUser(platform, { name: "Stranger", email: "stranger@example.com" });
    await upsertAccountUser(transport, scope.accountId, member.user.id);

    const access = await resolveAccountAccess(transport, { kind: "key", key: member.accessToken! }, scope.accountId);
    expect(access.actor).toMatchObject({ type: "user", user: { id: member.user.id, email: "member@example.com" } });
    expect(access.account).toMatchObject({ id: scope.accountId, name: "On libSQL" });
    expect(access.membership).toMatchObject({ accountId: scope.accountId, userId: member.user.id });

    const outsider = await resolveAccountAccess(transport, { kind: "key", key: stranger.accessToken! }, scope.accountId);
    expect(outsider.actor).toMatchObject({ type: "user", user: { id: stranger.user.id } });
    expect(outsider.membership).toBeUndefined();

    expect(await resolveCredential(transport, { kind: "key", key: "not-a-key" })).toBeNull();
    expect((await resolveAccountAccess(transport, { kind: "key", key: "not-a-key" }, scope.accountId)).actor).toBeNull();
  });
});
