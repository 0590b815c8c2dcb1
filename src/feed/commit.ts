/**
 * The live account feeds' frames of the changes one request (or one job) commits: each connection that
 * runs the request's batches tells `committed` of the outbox rows a batch returned, the moment the batch
 * has committed (src/db/connect.ts, `onCommit`). Their frames are built from those rows at once, while
 * the request goes on, and `settled()` waits for them to be sent: the request answers only after, so a
 * subscribed socket has its frame no later than the writer has its answer.
 *
 * - A batch that failed returns nothing, so nothing is shown for a change that did not commit.
 * - Each committed row is shown here and nowhere else (the outbox's dispatch to the queue shows
 *   nothing), so a frame is never sent twice; a Worker killed between the commit and the send loses the
 *   frame, never the change or its webhooks, which the outbox still carries.
 * - The frames of one request's batches are built side by side and sent in the order the batches committed.
 */
import type { Database } from "../db/client";
import type { OnCommit } from "../db/connect";
import type { OutboxRow } from "../domain/kernel/outbox";
import { buildFrames, deliverFrames, shownOnFeed } from "./forward";

export class CommitFrames {
  /** the frames sent so far: each batch's wait for the one before, so batches keep their order */
  private sent: Promise<void> = Promise.resolve();

  constructor(private readonly env: Env) {}

  /** A connection's listener: starts building the frames of the batch that just committed. */
  readonly committed: OnCommit = (db: Database, events: OutboxRow[]) => {
    const shown = events.filter(shownOnFeed);
    if (shown.length === 0) return;
    const built = buildFrames(db, this.env, shown);
    const before = this.sent;
    this.sent = (async () => {
      const [frames] = await Promise.all([built, before]);
      await deliverFrames(this.env, frames);
    })();
  };

  /** Resolves once the frames of every batch committed so far (and of any committed meanwhile) are sent. */
  async settled(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.sent;
      await last;
    } while (last !== this.sent);
  }
}
