import { defineConfig } from "vitest/config";

// End-to-end: runs in Node, starts the server the way the README says, talks to it over real HTTP.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 240_000,
    // the browser files share one server and browser (test/e2e/shared-server.ts); the files that start
    // their own servers mostly wait for them, so four files run at once
    globalSetup: ["test/e2e/shared-server.ts"],
    maxWorkers: 4,
    hookTimeout: 240_000,
  },
});
