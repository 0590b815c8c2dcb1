import { defineConfig } from "vitest/config";

// End-to-end: runs in Node, starts the server the way the README says, talks to it over real HTTP.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 240_000,
    // the files mostly wait for their servers to start: all four at once, not one after another
    maxWorkers: 4,
    hookTimeout: 240_000,
  },
});
