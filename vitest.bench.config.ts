import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { GENEROUS, TEST_SHARDS } from "./vitest.config";
import { shardedConfig } from "./scripts/lib/shards.mjs";

// Benchmarks run like the tests (workerd, real D1) but only with `npm run bench:*`, never in `npm test`.
// BENCH_SHARDS sets the pool's size (bench/shards.mjs runs 1, 16 and 64); BENCH_ACCOUNTS how many accounts
// bench/shards.bench.test.ts seeds (10,000 unless given).
const shards = Number(process.env.BENCH_SHARDS ?? TEST_SHARDS);
// BENCH_ZIPF_ACCOUNTS, BENCH_SWEEP_SECONDS and BENCH_SWEEP_EVERY set its Zipf phase (bench/README.md "Shards"); BENCH_MOVE_MESSAGES
// the size of the account bench/move.bench.test.ts moves.
const benchVars = Object.fromEntries(
  ["BENCH_ACCOUNTS", "BENCH_ZIPF_ACCOUNTS", "BENCH_SWEEP_EVERY", "BENCH_SWEEP_SECONDS", "BENCH_MOVE_MESSAGES"].filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]!]),
);
export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: shardedConfig(shards) },
      // the benches send thousands of requests with one key: rate limits no bench reaches
      // ATTACHMENT_URL_SECRET: signed file URLs (the contact export's download), as the tests have it
      // PLACEMENT_SIZE_STEP_BYTES: 64 MiB is 1/160 of a D1 database; the bench's shards hold a few MB, so
      // its placement counts size in steps scaled down alike (BENCH_SIZE_STEP to try another)
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations("./migrations"),
          ATTACHMENT_URL_SECRET: "bench-attachment-url-secret",
          PLACEMENT_SIZE_STEP_BYTES: process.env.BENCH_SIZE_STEP ?? "16384",
          ...benchVars,
          ...GENEROUS,
        },
      },
    }),
  ],
  test: {
    include: ["bench/**/*.bench.test.ts"],
    setupFiles: ["./test/support/apply-migrations.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
}));
