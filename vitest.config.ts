import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testNetwork } from "./test/support/test-network.mjs";

// Tests run inside workerd with the real D1, Durable Object and Queue bindings from wrangler.toml.
// Storage is isolated per test file. Tests never reach the network: every outbound fetch that a test
// did not intercept goes to `testNetwork`, which accepts it (see test/support/test-network.mjs).
export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        // ATTACHMENT_URL_SECRET: a deployed Worker has it as a secret; `npm start` passes one the same way
        bindings: { TEST_MIGRATIONS: await readD1Migrations("./migrations"), ATTACHMENT_URL_SECRET: "test-attachment-url-secret" },
        queueConsumers: { "edgedesk-events": { maxBatchTimeout: 0.05 } },
        outboundService: testNetwork,
      },
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/e2e/**", "test/libsql/**"],
    setupFiles: ["./test/support/apply-migrations.ts"],
  },
}));
