import { defineConfig } from "vitest/config";

// The libSQL proof: a representative set of domain functions (queries and batches) run under Node against
// an embedded libSQL file database with the same migrations D1 gets. Not the HTTP suite: that runs in
// the Workers runtime (vitest.config.ts).
export default defineConfig({
  resolve: { alias: { "cloudflare:workers": new URL("./test/libsql/cloudflare-workers.ts", import.meta.url).pathname } },
  test: {
    include: ["test/libsql/**/*.test.ts"],
    environment: "node",
    // npm test runs it beside the end-to-end servers and the type check, which take the two cores
    testTimeout: 30_000,
  },
});
