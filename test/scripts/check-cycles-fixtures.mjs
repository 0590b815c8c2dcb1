#!/usr/bin/env node
/**
 * Proves scripts/check-cycles.mjs can fail: it runs the checker on small src/ trees written to a
 * temporary directory, one per rule it enforces, and on a clean tree that must pass. Run by
 * `npm run check:cycles` after the check of the real tree (plain node: the fixtures are no TypeScript
 * project and no test of the Worker).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const CHECKER = resolve("scripts/check-cycles.mjs");

/** A tree that follows every rule; each case below breaks one by adding or replacing files. */
const CLEAN = {
  "db/client.ts": `export const db = 1;`,
  "domain/kernel/ports.ts": `export type Ports = { rooms: unknown };`,
  "domain/kernel/scope.ts": `import type { Ports } from "./ports";\nimport { db } from "../../db/client";\nexport type Scope = { ports: Ports; db: typeof db };`,
  "domain/conversations/messages.ts": `import { and } from "drizzle-orm";\nimport type { Scope } from "../kernel/scope";\nexport const send = (scope: Scope) => [scope, and];`,
  "views/messages.ts": `import type { Scope } from "../domain/kernel/scope";\nexport const view = (s: Scope) => ({ s });`,
  "events/dispatch.ts": `import { db } from "../db/client";\nexport const dispatch = () => db;`,
  "realtime/room.ts": `import { dispatch } from "../events/dispatch";\nexport class Room { go = dispatch; }`,
  "ports.ts": `import { view } from "./views/messages";\nimport { Room } from "./realtime/room";\nexport const ports = { view, Room };`,
  "jobs/queue.ts": `import { dispatch } from "../events/dispatch";\nimport { ports } from "../ports";\nexport const consume = () => [dispatch, ports];`,
  "index.ts": `import { Hono } from "hono";\nimport { consume } from "./jobs/queue";\nexport default { Hono, consume };`,
  "http/scopes.ts": `export const scopeOf = (c: { var: { db: number } }) => ({ db: c.var.db });`,
  "routes/messages.ts": `import { send } from "../domain/conversations/messages";\nimport { scopeOf } from "../http/scopes";\nexport const api = (c: never) => send(scopeOf(c));`,
};

/** A domain function entered with the database, not a scope (rule 4's second door). */
const DATABASE_DOOR = `import type { Database } from "../../db/client";\nexport async function openFile(db: Database, id: number) { return [db, id]; }`;

const CASES = [
  { name: "a clean tree", files: {}, fails: false },
  {
    name: "a file cycle",
    files: { "events/live.ts": `import { dispatch } from "./dispatch";\nexport const live = dispatch;`, "events/dispatch.ts": `import { live } from "./live";\nexport const dispatch = () => live;` },
    fails: "files: src/events/dispatch.ts -> src/events/live.ts -> src/events/dispatch.ts",
  },
  {
    name: "a cycle of domain folders",
    files: {
      "domain/contacts/merge.ts": `import { send } from "../conversations/messages";\nexport const merge = send;`,
      "domain/conversations/messages.ts": `import { merge } from "../contacts/merge";\nexport const send = merge;`,
    },
    fails: "domain folders: contacts -> conversations -> contacts",
  },
  ...[
    ["views", `import { view } from "../../views/messages";`],
    ["schemas", `import type { Body } from "../../schemas/messages";`, { "schemas/messages.ts": `export type Body = {};` }],
    ["realtime", `import { Room } from "../../realtime/room";`],
    ["events", `import { dispatch } from "../../events/dispatch";`],
    ["jobs", `import { consume } from "../../jobs/queue";`],
    ["webhooks", `import { post } from "../../webhooks/post";`, { "webhooks/post.ts": `export const post = 1;` }],
    ["http", `import { auth } from "../../http/auth";`, { "http/auth.ts": `export const auth = 1;` }],
    ["routes", `import { api } from "../../routes/account";`, { "routes/account.ts": `export const api = 1;` }],
    ["hono", `import type { Context } from "hono";`],
  ].map(([target, line, more = {}]) => ({
    name: `the domain importing ${target}`,
    files: { ...more, "domain/conversations/typing.ts": `${line}\nexport const typing = 1;` },
    fails: `layers: src/domain/conversations/typing.ts imports ${target === "hono" ? "the package hono" : "src/" + target}`,
  })),
  {
    name: "a route importing the database",
    files: { "routes/files.ts": `import { db } from "../db/client";\nexport const api = () => db;` },
    fails: "layers: src/routes/files.ts imports src/db/client.ts",
  },
  {
    name: "a route reading the request's database",
    files: { "routes/files.ts": `export const api = (c: { var: { db: number } }) => c.var.db;` },
    fails: "one door: src/routes/files.ts reads the request's database (.var.db)",
  },
  {
    name: "a route entering the domain with the database",
    files: { "domain/attachments/files.ts": DATABASE_DOOR, "routes/files.ts": `import { type Kind, openFile } from "../domain/attachments/files";\nexport const api = () => openFile;` },
    fails: "one door: src/routes/files.ts calls openFile of src/domain/attachments/files.ts",
  },
  {
    name: "a job entering the domain with the environment",
    files: {
      "domain/conversations/snoozes.ts": `export const wake = async (env: Env, at: number) => [env, at];`,
      "jobs/cron.ts": `import { wake as wakeAll } from "../domain/conversations/snoozes";\nexport const run = () => wakeAll;`,
    },
    fails: "one door: src/jobs/cron.ts calls wake of src/domain/conversations/snoozes.ts",
  },
  {
    name: "realtime rendering with the views",
    files: { "realtime/room.ts": `import { view } from "../views/messages";\nexport class Room { go = view; }` },
    fails: "layers: src/realtime/room.ts imports src/views/messages.ts",
  },
  {
    name: "the outbox's dispatch rendering with the views",
    files: { "events/dispatch.ts": `import { view } from "../views/messages";\nexport const dispatch = () => view;` },
    fails: "layers: src/events/dispatch.ts imports src/views/messages.ts",
  },
];

const failures = [];
for (const { name, files, fails } of CASES) {
  const root = mkdtempSync(join(tmpdir(), "check-cycles-"));
  try {
    for (const [path, text] of Object.entries({ ...CLEAN, ...files })) {
      const file = join(root, "src", path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${text}\n`);
    }
    const run = spawnSync(process.execPath, [CHECKER], { cwd: root, encoding: "utf8" });
    if (!fails && run.status !== 0) failures.push(`${name}: expected a pass, got ${run.status}:\n${run.stderr}`);
    if (fails && run.status !== 1) failures.push(`${name}: expected a failure, got ${run.status}:\n${run.stdout}${run.stderr}`);
    if (fails && run.status === 1 && !run.stderr.includes(fails)) failures.push(`${name}: expected "${fails}" in:\n${run.stderr}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
if (failures.length > 0) {
  console.error(`check-cycles fixtures (${failures.length} of ${CASES.length} wrong):\n${failures.map((f) => `- ${f}`).join("\n")}`);
  process.exit(1);
}
console.log(`check-cycles fixtures: ${CASES.length} trees, each passed or failed as it should.`);
