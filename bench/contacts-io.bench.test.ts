/**
 * Contact import and export at 100,000 contacts: a 100,000-row CSV imported through POST /contacts/import
 * (the queue consumer reads it from R2 in chunks), then every contact exported through POST
 * /contacts/export and downloaded from its signed link. Prints the wall times, the import's and the
 * export's records, and what the code bounds per step (rows per chunk, chunks, round trips, segment
 * size): memory is flat because a step holds one chunk of rows (500, at most 256 KiB of records) or one
 * segment of CSV (about 1 MiB), never the file. Prints a markdown table.
 */
import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";
import { CHUNK_ROWS, STEP_ROWS } from "../src/domain/contacts/imports";
import { EXPORT_PAGE, SEGMENT_BYTES } from "../src/domain/contacts/exports";
import { get, post } from "../test/support/http";
import { postForm } from "../test/support/files";
import { createWorld } from "../test/support/world";

const SIZE = 100_000;

async function until(path: string, key: string) {
  for (;;) {
    const res = await get(path, key);
    if (res.body.status === "completed" || res.body.status === "failed") return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it("imports and exports 100,000 contacts", async () => {
  const world = await createWorld("Bench IO");
  const lines = ["name,email,phone_number,identifier,company,city,plan"];
  for (let i = 1; i <= SIZE; i++) {
    lines.push(`Contact ${i},c${i}@bench.test,${i % 3 === 0 ? `+1555${String(i).padStart(7, "0")}` : ""},${i % 5 === 0 ? `id-${i}` : ""},Company ${i % 97},City ${i % 50},${i % 2 ? "gold" : "silver"}`);
  }
  // a hundred bad rows among them
  for (let i = 1; i <= 100; i++) lines[i * 997] = `Bad ${i},not-an-email-${i},,,,,`;
  const csv = `${lines.join("\n")}\n`;
  const form = new FormData();
  form.append("import_file", new File([new TextEncoder().encode(csv)], "contacts.csv"));

  let started = Date.now();
  const upload = await postForm(`${world.base}/contacts/import`, world.admin.key, form);
  expect(upload.status).toBe(200);
  const uploadMs = Date.now() - started;
  const imported = await until(`${world.base}/contacts/imports/${upload.body.id}`, world.admin.key);
  const importMs = Date.now() - started;
  expect(imported).toMatchObject({ status: "completed", total_records: SIZE, refused_records: 100, processed_records: SIZE - 100 });

  started = Date.now();
  const exportStart = await post(`${world.base}/contacts/export`, world.admin.key, { column_names: ["id", "name", "email", "phone_number", "identifier", "company_name", "city"] });
  const exported = await until(`${world.base}/contacts/exports/${exportStart.body.id}`, world.admin.key);
  const exportMs = Date.now() - started;
  expect(exported.exported_records).toBe(SIZE - 100);
  started = Date.now();
  const url = new URL(exported.download_url);
  const download = await exports.default.fetch(new Request(`https://desk.test${url.pathname}${url.search}`));
  let bytes = 0;
  let lineCount = 0;
  const reader = download.body!.getReader();
  let largestChunk = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    largestChunk = Math.max(largestChunk, value.length);
    for (const b of value) if (b === 10) lineCount++;
  }
  const downloadMs = Date.now() - started;
  expect(bytes).toBe(exported.file_size);
  expect(lineCount).toBe(SIZE - 100 + 1);

  const chunks = Math.ceil(SIZE / CHUNK_ROWS);
  const segments = Math.ceil(exported.file_size / SEGMENT_BYTES);
  const steps = Math.ceil(SIZE / STEP_ROWS);
  const pages = Math.ceil(SIZE / EXPORT_PAGE) + 1;
  console.log(
    [
      `\n### Contact import and export, ${SIZE.toLocaleString("en")} contacts (CSV ${(csv.length / 1024 / 1024).toFixed(1)} MiB)\n`,
      "| step | wall time | what one step holds | queue messages | D1 round trips |",
      "|---|---|---|---|---|",
      `| upload (POST /contacts/import) | ${uploadMs} ms | the request's file (the multipart body) | - | 2 (the key, the insert) |`,
      `| import to completed | ${importMs} ms | ${CHUNK_ROWS} rows (≤ 256 KiB of records) | ${steps} | ${steps + 2 * chunks} (1 a step, 2 a chunk of ${CHUNK_ROWS}: ${chunks} chunks) |`,
      `| export to completed | ${exportMs} ms | one segment (~${SEGMENT_BYTES / 1024 / 1024} MiB of CSV) | ${segments} | ${2 * segments + pages} (2 a segment, 1 a page of ${EXPORT_PAGE}: ${pages} pages) |`,
      `| download (streamed) | ${downloadMs} ms | one R2 read chunk (largest ${(largestChunk / 1024).toFixed(0)} KiB) | - | 1 |`,
      `\nimport: ${imported.processed_records} imported, ${imported.refused_records} refused; export: ${exported.exported_records} contacts, ${(exported.file_size / 1024 / 1024).toFixed(1)} MiB in ${segments} segments`,
    ].join("\n"),
  );
});
