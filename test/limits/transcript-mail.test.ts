/**
 * Transcript mail goes to addresses a user types, outside the account: each account has an allowance of
 * transcript recipients per window (`transcript_mail`), whichever way the mail is asked for (the route,
 * a macro, an automation rule), and a refused transcript records no mail. This project runs with the
 * TIGHT limits of vitest.config.ts: 3 recipients per 5 s per account, the account API 5 requests per 2 s
 * per key (the waits below keep clear of the latter).
 */
import { describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { createContact, createInbox } from "../support/fixtures";
import { post } from "../support/http";
import { createWorld } from "../support/world";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const accountWindow = () => sleep(2_100);

const transcripts = async (accountId: number) =>
  (await (await shardOf(accountId)).prepare("SELECT count(*) AS n FROM outgoing_emails WHERE account_id = ? AND kind = 'transcript'").bind(accountId).first<{ n: number }>())!.n;

async function conversationIn(world: Awaited<ReturnType<typeof createWorld>>) {
  const inbox = await createInbox(world.accountId);
  const contact = await createContact(world.accountId, { name: "Customer" });
  const res = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox, contact_id: contact });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

describe("the transcript mail limit", () => {
  it("refuses the route's transcript once the account's recipients are spent, recording no mail", async () => {
    const world = await createWorld("Transcript limit");
    const id = await conversationIn(world);
    await accountWindow();
    const send = (email: string) => post(`${world.base}/conversations/${id}/transcript`, world.admin.key, { email });
    for (const email of ["a@example.com", "b@example.com", "c@example.com"]) expect((await send(email)).status).toBe(200);
    const refused = await send("d@example.com");
    expect(refused.status).toBe(429);
    expect(refused.body.errors).toEqual([{ field: "", message: expect.stringContaining("transcript_mail"), code: "rate_limited" }]);
    expect(await transcripts(world.accountId)).toBe(3);
  });

  it("counts every recipient of a macro's transcript, and reports the one over the allowance as a failure", async () => {
    const world = await createWorld("Transcript macro");
    const macro = await post(`${world.base}/macros`, world.admin.key, {
      name: "Send transcripts",
      visibility: "global",
      actions: [{ action_name: "send_email_transcript", action_params: ["one@example.com, two@example.com"] }],
    });
    expect(macro.status).toBe(200);
    const first = await conversationIn(world);
    const second = await conversationIn(world);
    await accountWindow();
    const run = await post(`${world.base}/macros/${macro.body.payload.id}/execute`, world.admin.key, { conversation_ids: [first, second] });
    expect(run.status).toBe(200);
    // two recipients fit the allowance of three; the next two do not
    expect(run.body.payload.failures).toEqual([{ conversation_id: second, action_name: "send_email_transcript", message: expect.stringContaining("transcript_mail") }]);
    expect(await transcripts(world.accountId)).toBe(1);
  });
});
