import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Benchmarks (`npm run bench:contacts`): same Workers runtime and bindings as the tests, but not part of
// `npm test`. They print their results; bench/README.md records them.
export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: { bindings: { TEST_MIGRATIONS: await readD1Migrations("./migrations") } },
    }),
  ],
  test: {
    include: ["bench/**/*.bench.test.ts"],
    setupFiles: ["./test/support/apply-migrations.ts"],
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
  },
}));
