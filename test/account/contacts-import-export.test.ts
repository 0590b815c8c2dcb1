/**
 * Contact import and export: a CSV with good and bad rows imported in the background (the result lists
 * the refused rows by number, with their reasons), an export holding the account's contacts only behind
 * a signed link that expires, and the refusals (no file, not CSV, too large, wrong role, wrong account,
 * no key) that change nothing.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fileSignature } from "../../src/domain/attachments/signing";
import { createDb } from "../../src/db/client";
import { EXPORT_RETENTION_MS, deleteExpiredExports } from "../../src/domain/contacts/exports";
import { resumeStalledImports } from "../../src/domain/contacts/imports";
import { jobScope } from "../../src/jobs/scope";
import { shardOf } from "../support/databases";
import { createContact } from "../support/fixtures";
import { get, post } from "../support/http";
import { file, postForm, samples } from "../support/files";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;

beforeAll(async () => {
  world = await createWorld("Transfers");
  other = await createWorld("Transfers elsewhere");
});

const csvFile = (text: string, name = "contacts.csv") => file(new TextEncoder().encode(text), name, "text/csv");
const importForm = (f: File) => {
  const form = new FormData();
  form.append("import_file", f);
  return form;
};

/** Polls until the record's status is final (the queue consumer runs in the test runtime). */
async function finished(path: string, key: string) {
  for (let i = 0; i < 200; i++) {
    const res = await get(path, key);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.status === "completed" || res.body.status === "failed") return res.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} did not finish`);
}

async function storedContacts(accountId: number) {
  const { results } = await (await shardOf(accountId)).prepare(
    "SELECT id, name, email, phone_number, identifier, additional_attributes, custom_attributes, resolved FROM contacts WHERE account_id = ? ORDER BY id",
  )
    .bind(accountId)
    .all<{ id: number; name: string; email: string | null; phone_number: string | null; identifier: string | null; additional_attributes: string; custom_attributes: string; resolved: number }>();
  return results;
}

const countOf = async (table: string, accountId: number) =>
  (await (await shardOf(accountId)).prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`).bind(accountId).first<{ n: number }>())!.n;

describe("contact import", () => {
  it("imports the good rows, refuses the bad ones with their row numbers and reasons, and updates contacts it names", async () => {
    const { base, admin, accountId } = world;
    const existing = await post(`${base}/contacts`, admin.key, { name: "Old Name", email: "grace@example.com" });
    expect(existing.status).toBe(200);
    const csv = [
      "Name,Email,Phone Number,Identifier,Company,City,Plan",
      "Ada Lovelace,ADA@example.com,+442071234567,ada-1,Analytical,London,gold",
      "Bad Mail,not-an-email,,,,,",
      "Bad Phone,,0044,,,,",
      'Grace Hopper,grace@example.com,,,"Navy, US",Arlington,silver',
      "No Plus,,14155550100,,,,",
      "",
      "Clash,grace@example.com,+442071234567,,,,",
      '"Quoted ""Name""",quoted@example.com,,,,,',
    ].join("\r\n");
    const started = await postForm(`${base}/contacts/import`, admin.key, importForm(csvFile(csv)));
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ id: expect.any(Number), data_type: "contacts", status: "pending", file_name: "contacts.csv" });

    const result = await finished(`${base}/contacts/imports/${started.body.id}`, admin.key);
    expect(result).toMatchObject({ status: "completed", total_records: 7, processed_records: 4, refused_records: 3, failure: null });
    // the upload is deleted once the import has ended
    expect((await env.FILES.list({ prefix: `accounts/${accountId}/contact_imports/` })).objects).toEqual([]);
    expect(result.refused_rows).toEqual([
      { row: 3, errors: [{ field: "email", message: "is not a valid email address", code: "invalid_format" }] },
      { row: 4, errors: [{ field: "phone_number", message: "should be in e164 format", code: "invalid_format" }] },
      { row: 8, errors: [{ field: "phone_number", message: expect.stringContaining("has already been taken"), code: "taken" }] },
    ]);

    const contacts = await storedContacts(accountId);
    const byEmail = (email: string) => contacts.find((c) => c.email === email);
    expect(byEmail("ada@example.com")).toMatchObject({ name: "Ada Lovelace", phone_number: "+442071234567", identifier: "ada-1", resolved: 1 });
    expect(JSON.parse(byEmail("ada@example.com")!.additional_attributes)).toEqual({ company_name: "Analytical", city: "London" });
    expect(JSON.parse(byEmail("ada@example.com")!.custom_attributes)).toEqual({ plan: "gold" });
    // the row naming an existing contact updated it (no second Grace)
    expect(contacts.filter((c) => c.email === "grace@example.com")).toHaveLength(1);
    expect(byEmail("grace@example.com")).toMatchObject({ id: existing.body.payload.contact.id, name: "Grace Hopper" });
    expect(JSON.parse(byEmail("grace@example.com")!.additional_attributes)).toMatchObject({ company_name: "Navy, US", city: "Arlington" });
    expect(contacts.find((c) => c.phone_number === "+14155550100")).toMatchObject({ name: "No Plus" });
    expect(byEmail("quoted@example.com")).toMatchObject({ name: 'Quoted "Name"' });
    expect(contacts.some((c) => c.name === "Bad Mail" || c.name === "Bad Phone" || c.name === "Clash")).toBe(false);

    // what the API shows: the imported contacts are found, listed and counted
    const search = await get(`${base}/contacts/search?q=lovelace`, admin.key);
    expect(search.body.payload.map((c: { email: string }) => c.email)).toEqual(["ada@example.com"]);
    const list = await get(`${base}/contacts`, admin.key);
    expect(list.body.meta.count).toBe(4);
  });

  it("reads a file larger than one chunk, and a row repeating an earlier one updates the contact it created", async () => {
    const { base, admin, accountId } = await createWorld("Transfers chunks");
    const lines = ["email,name"];
    for (let i = 1; i <= 1_200; i++) lines.push(`bulk${i}@example.com,Bulk ${i}`);
    lines.push("bulk1@example.com,Bulk One Again");
    const started = await postForm(`${base}/contacts/import`, admin.key, importForm(csvFile(`${lines.join("\n")}\n`)));
    expect(started.status).toBe(200);
    const result = await finished(`${base}/contacts/imports/${started.body.id}`, admin.key);
    expect(result).toMatchObject({ status: "completed", total_records: 1_201, processed_records: 1_201, refused_records: 0, refused_rows: [] });
    expect(await countOf("contacts", accountId)).toBe(1_200);
    const first = await (await shardOf(accountId)).prepare("SELECT name FROM contacts WHERE account_id = ? AND email = 'bulk1@example.com'").bind(accountId).first<{ name: string }>();
    expect(first!.name).toBe("Bulk One Again");
    expect((await get(`${base}/contacts`, admin.key)).body.meta.count).toBe(1_200);
    expect((await get(`${base}/contacts/search?q=bulk1200`, admin.key)).body.payload).toHaveLength(1);
  });

  it("holds a row's custom attributes to the public API's bound: 50 keys, 16 KB", async () => {
    const { base, admin, accountId } = await createWorld("Transfers wide");
    const extra = Array.from({ length: 5_000 }, (_, i) => `attr_${i}`);
    const row = (email: string, filled: number, value = "v") => [email, ...extra.map((_, i) => (i < filled ? value : ""))].join(",");
    const csv = [
      ["email", ...extra].join(","),
      row("fifty@example.com", 50),
      row("fifty-one@example.com", 51),
      row("five-thousand@example.com", 5_000),
      row("heavy@example.com", 20, "h".repeat(1_000)),
    ].join("\n");
    const started = await postForm(`${base}/contacts/import`, admin.key, importForm(csvFile(`${csv}\n`)));
    expect(started.status).toBe(200);
    const result = await finished(`${base}/contacts/imports/${started.body.id}`, admin.key);
    expect(result).toMatchObject({ status: "completed", total_records: 4, processed_records: 1, refused_records: 3 });
    expect(result.refused_rows).toEqual([
      { row: 3, errors: [{ field: "custom_attributes", message: "may hold at most 50 keys", code: "too_many_keys" }] },
      { row: 4, errors: [{ field: "custom_attributes", message: "may hold at most 50 keys", code: "too_many_keys" }] },
      { row: 5, errors: [{ field: "custom_attributes", message: expect.stringContaining("bytes"), code: "too_large" }] },
    ]);
    // the refused rows made no contact
    const stored = await storedContacts(accountId);
    expect(stored.map((c) => c.email)).toEqual(["fifty@example.com"]);
    expect(Object.keys(JSON.parse(stored[0].custom_attributes))).toHaveLength(50);
  });

  it("stops with a failure at a row no CSV reader can end, keeping the rows before it", async () => {
    const { base, admin, accountId } = await createWorld("Transfers broken");
    const csv = `name,email\nFine,fine@example.com\n"Never closed,${"x".repeat(70_000)}\nAfter,after@example.com\n`;
    const started = await postForm(`${base}/contacts/import`, admin.key, importForm(csvFile(csv)));
    expect(started.status).toBe(200);
    const result = await finished(`${base}/contacts/imports/${started.body.id}`, admin.key);
    expect(result.status).toBe("failed");
    expect(result.failure).toContain("row 3");
    expect(result.processed_records).toBe(1);
    expect((await storedContacts(accountId)).map((c) => c.email)).toEqual(["fine@example.com"]);
  });

  it("does a step once: a repeated queue message, or one for an offset already passed, changes nothing", async () => {
    const { base, admin, accountId } = await createWorld("Transfers repeat");
    const started = await postForm(`${base}/contacts/import`, admin.key, importForm(csvFile("name,email\nOnce,once@example.com\n")));
    const done = await finished(`${base}/contacts/imports/${started.body.id}`, admin.key);
    expect(done.processed_records).toBe(1);
    await env.EVENTS.send({ kind: "contact_import", accountId, importId: started.body.id, offset: 0 });
    await env.EVENTS.send({ kind: "contact_import", accountId, importId: started.body.id, offset: 11 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await get(`${base}/contacts/imports/${started.body.id}`, admin.key)).toMatchObject({ body: done });
    expect((await storedContacts(accountId)).map((c) => c.email)).toEqual(["once@example.com"]);
  });

  it("finishes an import whose last step ended on the file's last row, and the sweep resumes one that stopped moving", async () => {
    const { base, admin, accountId } = await createWorld("Transfers resume");
    const text = "name,email\nLate,late@example.com\n";
    const old = Date.now() - 10 * 60 * 1000;
    // one stopped mid-file, its message lost; one whose rows were all written before its last message
    const insert = async (name: string, offset: number, row: number, columns: string | null) => {
      const key = `accounts/${accountId}/contact_imports/${name}`;
      await env.FILES.put(key, text);
      return (await shardOf(accountId)).prepare(
        `INSERT INTO contact_imports (account_id, status, file_name, file_size, storage_key, columns, next_offset, next_row, total_records, processed_records, created_at, updated_at)
         VALUES (?, 1, 'contacts.csv', ?, ?, ?, ?, ?, 0, 0, ?, ?) RETURNING id`,
      )
        .bind(accountId, text.length, key, columns, offset, row, old, old)
        .first<{ id: number }>();
    };
    const stalled = (await insert("stalled", 0, 1, null))!.id;
    const atEnd = (await insert("at-end", text.length, 3, JSON.stringify(["name", "email"])))!.id;
    await env.EVENTS.send({ kind: "contact_import", accountId, importId: atEnd, offset: text.length });
    expect(await finished(`${base}/contacts/imports/${atEnd}`, admin.key)).toMatchObject({ status: "completed", processed_records: 0 });

    expect(await resumeStalledImports(jobScope(createDb(await shardOf(accountId)), env))).toBeGreaterThanOrEqual(1);
    expect(await finished(`${base}/contacts/imports/${stalled}`, admin.key)).toMatchObject({ status: "completed", processed_records: 1, refused_records: 0 });
    expect((await storedContacts(accountId)).map((c) => c.email)).toEqual(["late@example.com"]);
    // both uploads are deleted once their imports have ended
    expect((await env.FILES.list({ prefix: `accounts/${accountId}/contact_imports/` })).objects).toEqual([]);
  });

  it("refuses a request without a file, an empty file, a file that is not CSV and one too large, changing nothing", async () => {
    const { base, admin, accountId } = world;
    const before = { contacts: await storedContacts(accountId), imports: await countOf("contact_imports", accountId) };
    const objects = (await env.FILES.list({ prefix: `accounts/${accountId}/contact_imports/` })).objects.length;

    const none = await post(`${base}/contacts/import`, admin.key, {});
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([{ field: "import_file", message: expect.stringContaining("is required"), code: "required" }]);

    const empty = await postForm(`${base}/contacts/import`, admin.key, importForm(csvFile("")));
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toMatchObject({ field: "import_file", code: "empty_file" });

    const pdf = await postForm(`${base}/contacts/import`, admin.key, importForm(file(samples.pdf(), "contacts.csv")));
    expect(pdf.status).toBe(422);
    expect(pdf.body).toEqual({ description: expect.any(String), errors: [{ field: "import_file", message: expect.any(String), code: "not_csv" }] });

    const notContacts = await postForm(`${base}/contacts/import`, admin.key, importForm(csvFile("colour,size\nred,1\n")));
    expect(notContacts.status).toBe(422);
    expect(notContacts.body.errors[0]).toMatchObject({ field: "import_file", code: "not_contacts_csv" });

    const big = new Uint8Array(41 * 1024 * 1024).fill(0x61);
    big.set(new TextEncoder().encode("name,email\n"));
    const tooLarge = await postForm(`${base}/contacts/import`, admin.key, importForm(file(big, "big.csv")));
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.errors).toEqual([{ field: "import_file", message: "is too large (41 MB; the maximum is 40 MB)", code: "file_too_large" }]);

    const two = new FormData();
    two.append("import_file", csvFile("name\nA\n"));
    two.append("import_file", csvFile("name\nB\n"));
    const twoFiles = await postForm(`${base}/contacts/import`, admin.key, two);
    expect(twoFiles.status).toBe(422);

    expect({ contacts: await storedContacts(accountId), imports: await countOf("contact_imports", accountId) }).toEqual(before);
    expect((await env.FILES.list({ prefix: `accounts/${accountId}/contact_imports/` })).objects.length).toBe(objects);
  });

  it("is for administrators of the account: an agent, another account's administrator and no key are refused", async () => {
    const { base, admin, agent, accountId } = world;
    const before = await countOf("contact_imports", accountId);
    const form = () => importForm(csvFile("name,email\nSneaky,sneaky@example.com\n"));
    const asAgent = await postForm(`${base}/contacts/import`, agent.key, form());
    expect(asAgent.status).toBe(403);
    expect(asAgent.body.errors[0]).toMatchObject({ code: expect.any(String) });
    expect((await postForm(`${base}/contacts/import`, other.admin.key, form())).status).toBe(403);
    expect((await postForm(`${base}/contacts/import`, null, form())).status).toBe(401);
    expect(await countOf("contact_imports", accountId)).toBe(before);
    expect((await storedContacts(accountId)).some((c) => c.email === "sneaky@example.com")).toBe(false);

    // an import is its account's: another account's administrator, or an agent, cannot read it
    const started = await postForm(`${base}/contacts/import`, admin.key, importForm(csvFile("name\nMine\n")));
    await finished(`${base}/contacts/imports/${started.body.id}`, admin.key);
    expect((await get(`${base}/contacts/imports/${started.body.id}`, agent.key)).status).toBe(403);
    expect((await get(`${other.base}/contacts/imports/${started.body.id}`, other.admin.key)).status).toBe(404);
    expect((await get(`${base}/contacts/imports`, admin.key)).body.payload.map((i: { id: number }) => i.id)).toContain(started.body.id);
  });
});

describe("contact export", () => {
  it("writes the account's contacts only, with the columns asked for, behind a signed link", async () => {
    const { base, admin, accountId } = await createWorld("Transfers export");
    await createContact(other.accountId, { name: "Not Mine", email: "not.mine@example.com" });
    const ids = [];
    for (const [name, email] of [["Alan, Turing", "alan@example.com"], ["=cmd()", "formula@example.com"], ["Plain", "plain@example.com"]]) {
      ids.push((await post(`${base}/contacts`, admin.key, { name, email })).body.payload.contact.id);
    }
    const started = await post(`${base}/contacts/export`, admin.key, { column_names: ["id", "name", "email"] });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: "pending", column_names: ["id", "name", "email"], download_url: null });
    const done = await finished(`${base}/contacts/exports/${started.body.id}`, admin.key);
    expect(done).toMatchObject({ status: "completed", exported_records: 3, download_url: expect.stringContaining(`/files/contact_exports/${accountId}/${started.body.id}/`) });

    const url = new URL(done.download_url);
    const download = await exports.default.fetch(new Request(`https://desk.test${url.pathname}${url.search}`));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toContain("text/csv");
    expect(download.headers.get("content-disposition")).toContain("attachment");
    const text = await download.text();
    expect(Number(download.headers.get("content-length"))).toBe(new TextEncoder().encode(text).length);
    expect(text.split("\r\n")).toEqual([
      "id,name,email",
      `${ids[0]},"Alan, Turing",alan@example.com`,
      `${ids[1]},'=cmd(),formula@example.com`,
      `${ids[2]},Plain,plain@example.com`,
      "",
    ]);
    expect(text).not.toContain("not.mine");

    // 30 days after it ended, the minute sweep deletes the export and its file: the link and the record are gone
    const files = () => env.FILES.list({ prefix: `accounts/${accountId}/contact_exports/` });
    expect((await files()).objects.length).toBeGreaterThan(0);
    await (await shardOf(accountId)).prepare("UPDATE contact_exports SET completed_at = ? WHERE account_id = ?").bind(Date.now() - EXPORT_RETENTION_MS - 1000, accountId).run();
    expect(await deleteExpiredExports(jobScope(createDb(await shardOf(accountId)), env))).toBeGreaterThanOrEqual(1);
    expect((await files()).objects).toEqual([]);
    expect((await get(`${base}/contacts/exports/${started.body.id}`, admin.key)).status).toBe(404);
    expect((await exports.default.fetch(new Request(`https://desk.test${url.pathname}${url.search}`))).status).toBe(404);
  });

  it("exports what a filter payload and a label select, and Chatwoot's default columns", async () => {
    const { base, admin } = await createWorld("Transfers filtered");
    const keep = (await post(`${base}/contacts`, admin.key, { name: "Keep Me", email: "keep@example.com", phone_number: "+15550001111" })).body.payload.contact;
    await post(`${base}/contacts`, admin.key, { name: "Drop Me", email: "drop@example.com" });
    const tagged = (await post(`${base}/contacts`, admin.key, { name: "Keep Tagged", email: "tagged@example.com" })).body.payload.contact;
    await post(`${base}/contacts/${tagged.id}/labels`, admin.key, { labels: ["vip"] });
    const payload = [{ attribute_key: "name", filter_operator: "contains", values: ["keep"], query_operator: null }];

    const filtered = await post(`${base}/contacts/export`, admin.key, { payload });
    const done = await finished(`${base}/contacts/exports/${filtered.body.id}`, admin.key);
    const url = new URL(done.download_url);
    const text = await (await exports.default.fetch(new Request(`https://desk.test${url.pathname}${url.search}`))).text();
    expect(text).toBe(`id,name,email,phone_number\r\n${keep.id},Keep Me,keep@example.com,+15550001111\r\n${tagged.id},Keep Tagged,tagged@example.com,\r\n`);

    const labelled = await post(`${base}/contacts/export`, admin.key, { payload, label: "vip" });
    const labelledDone = await finished(`${base}/contacts/exports/${labelled.body.id}`, admin.key);
    expect(labelledDone.exported_records).toBe(1);
  });

  it("serves the CSV only while the link holds: an expired or altered link is a 403", async () => {
    const { base, admin, accountId } = await createWorld("Transfers expiry");
    await post(`${base}/contacts`, admin.key, { name: "Someone", email: "someone@example.com" });
    const started = await post(`${base}/contacts/export`, admin.key, {});
    await finished(`${base}/contacts/exports/${started.body.id}`, admin.key);
    const path = `/files/contact_exports/${accountId}/${started.body.id}/contacts.csv`;
    const address = { collection: "contact_exports" as const, accountId, fileId: started.body.id };
    // signed with the server's secret (vitest.config.ts), for an expiry one second in the past
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = await exports.default.fetch(new Request(`https://desk.test${path}?expires=${past}&signature=${fileSignature("test-attachment-url-secret", address, past)}`));
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as any).errors[0]).toMatchObject({ code: "expired_url" });
    const future = Math.floor(Date.now() / 1000) + 60;
    const signature = fileSignature("test-attachment-url-secret", address, future);
    expect((await exports.default.fetch(new Request(`https://desk.test${path}?expires=${future}&signature=${signature}`))).status).toBe(200);
    // the same signature with a later expiry, or for another account's path, does not open it
    const altered = await exports.default.fetch(new Request(`https://desk.test${path}?expires=${future + 3600}&signature=${signature}`));
    expect(altered.status).toBe(403);
    expect(((await altered.json()) as any).errors[0]).toMatchObject({ code: "invalid_signature" });
    const elsewhere = `/files/contact_exports/${other.accountId}/${started.body.id}/contacts.csv?expires=${future}&signature=${signature}`;
    expect((await exports.default.fetch(new Request(`https://desk.test${elsewhere}`))).status).toBe(403);
  });

  it("refuses unknown columns, a filter that cannot run, agents, other accounts and no key, recording nothing", async () => {
    const { base, admin, agent, accountId } = world;
    const before = await countOf("contact_exports", accountId);
    const columns = await post(`${base}/contacts/export`, admin.key, { column_names: ["id", "password"] });
    expect(columns.status).toBe(422);
    expect(columns.body.errors).toEqual([{ field: "column_names[1]", message: expect.stringContaining("must be one of"), code: "invalid_value" }]);
    const filter = await post(`${base}/contacts/export`, admin.key, { payload: [{ attribute_key: "shoe_size", filter_operator: "equal_to", values: ["9"] }] });
    expect(filter.status).toBe(422);
    expect(filter.body.errors[0]).toMatchObject({ field: "payload[0].attribute_key", code: "unknown_attribute" });
    expect((await post(`${base}/contacts/export`, admin.key, { payload: "all" })).status).toBe(422);
    expect((await post(`${base}/contacts/export`, agent.key, {})).status).toBe(403);
    expect((await post(`${base}/contacts/export`, other.admin.key, {})).status).toBe(403);
    expect((await post(`${base}/contacts/export`, null, {})).status).toBe(401);
    expect(await countOf("contact_exports", accountId)).toBe(before);

    const mine = await post(`${base}/contacts/export`, admin.key, {});
    expect((await get(`${base}/contacts/exports/${mine.body.id}`, agent.key)).status).toBe(403);
    expect((await get(`${other.base}/contacts/exports/${mine.body.id}`, other.admin.key)).status).toBe(404);
    await finished(`${base}/contacts/exports/${mine.body.id}`, admin.key);
  });
});
