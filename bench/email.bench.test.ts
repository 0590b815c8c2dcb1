/**
 * `npm run bench:email`: inbound mail through the Worker's email() handler, the queue and the consumer.
 * 1. A mail's time from the handler to its conversation visible in the API (20 mails, one after another),
 *    beside GET /api measured in the same run as the baseline.
 * 2. 1,000 mails handed to the handler at once (50 at a time): the time until all are stored, and that
 *    each is stored once (1,000 messages, 1,000 `inbound_emails` rows).
 * 3. What the consumer costs the account's shard per mail (round trips, D1 rows read and written), for a
 *    mail that starts a conversation with a new contact, one that answers a conversation, and a duplicate.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import worker from "../src/index";
import { createDb, schema } from "../src/db/client";
import { get, post } from "../test/support/http";
import { createWorld, uniqueEmail } from "../test/support/world";
import { shardOf } from "../test/support/databases";
import { QueryMeter, meterD1 } from "../src/db/metering";
import { jobScope } from "../src/jobs/scope";
import { runInboundEmail } from "../src/jobs/inbound-email";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function mail(to: string, n: number, subject = `Bench mail ${n}`) {
  return [
    `From: "Customer ${n}" <customer-${n}@example.org>`,
    `To: ${to}`,
    `Subject: ${subject}`,
    `Message-ID: <bench-${n}-${crypto.randomUUID()}@example.org>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    `Hello, this is mail ${n}.`,
    "",
  ].join("\r\n");
}

async function handOver(raw: string, to: string) {
  const bytes = new TextEncoder().encode(raw);
  const message = {
    from: "customer@example.org",
    to,
    headers: new Headers(),
    raw: new Response(bytes).body!,
    rawSize: bytes.byteLength,
    setReject: (reason: string) => {
      throw new Error(`rejected: ${reason}`);
    },
  } as unknown as ForwardableEmailMessage;
  const ctx = createExecutionContext();
  await worker.email!(message, env, ctx);
  await waitOnExecutionContext(ctx);
}

it("inbound mail: handler to conversation, and a burst of 1,000", async () => {
  const world = await createWorld("Mail bench");
  const inbox = (await post(`${world.base}/inboxes`, world.admin.key, { name: "Mail", channel: { type: "email", email: uniqueEmail("bench") } })).body;
  const db = createDb(await shardOf(world.accountId));
  const stored = async () => (await db.select({ n: count() }).from(schema.inboundEmails).where(eq(schema.inboundEmails.accountId, world.accountId)))[0].n;

  const baseline: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    await get("/api", null);
    baseline.push(performance.now() - start);
  }

  const latencies: number[] = [];
  for (let i = 0; i < 20; i++) {
    const subject = `Latency ${i} ${crypto.randomUUID()}`;
    const start = performance.now();
    await handOver(mail(inbox.email, i, subject), inbox.email);
    for (;;) {
      const list = await get(`${world.base}/conversations?status=all&inbox_id=${inbox.id}`, world.admin.key);
      if (list.body.data.payload.some((c: { additional_attributes: { mail_subject?: string } }) => c.additional_attributes.mail_subject === subject)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    latencies.push(performance.now() - start);
  }

  const before = await stored();
  const burst = 1000;
  const start = performance.now();
  for (let i = 0; i < burst; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, j) => handOver(mail(inbox.email, 1000 + i + j), inbox.email)));
  }
  const handedOver = performance.now() - start;
  while ((await stored()) < before + burst) await new Promise((r) => setTimeout(r, 200));
  const allStored = performance.now() - start;
  const messages = (await db.select({ n: count() }).from(schema.messages).where(eq(schema.messages.inboxId, inbox.id)))[0].n;
  expect(messages).toBe(20 + burst);
  expect(await stored()).toBe(before + burst);

  console.log(
    JSON.stringify({
      baselineGetApiMedianMs: median(baseline),
      handlerToConversationMedianMs: Math.round(median(latencies)),
      handlerToConversationMaxMs: Math.round(Math.max(...latencies)),
      burst,
      burstHandedOverMs: Math.round(handedOver),
      burstAllStoredMs: Math.round(allStored),
      msPerMailInBurst: Math.round((allStored / burst) * 10) / 10,
      messagesInInbox: messages,
    }),
  );
});

it("inbound mail: the consumer's rows per mail", async () => {
  const world = await createWorld("Mail rows bench");
  const inbox = (await post(`${world.base}/inboxes`, world.admin.key, { name: "Mail", channel: { type: "email", email: uniqueEmail("rows") } })).body;
  const shard = await shardOf(world.accountId);
  const RUNS = 9;

  /** One mail through the consumer on a metered connection to the shard (the directory is not counted). */
  async function consume(raw: string) {
    const storageKey = `${world.accountId}/inbound-email/bench/${crypto.randomUUID()}.eml`;
    await env.FILES.put(storageKey, raw);
    const meter = new QueryMeter();
    const started = performance.now();
    await runInboundEmail(jobScope(createDb(meterD1(shard, meter)), env), { kind: "inbound_email", accountId: world.accountId, storageKey, envelopeFrom: "customer@example.org", envelopeTo: inbox.email, receivedAt: Date.now() });
    return { ms: performance.now() - started, roundTrips: meter.roundTrips, rowsRead: meter.rowsRead, rowsWritten: meter.rowsWritten };
  }

  const cases: Record<string, Array<Awaited<ReturnType<typeof consume>>>> = { "new conversation, new contact": [], "answer in a conversation (In-Reply-To)": [], duplicate: [] };
  for (let i = 0; i < RUNS; i++) {
    const first = mail(inbox.email, 5000 + i);
    cases["new conversation, new contact"].push(await consume(first));
    const parent = /Message-ID: <([^>]+)>/.exec(first)![1];
    const answer = mail(inbox.email, 5000 + i, `Re: Bench mail ${5000 + i}`).replace("MIME-Version", `In-Reply-To: <${parent}>\r\nMIME-Version`);
    cases["answer in a conversation (In-Reply-To)"].push(await consume(answer));
    cases.duplicate.push(await consume(answer));
  }
  const lines = ["| mail | round trips | rows read | rows written | ms (median) |", "|---|---|---|---|---|"];
  for (const [name, samples] of Object.entries(cases)) {
    lines.push(`| ${name} | ${median(samples.map((s) => s.roundTrips))} | ${median(samples.map((s) => s.rowsRead))} | ${median(samples.map((s) => s.rowsWritten))} | ${median(samples.map((s) => s.ms)).toFixed(1)} |`);
  }
  console.log(lines.join("\n"));
});
