import { defineConfig } from "vitest/config";

// The project's own scripts (scripts/), run under Node as they are: `npm run setup`'s tests drive it with a
// stand-in for wrangler that answers as the signed-in Cloudflare account would (test/scripts/fake-wrangler.mjs),
// so they reach no network.
export default defineConfig({
  test: {
    include: ["test/scripts/**/*.test.mjs"],
    environment: "node",
    testTimeout: 30_000,
  },
});
