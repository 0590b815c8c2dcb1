import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testNetwork } from "./test/support/test-network.mjs";
import { shardedConfig } from "./scripts/lib/shards.mjs";

/**
 * The tests' pool: the directory and three shards (README "Shards"), so every file's accounts land on
 * several shards, placed as in production (the least full first).
 */
export const TEST_SHARDS = 3;

// Tests run inside workerd with the real D1, Durable Object and Queue bindings from wrangler.toml.
// Storage is isolated per test file. Tests never reach the network: every outbound fetch that a test
// did not intercept goes to `testNetwork`, which accepts it (see test/support/test-network.mjs).
//
// Two projects differ only in their rate limits: the suites send hundreds of requests with one key, so
// they run with limits no test reaches; test/limits/ runs with tight ones, to see 429s and recovery.
export const GENEROUS = {
  RATE_LIMIT_ACCOUNT_API: "1000000/60",
  RATE_LIMIT_PLATFORM_API: "1000000/60",
  RATE_LIMIT_PUBLIC_API: "1000000/60",
  RATE_LIMIT_PUBLIC_CREATE: "1000000/60",
  RATE_LIMIT_PUBLIC_UPDATE: "1000000/60",
  RATE_LIMIT_WIDGET_PAGE: "1000000/60",
  RATE_LIMIT_SIGN_IN_FAILURES: "1000000/60",
  RATE_LIMIT_TRANSCRIPT_MAIL: "1000000/60",
  RATE_LIMIT_SECRET_FAILURES: "1000000/60",
};
export const TIGHT = {
  RATE_LIMIT_ACCOUNT_API: "5/2",
  RATE_LIMIT_PLATFORM_API: "5/2",
  RATE_LIMIT_PUBLIC_API: "8/2",
  RATE_LIMIT_PUBLIC_CREATE: "3/3",
  RATE_LIMIT_PUBLIC_UPDATE: "3/3",
  RATE_LIMIT_WIDGET_PAGE: "3/3",
  RATE_LIMIT_SIGN_IN_FAILURES: "3/3",
  RATE_LIMIT_TRANSCRIPT_MAIL: "3/5",
  RATE_LIMIT_SECRET_FAILURES: "3/3",
};

/** The push relay the tests configure (README "Push notifications"); the secret is base64, as it must be. */
export const PUSH_RELAY_TEST_URL = "https://push-relay.test/send";
export const PUSH_RELAY_TEST_SECRET = "dGVzdC1wdXNoLXJlbGF5LXNlY3JldC0zMmJ5dGVzIQ==";

// Every test file gets a fresh workerd and loads the Worker's modules anew, one module fetch at a time:
// that load, not the migrations (about 0.15 s), is most of a file's setup time. Pre-bundling the
// libraries (Vite's dependency optimizer) turns their hundreds of modules into a few. A library's
// subpaths are listed with it, so the app and the tests share one copy of each.
const OPTIMIZED_DEPS = [
  "zod",
  "drizzle-orm",
  "drizzle-orm/batch",
  "drizzle-orm/d1",
  "drizzle-orm/libsql/web",
  "@libsql/client/web",
  "drizzle-orm/sqlite-core",
  "hono",
  "hono/body-limit",
  "hono/cors",
  "hono/factory",
  "hono/http-exception",
  "hono/request-id",
  "hono/route",
  "hono/secure-headers",
  "hono/utils/http-status",
  "hono-openapi",
  "@hono/zod-validator",
  "@scalar/hono-api-reference",
  "@noble/hashes/hmac.js",
  "@noble/hashes/sha2.js",
  "@cfworker/json-schema",
  "standardwebhooks",
];

/**
 * Test files that need a workerd of their own, each costing a load of the whole Worker (README "The two
 * commands"). They fake the clock for other files' work too, compare a fingerprint of every table (the
 * hostile-input walker: another file's queued work would change it), count rows of every account, build
 * tenants with fixed names (test/security/tenant.ts), answer a URL all files send to (the push relay),
 * or break their database. Intercepting outbound fetches alone is not a reason: receivers have URLs of
 * their own (test/support/receivers.ts).
 */
const ISOLATED = [
  "test/realtime/typing.test.ts", // counts every outbox row, and fakes the clock
  "test/realtime/conversation-room.test.ts", // rooms of made-up conversation ids, and fakes the clock
  "test/notifications/push.test.ts", // the push relay's one URL: other files' pushes would reach its receiver
  "test/reports/**/*.test.ts", // fake the clock for the whole file
  "test/http/hostile-input*.test.ts",
  "test/security/tenancy-*.test.ts",
  "test/api/schema-missing.test.ts", // drops a table
  "test/shards/placement.test.ts", // counts every account of the directory
];

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  const project = (name: string, include: string[], exclude: string[], limits: Record<string, string>, testTimeout: number, isolate = true) => ({
    plugins: [
      cloudflareTest({
        wrangler: { configPath: shardedConfig(TEST_SHARDS) },
        miniflare: {
          // ATTACHMENT_URL_SECRET: a deployed Worker has it as a secret; `npm start` passes one the same way.
          // PUSH_RELAY_URL: a made-up host that test/notifications/push.test.ts answers (test/support/receivers.ts,
          // in a workerd of its own); in other files pushes to it go to the test network, which accepts them.
          bindings: {
            TEST_MIGRATIONS: migrations,
            ATTACHMENT_URL_SECRET: "test-attachment-url-secret",
            // signs the website widget's visitor tokens (a deployment secret; `npm start` keeps one locally)
            WIDGET_TOKEN_SECRET: "test-widget-token-secret",
            PUSH_RELAY_URL: PUSH_RELAY_TEST_URL,
            PUSH_RELAY_SECRET: PUSH_RELAY_TEST_SECRET,
            // outgoing mail is kept in R2 under outgoing-mail/ (src/email/senders.ts), never sent
            MAIL_TRANSPORT: "sink",
            ...limits,
          },
          queueConsumers: { "edgedesk-events": { maxBatchTimeout: 0.05 } },
          outboundService: testNetwork,
        },
      }),
    ],
    test: {
      name,
      include,
      exclude,
      setupFiles: ["./test/support/main-module.ts", "./test/support/apply-migrations.ts"],
      testTimeout,
      isolate,
      // vitest's default is cores - 1, one file at a time here; a file spends much of its time waiting
      // on workerd (loading the Worker's modules one fetch at a time before its first test), so three at
      // once keep the two cores busy
      maxWorkers: 3,
      deps: { optimizer: { ssr: { enabled: true, include: OPTIMIZED_DEPS } } },
    },
  });
  return {
    test: {
      projects: [
        // two files share two cores, and a file's heaviest tests (a whole tenant built, a thousand rows
        // seeded) take several seconds on this machine when the other file is busy too: vitest's 5 s
        // default would fail them for the machine's load, not for anything they check
        project("workers", ISOLATED, [], GENEROUS, 30_000),
        // the rest share a workerd per pool worker, one file after another: the Worker loads once, not
        // once per file (most of a file's setup), and each file's accounts are its own in the shared database
        project("workers-shared", ["test/**/*.test.ts"], [...ISOLATED, "test/e2e/**", "test/libsql/**", "test/limits/**"], GENEROUS, 30_000, false),
        // its tests wait out windows of a few seconds
        project("limits", ["test/limits/**/*.test.ts"], [], TIGHT, 20_000),
      ],
    },
  };
});
