// `npm run bench:shards`: bench/shards.bench.test.ts over pools of 1, 16 and 64 shards in turn (docs/shards.md
// "Shards"; bench/README.md "Shards"). Each run is its own vitest process with BENCH_SHARDS set, which
// vitest.bench.config.ts reads; its figures are the lines starting with "shards-bench", shown as they
// come (seeding progress among them) and again together at the end. Writes nothing into the repository
// but the generated wrangler.shards-<n>.toml (ignored by git).
// `node bench/shards.mjs 16` runs one pool size; BENCH_ACCOUNTS (default 10,000) sets the accounts.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1, 16, 64];
const figures = [];
let failed = false;
for (const shards of sizes) {
  console.log(`\n== ${shards} shard(s) ==`);
  const started = Date.now();
  const child = spawn("npx", ["vitest", "run", "--config", "vitest.bench.config.ts", "bench/shards.bench.test.ts"], {
    env: { ...process.env, BENCH_SHARDS: String(shards) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const tail = [];
  createInterface({ input: child.stdout }).on("line", (raw) => {
    // vitest may colour its output: the figure is what follows "shards-bench" on the line
    const at = raw.indexOf("shards-bench |");
    const line = at < 0 ? raw : raw.slice(at);
    tail.push(line);
    if (tail.length > 40) tail.shift();
    if (at < 0) return;
    console.log(line);
    if (!/ seeded | zipf: /.test(line)) figures.push(line);
  });
  const status = await new Promise((resolve) => child.on("close", resolve));
  console.log(`== ${shards} shard(s): ${status === 0 ? "passed" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(0)} s ==`);
  if (status !== 0) {
    failed = true;
    console.log(tail.join("\n"));
  }
}
console.log("\n== figures ==");
for (const line of figures) console.log(line);
process.exitCode = failed ? 1 : 0;
