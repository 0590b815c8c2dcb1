/**
 * One group of the route table walked with every hostile case, a test per route. Each group runs in a
 * file of its own (test/http/hostile-input-*.test.ts): its own database, and the files in parallel.
 */
import { describe, it } from "vitest";
import { attack, Checker } from "./driver";
import { type Group, buildWorld, routeTable } from "./routes";

export async function walkGroup(group: Group, title: string) {
  const world = await buildWorld();
  const routes = routeTable(world)[group];
  describe(`hostile input: ${title}`, () => {
    for (const route of routes) {
      it(`${route.method} ${route.path}`, { timeout: 120_000 }, async () => {
        const checker = new Checker();
        await attack(route, checker);
        checker.assertClean();
      });
    }
  });
}
