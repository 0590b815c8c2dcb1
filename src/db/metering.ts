import type { LibsqlClient, schema } from "./client";

/**
 * Counts what each request costs the database: round trips, time spent waiting on it, and the rows read
 * and written as D1's result meta reports them. D1 reports rows only for `all()`, `run()` and `batch()`;
 * `raw()` and `first()` (which drizzle's typed selects use outside a batch) carry no meta, so the house
 * rule is to read through `db.batch`, and such calls are counted as unmetered so benchmarks notice them.
 */
export class QueryMeter {
  roundTrips = 0;
  durationMs = 0;
  rowsRead = 0;
  rowsWritten = 0;
  unmetered = 0;
  /** false on libSQL, whose results carry no rows-read and rows-written figures. */
  rowsReported = true;
  /** Outbox rows written by committed batches: after-response dispatch runs only when there are some. */
  eventsWritten = 0;

  async track<T>(call: () => Promise<T>, metaOf: ((result: T) => D1Meta[]) | null): Promise<T> {
    const started = performance.now();
    try {
      const result = await call();
      if (metaOf) {
        for (const meta of metaOf(result)) {
          this.rowsRead += meta.rows_read ?? 0;
          this.rowsWritten += meta.rows_written ?? 0;
        }
      } else {
        this.unmetered += 1;
      }
      return result;
    } finally {
      this.roundTrips += 1;
      this.durationMs += performance.now() - started;
    }
  }

  /** The value of the `Server-Timing` header. */
  serverTiming(): string {
    const metrics = [`db;dur=${this.durationMs.toFixed(1)}`, `db-round-trips;desc="${this.roundTrips}"`];
    if (this.rowsReported) metrics.push(`db-rows-read;desc="${this.rowsRead}"`, `db-rows-written;desc="${this.rowsWritten}"`);
    if (this.unmetered) metrics.push(`db-unmetered;desc="${this.unmetered}"`);
    return metrics.join(", ");
  }
}

/** The outbox insert as drizzle writes it; recognised so that the meter can tell when events were written. */
const OUTBOX_INSERT = /^\s*insert\s+into\s+"event_outbox"/i;

/** An outbox row as a committed batch returned it (the outbox insert returns its row). */
export type CommittedEvent = typeof schema.eventOutbox.$inferSelect;

/**
 * Told of the outbox rows of each batch that has committed, the moment it has, before the batch's caller
 * goes on: the live feeds show a change from here (src/feed/commit.ts), so a batch that failed shows
 * nothing and no later read of the outbox is needed. It must not throw, and should not wait.
 */
export type CommitListener = (events: CommittedEvent[]) => void;

/** A returned outbox row as the driver answers it (column names, JSON as text), as drizzle would read it. */
function committedEvent(row: Record<string, unknown>): CommittedEvent | null {
  if (typeof row.id !== "number" || typeof row.event_name !== "string") return null;
  let data: CommittedEvent["data"] = {};
  try {
    data = typeof row.data === "string" ? JSON.parse(row.data) : ((row.data as CommittedEvent["data"]) ?? {});
  } catch {
    // stored by the insert itself, always JSON; a row whose data cannot be read is shown without it
  }
  const optional = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: row.id,
    accountId: Number(row.account_id),
    eventName: row.event_name,
    subjectType: String(row.subject_type),
    subjectId: Number(row.subject_id),
    data,
    causedByAutomation: Boolean(row.caused_by_automation),
    createdAt: Number(row.created_at),
    dispatchedAt: optional(row.dispatched_at),
    consumedAt: optional(row.consumed_at),
  };
}

/** The committed outbox rows among the rows a batch's outbox inserts returned. */
function committedEvents(returned: Array<Array<Record<string, unknown>> | undefined>): CommittedEvent[] {
  return returned.flatMap((rows) => (rows ?? []).map(committedEvent).filter((event): event is CommittedEvent => event !== null));
}

/** Statements that change rows: the ones a rider may join (see `FirstWriteRider`). */
const WRITE = /^\s*(insert|update|delete|replace)\b/i;

/**
 * Statements that must commit together with the request's change, or not at all: the Idempotency-Key
 * record is one (src/http/idempotency). Middleware attaches them; the metered database appends them to
 * the first batch of the request that writes, after the domain's own statements, and hands the domain
 * only its own results, so typed batch results never shift. D1 runs a batch atomically, so once that
 * batch has returned the riders are committed with the change, and if it fails they are rolled back with
 * it (and wait for the next write batch, if the caller tries again).
 *
 * Why the first write batch: the house rule is one batch per change, so the first batch that writes
 * during a handler is the change. Reads (batches of selects) never carry riders.
 *
 * Riders are D1 statements and only `meterD1` carries them: on libSQL (src/db/connect.ts) there is no
 * rider, and `idempotent()` lets requests through without keeping their keys.
 */
export class FirstWriteRider {
  private pending: D1PreparedStatement[] = [];
  /** whether attached statements have been committed by a batch */
  committed = false;

  attach(statement: D1PreparedStatement) {
    this.pending.push(statement);
  }

  /** Drops what has not ridden yet (the request is over: later writes, e.g. the outbox dispatch, are not its change). */
  detach() {
    this.pending = [];
  }

  take(): D1PreparedStatement[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  putBack(statements: D1PreparedStatement[]) {
    this.pending = [...statements, ...this.pending];
  }

  waiting() {
    return this.pending.length > 0;
  }
}

class MeteredStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly meter: QueryMeter,
    readonly writesEvents: boolean,
    readonly writes: boolean,
    private readonly batchWith: BatchRunner,
  ) {}

  bind(...values: unknown[]) {
    return new MeteredStatement(this.inner.bind(...values), this.meter, this.writesEvents, this.writes, this.batchWith);
  }

  /**
   * A write outside a batch while riders wait, or an outbox insert someone listens for: run it as a batch
   * of one, so that the riders can join it and its returned row is read by name.
   */
  private get runsAlone() {
    return this.writes && (this.batchWith.ridersWaiting() || (this.writesEvents && this.batchWith.listening));
  }

  private alone() {
    return this.batchWith([this]).then(([result]) => result as D1Result<Record<string, unknown>>);
  }

  first(column?: string) {
    if (this.runsAlone) {
      return this.alone().then((r) => {
        const row = r.results[0] ?? null;
        return column === undefined || row === null ? row : row[column];
      });
    }
    return this.meter.track(() => (column === undefined ? this.inner.first() : this.inner.first(column)), null);
  }

  all() {
    if (this.runsAlone) return this.alone();
    return this.counted(this.meter.track(() => this.inner.all(), (r) => [r.meta]));
  }

  run() {
    if (this.runsAlone) return this.alone();
    return this.counted(this.meter.track(() => this.inner.run(), (r) => [r.meta]));
  }

  private async counted<T>(result: Promise<T>): Promise<T> {
    const value = await result;
    if (this.writesEvents) this.meter.eventsWritten += 1;
    return value;
  }

  raw(options?: { columnNames?: boolean }) {
    if (this.runsAlone) {
      // a batch answers rows as objects; a write's RETURNING names each column once, so its values
      // in key order are the raw row
      return this.alone().then((r) => {
        const rows = r.results.map((row) => Object.values(row));
        return options?.columnNames ? [Object.keys(r.results[0] ?? {}), ...rows] : rows;
      });
    }
    return this.meter.track(() => this.inner.raw(options as { columnNames: true }), null);
  }
}

type BatchRunner = ((statements: MeteredStatement[]) => Promise<D1Result[]>) & { ridersWaiting: () => boolean; listening: boolean };

/**
 * A D1 database or session whose every call is counted by `meter`; `rider` (optional) holds statements
 * that join the first batch that writes; `onCommit` (optional) hears of each committed batch's outbox
 * rows. drizzle's D1 driver calls only `prepare` and `batch`; a session adds `getBookmark`, a local read
 * of what the last answer carried.
 */
export function meterD1<T extends D1Database | D1DatabaseSession>(d1: T, meter: QueryMeter, rider?: FirstWriteRider, onCommit?: CommitListener): T {
  const runBatch = async (statements: MeteredStatement[]) => {
    const riders = rider && statements.some((s) => s instanceof MeteredStatement && s.writes) ? rider.take() : [];
    const inner = statements.map((s) => (s instanceof MeteredStatement ? s.inner : (s as D1PreparedStatement)));
    const all = [...inner, ...riders.map((s) => (s instanceof MeteredStatement ? s.inner : s))];
    let results: D1Result[];
    try {
      results = await meter.track(
        () => d1.batch(all),
        (results) => results.map((r) => r.meta),
      );
    } catch (error) {
      if (riders.length) rider!.putBack(riders);
      throw error;
    }
    if (riders.length) rider!.committed = true;
    // a batch is atomic: once it has returned, its outbox rows are committed
    const outbox = statements.flatMap((s, i) => (s instanceof MeteredStatement && s.writesEvents ? [i] : []));
    meter.eventsWritten += outbox.length;
    if (onCommit && outbox.length > 0) {
      const returned = outbox.map((i) => results[i]?.results as Array<Record<string, unknown>> | undefined);
      // an outbox insert that wrote rows without returning them would keep them off the live feeds
      if (outbox.some((i, n) => !returned[n]?.length && (results[i]?.meta?.changes ?? 0) > 0)) {
        console.error(JSON.stringify({ level: "error", outbox: "an outbox insert returned no rows: its events are not shown live (add .returning())" }));
      }
      onCommit(committedEvents(returned));
    }
    // the caller sees the results of its own statements only
    return results.slice(0, statements.length);
  };
  const batchWith: BatchRunner = Object.assign(runBatch, { ridersWaiting: () => rider?.waiting() ?? false, listening: onCommit !== undefined });
  const metered = {
    prepare: (query: string) => new MeteredStatement(d1.prepare(query), meter, OUTBOX_INSERT.test(query), WRITE.test(query), batchWith),
    batch: runBatch,
    getBookmark: () => ("getBookmark" in d1 ? d1.getBookmark() : null),
  };
  return metered as unknown as T;
}

type LibsqlStatement = string | { sql: string };
const sqlOf = (statement: LibsqlStatement) => (typeof statement === "string" ? statement : statement.sql);

/**
 * A libSQL client whose calls are counted by `meter`: round trips and time, and whose committed outbox
 * rows `onCommit` hears of. libSQL's results carry no rows-read figures, so the meter leaves those out
 * of Server-Timing rather than report zero.
 */
export function meterLibsql(client: LibsqlClient, meter: QueryMeter, onCommit?: CommitListener): LibsqlClient {
  meter.rowsReported = false;
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "batch") {
        return async (statements: LibsqlStatement[], mode?: Parameters<LibsqlClient["batch"]>[1]) => {
          const results = await meter.track(() => target.batch(statements as Parameters<LibsqlClient["batch"]>[0], mode), () => []);
          const outbox = statements.flatMap((s, i) => (OUTBOX_INSERT.test(sqlOf(s)) ? [i] : []));
          meter.eventsWritten += outbox.length;
          if (onCommit && outbox.length > 0) onCommit(committedEvents(outbox.map((i) => results[i]?.rows as unknown as Array<Record<string, unknown>>)));
          return results;
        };
      }
      if (property === "execute") {
        return async (statement: Parameters<LibsqlClient["execute"]>[0]) => {
          const result = await meter.track(() => target.execute(statement), () => []);
          if (OUTBOX_INSERT.test(sqlOf(statement as LibsqlStatement))) {
            meter.eventsWritten += 1;
            onCommit?.(committedEvents([result.rows as unknown as Array<Record<string, unknown>>]));
          }
          return result;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
