/**
 * Hostile input on every route: no input a client can send gives a 5xx or a malformed error body,
 * and refused writes change nothing. The route table is in ./hostile/routes.ts, the cases in
 * ./hostile/driver.ts; each group runs in its own file (own database), see hostile-input-*.test.ts.
 */
import { describe, it } from "vitest";
import { attack, Checker } from "./hostile/driver";
import { buildWorld, routeTable } from "./hostile/routes";

const world = await buildWorld();
const routes = routeTable(world).automation;

describe("hostile input: custom attributes, webhooks, automation rules, macros, dashboard apps, campaigns", () => {
  for (const route of routes) {
    it(`${route.method} ${route.path}`, { timeout: 120_000 }, async () => {
      const checker = new Checker();
      await attack(route, checker);
      checker.assertClean();
    });
  }
});
