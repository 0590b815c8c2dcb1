/**
 * Message attachments: each accepted kind, refused uploads that leave nothing behind, the Message
 * record's attachments, the conversation's attachment list, signed URLs, and deletes.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fileSignature } from "../../src/domain/attachments/signing";
import { shardOf } from "../support/databases";
import { call, del, get, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, createContact, createInbox } from "../support/fixtures";
import { file, messageForm, postForm, samples } from "../support/files";

const world = await createWorld("Files Co");
const other = await createWorld("Other Files Co");
const inboxId = await createInbox(world.accountId);
await addInboxMember(world.accountId, inboxId, world.agent.id);
const contactId = await createContact(world.accountId);
const open = async () => (await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: contactId })).body.id as number;
const messagesOf = (id: number) => `${world.base}/conversations/${id}/messages`;

/** What the account holds: attachment rows and R2 objects. */
async function stored(accountId = world.accountId) {
  const rows = await (await shardOf(accountId)).prepare("SELECT count(*) AS n FROM attachments WHERE account_id = ?").bind(accountId).first<{ n: number }>();
  const objects = await env.FILES.list({ prefix: `accounts/${accountId}/` });
  return { rows: rows!.n, objects: objects.objects.length };
}

/** Fetches a data_url through the Worker (the host is the test's). */
const fetchUrl = async (url: string) => {
  const { pathname, search } = new URL(url);
  return call("GET", pathname + search);
};

describe("uploading", () => {
  it.each([
    ["png", samples.png(), "photo.png", "image", "image/png", { width: 640, height: 480 }],
    ["jpeg", samples.jpeg(), "photo.jpeg", "image", "image/jpeg", { width: 300, height: 200 }],
    ["gif", samples.gif(), "anim.gif", "image", "image/gif", { width: 32, height: 16 }],
    ["webp", samples.webp(), "pic.webp", "image", "image/webp", { width: 100, height: 50 }],
    ["mp3", samples.mp3(), "voice.mp3", "audio", "audio/mpeg", { width: null, height: null }],
    ["ogg", samples.ogg(), "voice.ogg", "audio", "audio/ogg", { width: null, height: null }],
    ["wav", samples.wav(), "voice.wav", "audio", "audio/wav", { width: null, height: null }],
    ["mp4", samples.mp4(), "clip.mp4", "video", "video/mp4", { width: null, height: null }],
    ["webm", samples.webm(), "clip.webm", "video", "video/webm", { width: null, height: null }],
    ["pdf", samples.pdf(), "invoice.pdf", "file", "application/pdf", { width: null, height: null }],
    ["docx", samples.docx(), "letter.docx", "file", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", { width: null, height: null }],
    ["csv", samples.csv(), "people.csv", "file", "text/csv", { width: null, height: null }],
  ] as const)("accepts %s and serves it back", async (extension, content, name, fileType, contentType, size) => {
    const id = await open();
    const res = await postForm(messagesOf(id), world.agent.key, messageForm([file(content, name)], { content: `a ${extension}` }));
    expect(res.status).toBe(200);
    const [a] = res.body.attachments;
    expect(a).toMatchObject({ message_id: res.body.id, file_type: fileType, account_id: world.accountId, file_size: content.length, ...size });
    expect(a.extension).toBe(extension === "jpeg" ? "jpg" : extension);
    expect(res.body.attachment).toEqual(a);

    const body = new Uint8Array(await (await exports.default.fetch(new Request(a.data_url))).arrayBuffer());
    expect([...body]).toEqual([...content]);
    const head = await fetchUrl(a.data_url);
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe(contentType);
    expect(head.headers.get("x-content-type-options")).toBe("nosniff");
    const disposition = head.headers.get("content-disposition")!;
    // only plain raster images are shown in the page; the rest downloads
    expect(disposition.startsWith(fileType === "image" ? "inline" : "attachment")).toBe(true);
  });

  it("keeps several files on one message, in order, and lists them on the message and the conversation", async () => {
    const id = await open();
    const res = await postForm(messagesOf(id), world.agent.key, messageForm([file(samples.png(), "a.png"), file(samples.pdf(), "b.pdf"), file(samples.mp3(), "c.mp3")]));
    expect(res.status).toBe(200);
    expect(res.body.content).toBe("");
    expect(res.body.attachments.map((a: { file_type: string }) => a.file_type)).toEqual(["image", "file", "audio"]);

    const list = await get(messagesOf(id), world.agent.key);
    expect(list.body.payload.at(-1).attachments).toHaveLength(3);

    const files = await get(`${world.base}/conversations/${id}/attachments`, world.agent.key);
    expect(files.status).toBe(200);
    expect(files.body.meta).toEqual({ total_count: 3 });
    expect(files.body.payload.map((a: { extension: string }) => a.extension)).toEqual(["mp3", "pdf", "png"]);
    expect(files.body.payload[0]).toMatchObject({ message_id: res.body.id, sender: { id: world.agent.id, type: "user" } });
  });

  it("names the served file after what it is", async () => {
    const id = await open();
    const res = await postForm(messagesOf(id), world.agent.key, messageForm([file(samples.pdf(), "scan")]));
    const served = await fetchUrl(res.body.attachments[0].data_url);
    expect(served.headers.get("content-disposition")).toContain('filename="scan.pdf"');
  });
});

describe("refused uploads leave nothing behind", () => {
  it.each([
    ["HTML disguised as a PNG", file(samples.html(), "photo.png", "image/png")],
    ["an SVG image", file(samples.svg(), "logo.svg", "image/svg+xml")],
    ["an executable named .pdf", file(samples.exe(), "invoice.pdf", "application/pdf")],
    ["HTML named .txt", file(samples.html(), "notes.txt", "text/plain")],
  ])("refuses %s by its content", async (_name, refused) => {
    const id = await open();
    const before = await stored();
    const res = await postForm(messagesOf(id), world.agent.key, messageForm([file(samples.png(), "ok.png"), refused], { content: "x" }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: "attachments[1]", code: "file_type_not_allowed" })]);
    expect(await stored()).toEqual(before);
    expect((await get(messagesOf(id), world.agent.key)).body.payload).toEqual([]);
  });

  it("refuses a 41 MB file (the limit is 40 MB)", async () => {
    const id = await open();
    const before = await stored();
    const big = new Uint8Array(41 * 1024 * 1024);
    big.set(samples.png());
    const res = await postForm(messagesOf(id), world.agent.key, messageForm([file(big, "huge.png")]));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "attachments[0]", message: "is too large (41 MB; the maximum is 40 MB)", code: "file_too_large" }]);
    expect(await stored()).toEqual(before);
  });

  it("refuses 16 files (at most 15)", async () => {
    const id = await open();
    const before = await stored();
    const files = Array.from({ length: 16 }, (_, i) => file(samples.png(), `p${i}.png`));
    const res = await postForm(messagesOf(id), world.agent.key, messageForm(files));
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "attachments", code: "too_many_files" });
    expect(await stored()).toEqual(before);
    const fifteen = await postForm(messagesOf(id), world.agent.key, messageForm(files.slice(0, 15)));
    expect(fifteen.status).toBe(200);
    expect(fifteen.body.attachments).toHaveLength(15);
  });

  it("refuses a truncated multipart body with 400", async () => {
    const id = await open();
    const before = await stored();
    const full = new Uint8Array(await new Request("https://x", { method: "POST", body: messageForm([file(samples.png(), "a.png")], { content: "x" }) }).arrayBuffer());
    const type = new Request("https://x", { method: "POST", body: messageForm([]) }).headers.get("content-type")!;
    const boundary = new TextDecoder().decode(full).match(/^--([^\r\n]+)/)![1];
    const res = await call("POST", messagesOf(id), {
      key: world.agent.key,
      rawBody: full.slice(0, full.length - 40),
      headers: { "content-type": type.replace(/boundary=.*/, `boundary=${boundary}`) },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe("malformed_body");
    expect(await stored()).toEqual(before);
  });

  it("refuses files under another field, and a message with neither content nor files", async () => {
    const id = await open();
    const form = new FormData();
    form.append("attachment", file(samples.png(), "a.png"));
    const stray = await postForm(messagesOf(id), world.agent.key, form);
    expect(stray.status).toBe(422);
    expect(stray.body.errors[0]).toMatchObject({ field: "attachment", code: "unexpected_file" });
    const empty = await post(messagesOf(id), world.agent.key, {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toMatchObject({ field: "content", code: "required" });
  });

  it("keeps the 1 MiB limit on routes that take no files", async () => {
    const res = await call("POST", `${world.base}/labels`, {
      key: world.admin.key,
      rawBody: JSON.stringify({ title: "x".repeat(2 * 1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
  });
});

describe("signed URLs", () => {
  const upload = async () => {
    const id = await open();
    const res = await postForm(messagesOf(id), world.agent.key, messageForm([file(samples.pdf(), "doc.pdf")]));
    return { conversation: id, message: res.body, url: new URL(res.body.attachments[0].data_url) };
  };
  const signedPath = (accountId: number, fileId: number, expires: number, signature?: string) =>
    `/files/attachments/${accountId}/${fileId}/x?expires=${expires}&signature=${signature ?? fileSignature(env.ATTACHMENT_URL_SECRET!, { collection: "attachments", accountId, fileId }, expires)}`;

  it("serve the file without a key while valid", async () => {
    const { url } = await upload();
    const res = await call("GET", url.pathname + url.search);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="doc.pdf"/);
  });

  it("are refused with 403 once expired", async () => {
    const { message } = await upload();
    const fileId = message.attachments[0].id;
    const past = Math.floor(Date.now() / 1000) - 10;
    const res = await call("GET", signedPath(world.accountId, fileId, past));
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe("expired_url");
  });

  it("are refused with 403 when altered: signature, expiry, file id or account", async () => {
    const { message, url } = await upload();
    const fileId: number = message.attachments[0].id;
    const expires = Number(url.searchParams.get("expires"));
    const signature = url.searchParams.get("signature")!;
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    for (const path of [
      signedPath(world.accountId, fileId, expires, flipped),
      signedPath(world.accountId, fileId, expires + 3600, signature),
      signedPath(world.accountId, fileId + 1, expires, signature),
      // the URL of one account's file, pointed at another account
      signedPath(other.accountId, fileId, expires, signature),
    ]) {
      const res = await call("GET", path);
      expect(res.status, path).toBe(403);
      expect(res.body.errors[0].code).toBe("invalid_signature");
    }
  });

  it("never open another account's file, even correctly signed for the wrong account", async () => {
    const { message } = await upload();
    const expires = Math.floor(Date.now() / 1000) + 600;
    const res = await call("GET", signedPath(other.accountId, message.attachments[0].id, expires));
    expect(res.status).toBe(404);
  });
});

describe("deleting", () => {
  it("a message removes its files: rows, objects, and the URL answers 404", async () => {
    const id = await open();
    const res = await postForm(messagesOf(id), world.agent.key, messageForm([file(samples.png(), "a.png"), file(samples.pdf(), "b.pdf")]));
    const url = new URL(res.body.attachments[0].data_url);
    const before = await stored();
    const deleted = await del(`${messagesOf(id)}/${res.body.id}`, world.agent.key);
    expect(deleted.status).toBe(200);
    expect(deleted.body.attachments).toBeUndefined();
    expect(deleted.body.attachment).toBeNull();
    expect(await stored()).toEqual({ rows: before.rows - 2, objects: before.objects - 2 });
    expect((await call("GET", url.pathname + url.search)).status).toBe(404);
    expect((await get(`${world.base}/conversations/${id}/attachments`, world.agent.key)).body.meta.total_count).toBe(0);
  });

  it("a conversation (administrators) removes its messages, files and counts; agents get 403", async () => {
    const id = await open();
    await postForm(messagesOf(id), world.agent.key, messageForm([file(samples.png(), "a.png")], { content: "hello" }));
    await post(`${world.base}/conversations/${id}/labels`, world.admin.key, { labels: ["billing"] });
    const countBefore = (await get(`${world.base}/conversations/meta?status=all`, world.admin.key)).body.meta.all_count;
    const before = await stored();

    const byAgent = await del(`${world.base}/conversations/${id}`, world.agent.key);
    expect(byAgent.status).toBe(403);

    const res = await del(`${world.base}/conversations/${id}`, world.admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await get(`${world.base}/conversations/${id}`, world.admin.key)).status).toBe(404);
    expect((await get(`${world.base}/conversations/meta?status=all`, world.admin.key)).body.meta.all_count).toBe(countBefore - 1);
    expect(await stored()).toEqual({ rows: before.rows - 1, objects: before.objects - 1 });
    const leftovers = await (await shardOf(world.accountId)).prepare(
      "SELECT (SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ?1 AND c.display_id = ?2) AS messages",
    )
      .bind(world.accountId, id)
      .first<{ messages: number }>();
    expect(leftovers!.messages).toBe(0);
    expect((await del(`${world.base}/conversations/${id}`, world.admin.key)).status).toBe(404);
  });
});

describe("tenancy", () => {
  it("another account's conversation is a 404 under one's own path; another account's key a 403", async () => {
    const id = await open();
    expect((await get(`${other.base}/conversations/${id}/attachments`, other.admin.key)).status).toBe(404);
    expect((await get(`${world.base}/conversations/${id}/attachments`, other.admin.key)).status).toBe(403);
    expect((await del(`${world.base}/conversations/${id}`, other.admin.key)).status).toBe(403);
    expect((await get(`${world.base}/conversations/${id}/attachments`)).status).toBe(401);
  });
});
