import type { LibsqlClient } from "./client";

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

class MeteredStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly meter: QueryMeter,
    readonly writesEvents: boolean,
  ) {}

  bind(...values: unknown[]) {
    return new MeteredStatement(this.inner.bind(...values), this.meter, this.writesEvents);
  }

  first(column?: string) {
    return this.meter.track(() => (column === undefined ? this.inner.first() : this.inner.first(column)), null);
  }

  all() {
    return this.counted(this.meter.track(() => this.inner.all(), (r) => [r.meta]));
  }

  run() {
    return this.counted(this.meter.track(() => this.inner.run(), (r) => [r.meta]));
  }

  private async counted<T>(result: Promise<T>): Promise<T> {
    const value = await result;
    if (this.writesEvents) this.meter.eventsWritten += 1;
    return value;
  }

  raw(options?: { columnNames?: boolean }) {
    return this.meter.track(() => this.inner.raw(options as { columnNames: true }), null);
  }
}

/**
 * A D1 database or session whose every call is counted by `meter`. drizzle's D1 driver calls only
 * `prepare` and `batch`; a session adds `getBookmark`, a local read of what the last answer carried.
 */
export function meterD1<T extends D1Database | D1DatabaseSession>(d1: T, meter: QueryMeter): T {
  const metered = {
    prepare: (query: string) => new MeteredStatement(d1.prepare(query), meter, OUTBOX_INSERT.test(query)),
    batch: async (statements: MeteredStatement[]) => {
      const results = await meter.track(
        () => d1.batch(statements.map((s) => (s instanceof MeteredStatement ? s.inner : s))),
        (results) => results.map((r) => r.meta),
      );
      // a batch is atomic: once it has returned, its outbox rows are committed
      meter.eventsWritten += statements.filter((s) => s instanceof MeteredStatement && s.writesEvents).length;
      return results;
    },
    getBookmark: () => ("getBookmark" in d1 ? d1.getBookmark() : null),
  };
  return metered as unknown as T;
}

type LibsqlStatement = string | { sql: string };
const sqlOf = (statement: LibsqlStatement) => (typeof statement === "string" ? statement : statement.sql);

/**
 * A libSQL client whose calls are counted by `meter`: round trips and time. libSQL's results carry no
 * rows-read figures, so the meter leaves those out of Server-Timing rather than report zero.
 */
export function meterLibsql(client: LibsqlClient, meter: QueryMeter): LibsqlClient {
  meter.rowsReported = false;
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "batch") {
        return async (statements: LibsqlStatement[], mode?: Parameters<LibsqlClient["batch"]>[1]) => {
          const results = await meter.track(() => target.batch(statements as Parameters<LibsqlClient["batch"]>[0], mode), () => []);
          meter.eventsWritten += statements.filter((s) => OUTBOX_INSERT.test(sqlOf(s))).length;
          return results;
        };
      }
      if (property === "execute") {
        return async (statement: Parameters<LibsqlClient["execute"]>[0]) => {
          const result = await meter.track(() => target.execute(statement), () => []);
          if (OUTBOX_INSERT.test(sqlOf(statement as LibsqlStatement))) meter.eventsWritten += 1;
          return result;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
