/**
 * The events queue's consumer. The queue carries these kinds of message:
 * - `event`: an outbox row, handed to every event job (webhook fan-out, which turns it into one
 *   `delivery` message per target, then automation rules, auto-assignment, the out-of-office reply and
 *   the mail of an e-mail conversation's message);
 *   the row is marked consumed once all are done;
 * - `live_event`: an event with no outbox row (typing), carried whole, fanned out to webhooks like `event`;
 * - `delivery`: one target's copy of an event, one attempt per message (src/jobs/deliveries.ts);
 * - `agent_available`: an agent came online, for auto-assignment (src/jobs/auto-assignment.ts);
 * - `inbox_opened`: an inbox's business hours began, for the conversations waiting for it (same file);
 * - `contact_import` / `contact_export`: one step of a contact import or export (src/domain/contacts),
 *   which sends the next step itself;
 * - `campaign_run`: one step of a one-off campaign's run (src/domain/campaigns/runs.ts), which sends the
 *   next step itself;
 * - `bulk_action`: a slice of a bulk action too large for its request (src/jobs/bulk-actions.ts);
 * - `article_view`: a reader opened a help-center article; a batch's views are added up in one write;
 * - `inbound_email`: a mail the `email()` handler kept in R2, to parse and thread (src/jobs/inbound-email.ts);
 * - `outgoing_email`: one attempt at sending an `outgoing_emails` row (src/jobs/outgoing-email.ts); a mail of
 *   no account (`accountId: null`: password resets, e-mail confirmations) is the directory's.
 * Messages of a batch are handled concurrently: one slow receiver does not hold up the others. A
 * message is acked once its step is recorded; a failure of our own (database, queue) retries it.
 */
import type { Database } from "../db/client";
import { connectDirectory, isShard } from "../db/connect";
import { CommitFrames } from "../feed/commit";
import { shardPool } from "../db/shards";
import { SHARD_STATUS } from "../db/shard-status";
import { QueryMeter } from "../db/metering";
import { configureFileLinks } from "../views/attachments";
import { type EventMessage, dispatchPendingEvents, markConsumed } from "../events/dispatch";
import { type LiveEventMessage, liveEventRow } from "../events/live";
import { type DeliveryMessage, sendDeliveryMessages } from "../webhooks/deliveries";
import type { AgentAvailableMessage } from "../events/agent-available";
import type { InboxOpenedMessage } from "../events/inbox-opened";
import { runAutomationForEvent } from "./automation";
import { runAutoAssignmentForAgent, runAutoAssignmentForEvent, runAutoAssignmentForOpenedInbox } from "./auto-assignment";
import { runOutOfOfficeForEvent } from "./out-of-office";
import { runEmailReplyForEvent } from "./email-replies";
import { runQueuedBulkAction } from "./bulk-actions";
import type { BulkActionMessage } from "../domain/kernel/bulk-inputs";
import { attemptDelivery } from "./deliveries";
import type { ArticleViewMessage, CampaignRunMessage, ContactTransferMessage } from "../domain/kernel/ports";
import type { OutboxEventRef } from "../domain/kernel/outbox";
import { runCampaignStep } from "../domain/campaigns/runs";
import { addArticleViews } from "../domain/help-center/public";
import { runContactImportStep } from "../domain/contacts/imports";
import { runContactExportStep } from "../domain/contacts/exports";
import { jobScope } from "./scope";
import type { TransportScope } from "../domain/kernel/scope";
import { fanOut, fanOutLiveEvent } from "./fan-out";
import type { InboundEmailMessage } from "../email/receive";
import { runInboundEmail } from "./inbound-email";
import { type OutgoingEmailMessage, attemptOutgoingEmail } from "./outgoing-email";

export type QueueMessage =
  | EventMessage
  | DeliveryMessage
  | LiveEventMessage
  | AgentAvailableMessage
  | InboxOpenedMessage
  | ContactTransferMessage
  | BulkActionMessage
  | CampaignRunMessage
  | ArticleViewMessage
  | InboundEmailMessage
  | OutgoingEmailMessage;

const backoffAfterFailure = (attempts: number) => Math.min(30 * 2 ** attempts, 60 * 60);

/** What each event goes through, in order; each must tolerate repeats. */
const EVENT_JOBS: Array<(db: Database, env: Env, message: EventMessage) => Promise<void>> = [
  async (db, env, message) => sendDeliveryMessages(env.EVENTS, await fanOut(db, env, message)),
  (db, env, message) => runAutomationForEvent(db, env, message),
  runAutoAssignmentForEvent,
  runOutOfOfficeForEvent,
  runEmailReplyForEvent,
];

/** The account a message's work belongs to: every kind names it. */
const accountOf = (body: QueueMessage): unknown => (body.kind === "live_event" ? body.event?.accountId : (body as { accountId?: unknown }).accountId);

/**
 * Each message runs on its account's shard (docs/shards.md): the batch is grouped by shard, one
 * connection each, and the groups run side by side. A message whose account is gone or being deleted
 * has nothing left to do; one whose account is moving waits for the move to end.
 */
export async function consumeQueue(batch: MessageBatch<QueueMessage>, env: Env) {
  // metered as a request is, so each shard dispatches only when its handlers wrote events
  const meter = new QueryMeter();
  // what the handlers change is shown on the live feeds as each batch commits (src/feed/commit.ts)
  const frames = new CommitFrames(env);
  const directory = connectDirectory(env, { meter }).db;
  const shards = shardPool(env, directory, () => ({ meter, writes: true, onCommit: frames.committed }));
  // payloads carry signed file URLs; outside a request they point at the configured address
  configureFileLinks(env.ATTACHMENT_URL_SECRET, env.FILES_BASE_URL);
  const byShard = new Map<number, Array<Message<QueueMessage>>>();
  const ofDirectory: Array<Message<QueueMessage>> = [];
  for (const message of batch.messages) {
    if (message.body.kind === "outgoing_email" && message.body.accountId === null) {
      ofDirectory.push(message);
      continue;
    }
    const accountId = accountOf(message.body);
    // a message that names no account (queued before messages carried one) is dropped, never run on a guess
    const placement = Number.isInteger(accountId) ? await shards.placementOf(accountId as number, { writes: true }) : null;
    if (!placement || !isShard(env, placement.shard) || placement.status === SHARD_STATUS.deleting || placement.status === SHARD_STATUS.provisioning) {
      // an account gone, going, or not there yet has nothing for the message to do
      message.ack();
    } else if (placement.status === SHARD_STATUS.moving) {
      message.retry({ delaySeconds: MOVING_RETRY_SECONDS });
    } else {
      byShard.set(placement.shard, [...(byShard.get(placement.shard) ?? []), message]);
    }
  }
  await Promise.all([
    ...[...byShard].map(([shard, messages]) => consumeOnShard(jobScope(shards.open(shard), env, directory), batch.queue, messages, meter)),
    ...(ofDirectory.length > 0 ? [consumeOnShard(jobScope(directory, env, directory), batch.queue, ofDirectory, meter)] : []),
  ]);
  await frames.settled();
}

/** How long a message of a moving account waits before it is tried again. */
const MOVING_RETRY_SECONDS = 30;

async function consumeOnShard(scope: TransportScope, queue: string, messages: Array<Message<QueueMessage>>, meter: QueryMeter) {
  const { db, env } = scope;
  const eventsBefore = meter.eventsWritten;
  const handledEvents: OutboxEventRef[] = [];
  const views = messages.filter((m) => m.body.kind === "article_view");
  await Promise.all([
    countViews(scope, queue, views as Array<Message<ArticleViewMessage>>),
    ...messages.filter((m) => m.body.kind !== "article_view").map(async (message) => {
      const body = message.body;
      try {
        if (body.kind === "event") {
          for (const job of EVENT_JOBS) await job(db, env, body);
          handledEvents.push({ accountId: body.accountId, eventId: body.eventId });
        } else if (body.kind === "live_event") {
          await sendDeliveryMessages(env.EVENTS, await fanOutLiveEvent(db, env, liveEventRow(body)));
        } else if (body.kind === "delivery") {
          const step = await attemptDelivery(db, env, body);
          // A new message, not message.retry(): the queue's retry count is for our own failures.
          if (!step.done) await env.EVENTS.send(step.next, { delaySeconds: step.delaySeconds });
        } else if (body.kind === "agent_available") {
          await runAutoAssignmentForAgent(db, env, body);
        } else if (body.kind === "inbox_opened") {
          await runAutoAssignmentForOpenedInbox(db, env, body);
        } else if (body.kind === "contact_import") {
          await runContactImportStep(scope, body);
        } else if (body.kind === "contact_export") {
          await runContactExportStep(scope, body);
        } else if (body.kind === "campaign_run") {
          await runCampaignStep(scope, body);
        } else if (body.kind === "bulk_action") {
          await runQueuedBulkAction(db, env, body);
        } else if (body.kind === "inbound_email") {
          await runInboundEmail(scope, body);
        } else if (body.kind === "outgoing_email") {
          const step = await attemptOutgoingEmail(scope, body);
          // as for deliveries: a new message, the queue's own retries being for our own failures
          if (!step.done) await env.EVENTS.send(step.next, { delaySeconds: step.delaySeconds });
        }
        message.ack(); // (an unknown kind is acked too: nothing can ever handle it)
      } catch (error) {
        console.error(JSON.stringify({ level: "error", queue, message: body, error: String(error) }));
        message.retry({ delaySeconds: backoffAfterFailure(message.attempts) });
      }
    }),
  ]);
  await markConsumed(db, handledEvents);
  // What the batch changed (automation's actions, auto-assignments, bulk slices, imported contacts,
  // campaign conversations) goes on to webhooks now, not at the cron's next minute.
  if (meter.eventsWritten > eventsBefore) await dispatchPendingEvents(db, env.EVENTS);
}

/** The batch's article views in one write; all acked together, or all retried. */
async function countViews(scope: TransportScope, queue: string, messages: Array<Message<ArticleViewMessage>>) {
  if (messages.length === 0) return;
  try {
    await addArticleViews(scope, messages.map((m) => ({ accountId: m.body.accountId, articleId: m.body.articleId })));
    for (const message of messages) message.ack();
  } catch (error) {
    console.error(JSON.stringify({ level: "error", queue, articleViews: messages.length, error: String(error) }));
    for (const message of messages) message.retry({ delaySeconds: backoffAfterFailure(message.attempts) });
  }
}
