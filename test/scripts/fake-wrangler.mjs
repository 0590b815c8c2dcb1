// A stand-in for `wrangler` in the setup's tests: a Cloudflare account held in memory, answering the
// commands the setup runs in wrangler 4.164's own formats (JSON where the command has --json, its
// tables and lists otherwise), recording every call. It reaches no network. A command it does not know
// fails, so a setup that starts running something new fails its tests until this learns it.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { declaredDatabases } from "../../scripts/lib/shards.mjs";

/** A box-drawn table, as wrangler's `logger.table` prints it without colours. */
function table(rows) {
  if (rows.length === 0) return "┌┐\n└┘\n";
  const head = Object.keys(rows[0]);
  const line = (cells) => `│ ${cells.join(" │ ")} │`;
  return ["┌─┬─┐", line(head), "├─┼─┤", ...rows.map((row) => line(head.map((key) => row[key]))), "└─┴─┘", ""].join("\n");
}

/** Queues a page of `wrangler queues list` shows (small, so the tests page through). */
const QUEUES_PAGE = 3;

const ok = (stdout = "") => ({ code: 0, stdout, stderr: "" });
const error = (message) => ({ code: 1, stdout: "", stderr: `✘ [ERROR] ${message}\n` });

export class FakeCloudflare {
  constructor(root) {
    this.root = root;
    this.signedIn = true;
    this.accounts = [{ id: "a1b2c3", name: "Acme" }];
    /** name → { uuid, migrated, platformApps: [{ name, digest }] } */
    this.databases = new Map();
    this.queues = new Set();
    this.buckets = new Set();
    /** Email Routing zones: { name, id, enabled, catchAll: worker name or null } */
    this.zones = [];
    this.secrets = new Map();
    /** every deployed version: { id, tag, config } (config: the deploy configuration's text) */
    this.versions = [];
    this.workerHost = "edgedesk.acme-team.workers.dev";
    this.calls = [];
    /** commands that fail: [predicate(args), message] */
    this.failures = [];
    this.nextId = 1;
  }

  /** Makes the next commands whose text matches `pattern` fail with `message` (until `heal`). */
  failOn(pattern, message) {
    this.failures.push([pattern, message]);
  }

  heal() {
    this.failures = [];
  }

  /** The calls whose command starts with `prefix` ("d1 create", "deploy" ...). */
  callsOf(prefix) {
    return this.calls.filter((args) => args.join(" ").startsWith(prefix));
  }

  /** What the setup's `run` does: one wrangler command. */
  run = async (args, { env = {} } = {}) => {
    this.calls.push(args);
    const text = args.join(" ");
    const failure = this.failures.find(([pattern]) => pattern.test(text));
    if (failure) return error(failure[1]);
    return this.answer(args, env);
  };

  option(args, name) {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  }

  /** The database a binding names in the configuration given with -c (as wrangler resolves it). */
  database(args, binding) {
    const config = join(this.root, this.option(args, "-c"));
    const declared = declaredDatabases(config).find((db) => db.binding === binding);
    const found = declared && [...this.databases.values()].find((db) => db.uuid === declared.id);
    return found ?? null;
  }

  answer(args, env) {
    const [a, b, c] = args;
    const command = [a, b, c].join(" ");
    if (!this.signedIn && a !== "whoami") return error("You are not logged in. Run `wrangler login`.");
    if (a === "whoami") {
      return this.signedIn ? ok(JSON.stringify({ loggedIn: true, authType: "OAuth Token", email: "ops@acme.test", accounts: this.accounts })) : { code: 1, stdout: '{"loggedIn":false}', stderr: "" };
    }
    if (command === "d1 list --json") {
      return ok(JSON.stringify([...this.databases].map(([name, db]) => ({ uuid: db.uuid, name, created_at: "2026-11-28T00:00:00Z", version: "production", num_tables: 0, file_size: 0 }))));
    }
    if (a === "d1" && b === "create") {
      if (this.databases.has(c)) return error(`A database with that name already exists [code: 7502]`);
      const uuid = `${String(this.nextId++).padStart(8, "0")}-1111-4222-8333-444455556666`;
      this.databases.set(c, { uuid, migrated: false, platformApps: [] });
      return ok(`✅ Successfully created DB '${c}' in region WEUR\nCreated your new D1 database.\n\nTo access your new D1 Database in your Worker, add the following snippet to your configuration file:\n[[d1_databases]]\nbinding = "${c.replaceAll("-", "_")}"\ndatabase_name = "${c}"\ndatabase_id = "${uuid}"\n`);
    }
    if (a === "d1" && b === "migrations") {
      const db = this.database(args, c === "list" || c === "apply" ? args[3] : undefined);
      if (!db) return error(`Couldn't find a D1 DB with the name or binding '${args[3]}' in your wrangler.toml file.`);
      if (c === "list") return ok(db.migrated ? "✅ No migrations to apply!\n" : `Migrations to be applied:\n${table([{ Name: "0000_init.sql" }])}`);
      db.migrated = true;
      return ok(`🚣 1 migration applied\n${table([{ Name: "0000_init.sql", Status: "✅" }])}`);
    }
    if (a === "d1" && b === "execute") {
      const db = this.database(args, c);
      if (!db) return error(`Couldn't find a D1 DB with the name or binding '${c}'`);
      if (!db.migrated) return error("no such table: platform_apps: SQLITE_ERROR [code: 7500]");
      const sql = this.option(args, "--command");
      if (/^SELECT count\(\*\) AS apps FROM platform_apps$/.test(sql)) return ok(JSON.stringify([{ results: [{ apps: db.platformApps.length }], success: true, meta: {} }]));
      const app = sql.match(/INSERT INTO platform_apps \(name, created_at, updated_at\) VALUES \('((?:[^']|'')*)'/);
      const digest = sql.match(/'([0-9a-f]{64})'/);
      if (app && digest) {
        db.platformApps.push({ name: app[1].replaceAll("''", "'"), digest: digest[1] });
        return ok("🚣 Executed 2 commands\n");
      }
      return error(`the fake runs only the setup's statements, not: ${sql}`);
    }
    if (a === "queues" && b === "list") {
      const page = Number(this.option(args, "--page") ?? 1);
      const all = [...this.queues].map((name, i) => ({ id: `q${i}`, name, created_on: "2026-11-28", modified_on: "2026-11-28", producers: "0", consumers: "0" }));
      const rows = all.slice((page - 1) * QUEUES_PAGE, page * QUEUES_PAGE);
      return ok(table(rows));
    }
    if (a === "queues" && b === "create") {
      if (this.queues.has(c)) return error(`A queue with this name already exists [code: 11009]`);
      this.queues.add(c);
      return ok(`🌀 Creating queue '${c}'\n✅ Created queue '${c}'\n`);
    }
    if (command === "r2 bucket list") {
      return ok(`Listing buckets...\n${[...this.buckets].map((name) => `name:           ${name}\ncreation_date:  2026-11-28T00:00:00.000Z`).join("\n\n")}\n`);
    }
    if (command.startsWith("r2 bucket create")) {
      const name = args[3];
      if (this.buckets.has(name)) return error(`The bucket you tried to create already exists, and you own it. [code: 10004]`);
      this.buckets.add(name);
      return ok(`Creating bucket '${name}'...\n✅ Created bucket '${name}' with default storage class of Standard.\n`);
    }
    if (a === "secret" && b === "list") {
      if (this.versions.length === 0) return error("This Worker does not exist on your account. [code: 10007]");
      return ok(JSON.stringify([...this.secrets.keys()].map((name) => ({ name, type: "secret_text" })), null, "  "));
    }
    if (command === "deployments status --json") {
      if (this.versions.length === 0) return error("This Worker does not exist on your account. [code: 10007]");
      return ok(JSON.stringify({ id: "d1", source: "wrangler", strategy: "percentage", versions: [{ version_id: this.versions.at(-1).id, percentage: 100 }] }, null, 2));
    }
    if (a === "versions" && b === "view") {
      const version = this.versions.find(({ id }) => id === c);
      if (!version) return error(`Version ${c} not found`);
      return ok(JSON.stringify({ id: version.id, number: this.versions.indexOf(version) + 1, annotations: { "workers/triggered_by": "upload", ...(version.tag ? { "workers/tag": version.tag } : {}) } }, null, 2));
    }
    if (command === "email routing list") {
      return ok(this.zones.length ? table(this.zones.map((zone) => ({ zone: zone.name, "zone id": zone.id, enabled: zone.enabled ? "yes" : "no" }))) : "No zones found with Email Routing in this account.\n");
    }
    if (command === "email routing enable") {
      const zone = this.zones.find(({ name }) => name === args[3]);
      zone.enabled = true;
      return ok(`Email Routing enabled for ${zone.name} (status: ready)\n`);
    }
    if (command === "email routing rules" && args[3] === "get" && args[5] === "catch-all") {
      const zone = this.zones.find(({ name }) => name === args[4]);
      return ok(`Catch-all rule:\n  Enabled: ${zone.catchAll ? "true" : "false"}\n  Actions:\n    - ${zone.catchAll ? `worker: ${zone.catchAll}` : "drop"}\n`);
    }
    if (a === "deploy") return this.deploy(args, env);
    return error(`the fake wrangler does not know \`wrangler ${args.join(" ")}\``);
  }

  deploy(args, env) {
    const config = readFileSync(join(this.root, this.option(args, "-c")), "utf8");
    for (const { binding, id } of declaredDatabases(join(this.root, this.option(args, "-c")))) {
      if (![...this.databases.values()].some((db) => db.uuid === id)) return error(`binding ${binding} of type d1 must have a valid \`database_id\` specified [code: 10021]`);
    }
    const secretsFile = this.option(args, "--secrets-file");
    if (secretsFile) {
      if ((statSync(secretsFile).mode & 0o077) !== 0) return error("the secrets file is readable by others");
      for (const [name, value] of Object.entries(JSON.parse(readFileSync(secretsFile, "utf8")))) this.secrets.set(name, value);
    }
    const version = { id: `v${this.versions.length + 1}-0000`, tag: this.option(args, "--tag"), config };
    this.versions.push(version);
    const addresses = config.match(/^addresses = (\[.*\])$/m);
    for (const address of addresses ? JSON.parse(addresses[1]) : []) {
      const zone = this.zones.find(({ name }) => address === `*@${name}`);
      if (zone) zone.catchAll = config.match(/^name = "([^"]+)"$/m)[1];
    }
    if (env.WRANGLER_OUTPUT_FILE_PATH) {
      const entry = { type: "deploy", version: 1, worker_name: "edgedesk", version_id: version.id, targets: [this.workerHost, "schedule: * * * * *"] };
      writeFileSync(env.WRANGLER_OUTPUT_FILE_PATH, `${JSON.stringify({ type: "wrangler-session", version: 1 })}\n${JSON.stringify(entry)}\n`);
    }
    return ok(`Total Upload: 900.00 KiB / gzip: 180.00 KiB\nUploaded edgedesk (4.20 sec)\nDeployed edgedesk triggers (1.10 sec)\n  https://${this.workerHost}\n  schedule: * * * * *\nCurrent Version ID: ${version.id}\n`);
  }

  /** The configuration of the version serving now. */
  servingConfig() {
    return this.versions.at(-1)?.config ?? null;
  }

  exists(path) {
    return existsSync(join(this.root, path));
  }
}
