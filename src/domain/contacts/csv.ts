/**
 * CSV (RFC 4180) read from a byte stream one record at a time (written: src/domain/kernel/csv-fields.ts).
 *
 * The reader works on bytes, not text: a record's end (a line feed outside quotes) is found among the
 * bytes, so every record comes with the exact byte offsets where it starts and ends in the file, and an
 * import can resume from an offset in a later queue message (an R2 range read). Quotes, commas and line
 * ends are ASCII, which never occurs inside a UTF-8 multi-byte character, so the scan is safe for any
 * UTF-8 text; each record is decoded on its own. Only the record being read is held in memory.
 */

export type CsvRecord = {
  fields: string[];
  /** byte offsets in the file: where the record starts, and just after its line end */
  start: number;
  end: number;
  /** the file ended inside a quoted field */
  unterminated: boolean;
};

export type CsvRead = CsvRecord | { tooLong: true; start: number } | null;

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const decoder = new TextDecoder("utf-8");

export class CsvRecordReader {
  private buffer = new Uint8Array(0);
  /** where the next record starts, within `buffer` */
  private at = 0;
  /** how far the scan for the current record's end has gone, and whether it is inside quotes there */
  private scanned = 0;
  private quoted = false;
  private done = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  /** the file offset of `buffer[0]` */
  private base: number;

  constructor(
    stream: ReadableStream<Uint8Array>,
    startOffset: number,
    private readonly maxRecordBytes: number,
  ) {
    this.reader = stream.getReader();
    this.base = startOffset;
  }

  /** The next record, null at the end of the file, or `tooLong` when a record outgrows the limit. */
  async next(): Promise<CsvRead> {
    for (;;) {
      const end = this.findRecordEnd();
      if (end !== null) return this.take(end, false);
      if (this.scanned - this.at > this.maxRecordBytes) return { tooLong: true, start: this.base + this.at };
      if (this.done) {
        if (this.at >= this.buffer.length) return null;
        // the last record has no line end
        return this.take(this.buffer.length, this.quoted);
      }
      await this.fill();
    }
  }

  /** Stops reading the stream (the rest of the file is never downloaded). */
  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private findRecordEnd(): number | null {
    const b = this.buffer;
    for (let i = this.scanned; i < b.length; i++) {
      if (b[i] === QUOTE) this.quoted = !this.quoted;
      else if (b[i] === LF && !this.quoted) {
        this.scanned = i + 1;
        return i + 1;
      }
    }
    this.scanned = b.length;
    return null;
  }

  private take(end: number, unterminated: boolean): CsvRecord {
    let stop = end;
    if (stop > this.at && this.buffer[stop - 1] === LF) stop--;
    if (stop > this.at && this.buffer[stop - 1] === CR) stop--;
    const fields = parseFields(decoder.decode(this.buffer.subarray(this.at, stop)));
    const record = { fields, start: this.base + this.at, end: this.base + end, unterminated };
    this.at = end;
    this.scanned = end;
    this.quoted = false;
    return record;
  }

  private async fill(): Promise<void> {
    const { done, value } = await this.reader.read();
    if (done || !value) {
      this.done = true;
      return;
    }
    // keep only the unread part of the buffer: memory holds the current record and one stream chunk
    const rest = this.buffer.subarray(this.at);
    const next = new Uint8Array(rest.length + value.length);
    next.set(rest);
    next.set(value, rest.length);
    this.base += this.at;
    this.scanned -= this.at;
    this.at = 0;
    this.buffer = next;
  }
}

/** The fields of one record's text: commas outside quotes separate, `""` inside quotes is a quote. */
export function parseFields(text: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      fields.push(field);
      field = "";
    } else field += ch;
  }
  fields.push(field);
  return fields;
}
