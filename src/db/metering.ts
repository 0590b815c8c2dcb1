/**
 * Counts what each request costs the database: round trips, time spent waiting on D1, and the rows read
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
    const metrics = [
      `db;dur=${this.durationMs.toFixed(1)}`,
      `db-round-trips;desc="${this.roundTrips}"`,
      `db-rows-read;desc="${this.rowsRead}"`,
      `db-rows-written;desc="${this.rowsWritten}"`,
    ];
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

/** A D1Database whose every call is counted by `meter`. */
export function meterD1(d1: D1Database, meter: QueryMeter): D1Database {
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
    exec: (query: string) => meter.track(() => d1.exec(query), null),
    withSession: () => {
      throw new Error("D1 sessions are not used by edgedesk");
    },
    dump: () => d1.dump(),
  };
  return metered as unknown as D1Database;
}
