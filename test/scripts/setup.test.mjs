// `npm run setup -- --remote` against a stand-in for wrangler (fake-wrangler.mjs): a fresh account, a run
// that stopped half way and the run that finishes it, a rerun that changes nothing, a failing step's
// message, --dry-run, --shards and growing the pool, the secrets and the e-mail route.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../scripts/lib/platform-keys.mjs";
import { declaredDatabases } from "../../scripts/lib/shards.mjs";
import { parseSetupArgs } from "../../scripts/setup/options.mjs";
import { setup } from "../../scripts/setup/setup.mjs";
import { FakeCloudflare } from "./fake-wrangler.mjs";

const WRANGLER_TOML = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");

let root;
let cloudflare;

/** A checkout: the real wrangler.toml, and a source tree and migrations whose content the deploy fingerprints. */
function checkout(template = WRANGLER_TOML) {
  root = mkdtempSync(join(tmpdir(), "edgedesk-setup-test-"));
  writeFileSync(join(root, "wrangler.toml"), template);
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "index.ts"), "export default {};\n");
  mkdirSync(join(root, "migrations"));
  writeFileSync(join(root, "migrations", "0000_init.sql"), "CREATE TABLE platform_apps (id INTEGER PRIMARY KEY);\n");
  cloudflare = new FakeCloudflare(root);
}

beforeEach(() => checkout());
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** One run of the setup with `argv`; answers its exit code and what it printed. */
async function runSetup(argv = [], { env = {}, answers = {} } = {}) {
  const lines = [];
  const asked = [];
  const code = await setup({
    root,
    options: parseSetupArgs(["--remote", ...argv]),
    run: cloudflare.run,
    env,
    ask: async (question) => {
      asked.push(question);
      return answers[question.split(" ")[0]] ?? null;
    },
    log: (line) => lines.push(line),
  });
  return { code, output: lines.join("\n"), asked };
}

/** The commands that change the account (everything but reading it). */
const changing = () =>
  cloudflare.calls
    .map((args) => args.join(" "))
    .filter((text) => /^(d1 create|d1 migrations apply|queues create|r2 bucket create|email routing enable|deploy )/.test(text) || (text.startsWith("d1 execute") && !text.includes("SELECT")));

const deployConfig = () => readFileSync(join(root, "wrangler.deploy.toml"), "utf8");
const shardNames = (count) => Array.from({ length: count }, (_, n) => `edgedesk-shard-${String(n).padStart(2, "0")}`);

describe("a fresh account", () => {
  it("creates the pool, queues and bucket, writes their ids, migrates, deploys with the secrets and prints the first platform key and the URL", async () => {
    const { code, output } = await runSetup();
    expect(code, output).toBe(0);

    // the shards first, the directory last: a directory on the account means a whole pool
    expect(cloudflare.callsOf("d1 create").map((args) => args[2])).toEqual([...shardNames(16), "edgedesk-directory"]);
    expect(cloudflare.callsOf("queues create").map((args) => args[2])).toEqual(["edgedesk-events-dlq", "edgedesk-events"]);
    expect(cloudflare.callsOf("r2 bucket create").map((args) => args[3])).toEqual(["edgedesk-files"]);

    // the deploy configuration names every database by the id the account gave it; wrangler.toml is untouched
    const declared = declaredDatabases(join(root, "wrangler.deploy.toml"));
    expect(declared.map(({ binding }) => binding)).toEqual(["DIRECTORY", ...Array.from({ length: 16 }, (_, n) => `SHARD_${String(n).padStart(2, "0")}`)]);
    expect(declared.map(({ id }) => id).sort()).toEqual([...cloudflare.databases.values()].map(({ uuid }) => uuid).sort());
    expect(readFileSync(join(root, "wrangler.toml"), "utf8")).toBe(WRANGLER_TOML);

    // every database migrated before the Worker that needs it is deployed
    expect([...cloudflare.databases.values()].every((db) => db.migrated)).toBe(true);
    const lastMigration = cloudflare.calls.findLastIndex((args) => args[1] === "migrations");
    expect(lastMigration).toBeLessThan(cloudflare.calls.findIndex((args) => args[0] === "deploy"));

    // generated secrets went up with the first version, never on the command line
    expect([...cloudflare.secrets.keys()].sort()).toEqual(["ATTACHMENT_URL_SECRET", "WIDGET_TOKEN_SECRET"]);
    expect(cloudflare.secrets.get("ATTACHMENT_URL_SECRET")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cloudflare.calls.flat().join(" ")).not.toContain(cloudflare.secrets.get("ATTACHMENT_URL_SECRET"));

    // the first deploy told the Worker's address; the serving version carries it
    const url = `https://${cloudflare.workerHost}`;
    expect(cloudflare.servingConfig()).toContain(`FILES_BASE_URL = "${url}"`);
    expect(cloudflare.servingConfig()).toContain(`FRONTEND_URL = "${url}"`);
    expect(cloudflare.servingConfig()).toContain(`INBOUND_EMAIL_DOMAIN = ""`);
    expect(output).toContain(`The Worker: ${url}`);

    // the platform key printed is the one whose digest the directory keeps
    const key = output.match(/Platform key of "Platform app" .*: (\S+)$/m)?.[1];
    expect(key).toBeTruthy();
    expect(cloudflare.databases.get("edgedesk-directory").platformApps).toEqual([{ name: "Platform app", digest: sha256Hex(key) }]);
  });

  it("run again, changes nothing and says so", async () => {
    expect((await runSetup()).code).toBe(0);
    const configBefore = deployConfig();
    const versions = cloudflare.versions.length;
    cloudflare.calls = [];

    const { code, output } = await runSetup();
    expect(code, output).toBe(0);
    expect(changing()).toEqual([]);
    expect(cloudflare.versions.length).toBe(versions);
    expect(deployConfig()).toBe(configBefore);
    expect(output).toContain("Nothing to change");
    expect(output).toContain(`The Worker: https://${cloudflare.workerHost}`);
    expect(output).toContain("A platform app exists already");
    expect(output).not.toMatch(/Platform key of/);
  });

  it("deploys again when the code changed since, and only deploys", async () => {
    expect((await runSetup()).code).toBe(0);
    writeFileSync(join(root, "src", "index.ts"), "export default { changed: true };\n");
    cloudflare.calls = [];
    const { code, output } = await runSetup();
    expect(code, output).toBe(0);
    expect(changing()).toEqual([expect.stringMatching(/^deploy -c wrangler.deploy.toml --tag setup-[0-9a-f]{16}$/)]);
  });
});

describe("--url", () => {
  it("gives the Worker its address up front: one deploy, and the address is what the setup prints", async () => {
    const { code, output } = await runSetup(["--shards", "1", "--url", "https://desk.acme.test/"]);
    expect(code, output).toBe(0);
    expect(cloudflare.versions).toHaveLength(1);
    expect(cloudflare.servingConfig()).toContain('FILES_BASE_URL = "https://desk.acme.test"');
    expect(cloudflare.servingConfig()).toContain('FRONTEND_URL = "https://desk.acme.test"');
    expect(output).toContain("The Worker: https://desk.acme.test");
  });
});

describe("a run that stopped half way", () => {
  it("names the failed step and how to continue, and the next run finishes without creating anything twice", async () => {
    cloudflare.failOn(/^d1 create edgedesk-shard-05$/, "A request to the Cloudflare API failed. [code: 10000]");
    const first = await runSetup(["--shards", "8"]);
    expect(first.code).toBe(1);
    expect(first.output).toContain('Setup stopped at step "databases".');
    expect(first.output).toContain("`wrangler d1 create edgedesk-shard-05` failed:");
    expect(first.output).toContain("A request to the Cloudflare API failed. [code: 10000]");
    expect(first.output).toContain("to continue, fix the cause and run again: npm run setup -- --remote --shards 8");
    expect(cloudflare.databases.size).toBe(5);
    expect(cloudflare.versions).toEqual([]);

    cloudflare.heal();
    cloudflare.calls = [];
    const second = await runSetup(["--shards", "8"]);
    expect(second.code, second.output).toBe(0);
    expect(cloudflare.callsOf("d1 create").map((args) => args[2])).toEqual([...shardNames(8).slice(5), "edgedesk-directory"]);
    expect(declaredDatabases(join(root, "wrangler.deploy.toml"))).toHaveLength(9);
    expect([...cloudflare.databases.values()].every((db) => db.migrated)).toBe(true);
    expect(second.output).toMatch(/Platform key of/);
  });

  it("after a failed deploy, the next run deploys with the secrets and does not create or migrate again", async () => {
    cloudflare.failOn(/^deploy /, "Authentication error [code: 10000]");
    const first = await runSetup(["--shards", "2"]);
    expect(first.code).toBe(1);
    expect(first.output).toContain('Setup stopped at step "deploy".');
    expect(first.output).toContain("Authentication error [code: 10000]");
    expect(first.output).toContain("npm run setup -- --remote --shards 2");

    cloudflare.heal();
    cloudflare.calls = [];
    const second = await runSetup();
    expect(second.code, second.output).toBe(0);
    expect(changing().filter((text) => !text.startsWith("deploy") && !text.startsWith("d1 execute"))).toEqual([]);
    expect([...cloudflare.secrets.keys()].sort()).toEqual(["ATTACHMENT_URL_SECRET", "WIDGET_TOKEN_SECRET"]);
    // the pool the first run chose stands: the deploy configuration is its record
    expect(declaredDatabases(join(root, "wrangler.deploy.toml"))).toHaveLength(3);
  });
});

describe("a failing step", () => {
  it("not signed in: names the step and the way to sign in, and touches nothing", async () => {
    cloudflare.signedIn = false;
    const { code, output } = await runSetup();
    expect(code).toBe(1);
    expect(output).toContain('Setup stopped at step "sign in".');
    expect(output).toContain("npx wrangler login");
    expect(output).toContain("CLOUDFLARE_API_TOKEN");
    expect(cloudflare.calls).toEqual([["whoami", "--json"]]);
  });

  it("several accounts: asks for CLOUDFLARE_ACCOUNT_ID, then works on the one it names", async () => {
    cloudflare.accounts.push({ id: "f9e8d7", name: "Other" });
    const refused = await runSetup(["--dry-run"]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("Set CLOUDFLARE_ACCOUNT_ID");
    expect(refused.output).toContain("f9e8d7  Other");
    const chosen = await runSetup(["--dry-run"], { env: { CLOUDFLARE_ACCOUNT_ID: "f9e8d7" } });
    expect(chosen.code, chosen.output).toBe(0);
    expect(chosen.output).toContain("Cloudflare account Other (f9e8d7)");
  });

  it("a token that may list no account works on the one CLOUDFLARE_ACCOUNT_ID names, and without it names the variable", async () => {
    cloudflare.accounts = [];
    const refused = await runSetup(["--dry-run"]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("Set CLOUDFLARE_ACCOUNT_ID");
    const trusted = await runSetup(["--dry-run"], { env: { CLOUDFLARE_ACCOUNT_ID: "a1b2c3" } });
    expect(trusted.code, trusted.output).toBe(0);
    expect(trusted.output).toContain("Cloudflare account named by CLOUDFLARE_ACCOUNT_ID (a1b2c3)");
  });

  it("a queue that cannot be created: the step, wrangler's words, and the command to continue", async () => {
    cloudflare.failOn(/^queues create edgedesk-events$/, "You have reached the limit of queues on this plan [code: 11002]");
    const { code, output } = await runSetup();
    expect(code).toBe(1);
    expect(output).toContain('Setup stopped at step "queues".');
    expect(output).toContain("You have reached the limit of queues on this plan [code: 11002]");
    expect(output).toMatch(/run again: npm run setup -- --remote$/m);
    expect(cloudflare.queues).toEqual(new Set(["edgedesk-events-dlq"]));
  });
});

describe("--dry-run", () => {
  it("prints the plan of a fresh install and changes nothing, not even the configuration", async () => {
    const { code, output } = await runSetup(["--dry-run", "--shards", "3"]);
    expect(code, output).toBe(0);
    expect(output).toContain("dry run: nothing changes");
    expect(output).toContain("create edgedesk-shard-00, edgedesk-shard-01, edgedesk-shard-02, edgedesk-directory; pool: the directory and 3 shards");
    expect(output).toContain("create edgedesk-events-dlq, edgedesk-events");
    expect(output).toContain("ATTACHMENT_URL_SECRET (generated), WIDGET_TOKEN_SECRET (generated)");
    expect(output).toMatch(/deploy edgedesk \(first deploy/);
    expect(changing()).toEqual([]);
    expect(cloudflare.exists("wrangler.deploy.toml")).toBe(false);
  });

  it("finds the queues past the first page of `wrangler queues list`", async () => {
    for (const queue of ["billing", "imports", "exports", "edgedesk-events-dlq", "edgedesk-events"]) cloudflare.queues.add(queue);
    const { code, output } = await runSetup(["--dry-run"]);
    expect(code, output).toBe(0);
    expect(output).toContain("queues        nothing to create");
    expect(cloudflare.callsOf("queues list").map((args) => args[3])).toEqual(["1", "2", "3"]);
  });

  it("after a complete install, plans nothing", async () => {
    expect((await runSetup()).code).toBe(0);
    cloudflare.calls = [];
    const { code, output } = await runSetup(["--dry-run"]);
    expect(code, output).toBe(0);
    expect(output).toContain("nothing to create (17 in place)");
    expect(output).toContain("wrangler.deploy.toml is up to date");
    expect(output).toContain("nothing to deploy");
    expect(output).toContain("secrets       nothing to set");
    expect(changing()).toEqual([]);
  });
});

describe("--shards", () => {
  it("picks the pool of a new install", async () => {
    const { code, output } = await runSetup(["--shards", "4"]);
    expect(code, output).toBe(0);
    expect([...cloudflare.databases.keys()]).toEqual([...shardNames(4), "edgedesk-directory"]);
    expect(cloudflare.servingConfig().match(/binding = "SHARD_\d\d"/g)).toHaveLength(4);
  });

  it("grows the pool of an installed deployment: adds and migrates the new shards and deploys; no account row is touched", async () => {
    expect((await runSetup(["--shards", "4"])).code).toBe(0);
    cloudflare.calls = [];
    const { code, output } = await runSetup(["--shards", "6"]);
    expect(code, output).toBe(0);
    expect(cloudflare.callsOf("d1 create").map((args) => args[2])).toEqual(["edgedesk-shard-04", "edgedesk-shard-05"]);
    expect(cloudflare.callsOf("d1 migrations apply").map((args) => args[3])).toEqual(["SHARD_04", "SHARD_05"]);
    expect(cloudflare.callsOf("d1 execute").every((args) => args.join(" ").includes("SELECT count(*) AS apps FROM platform_apps"))).toBe(true);
    expect(cloudflare.servingConfig().match(/binding = "SHARD_\d\d"/g)).toHaveLength(6);

    // and the grown pool is what a later run keeps
    cloudflare.calls = [];
    expect((await runSetup()).code).toBe(0);
    expect(changing()).toEqual([]);
  });

  it("never shrinks a pool", async () => {
    expect((await runSetup(["--shards", "4"])).code).toBe(0);
    cloudflare.calls = [];
    const { code, output } = await runSetup(["--shards", "2"]);
    expect(code).toBe(1);
    expect(output).toContain('Setup stopped at step "shard pool".');
    expect(output).toContain("This deployment has 4 shards");
    expect(changing()).toEqual([]);
  });

  it("finds the pool of a deployment made before the setup existed (no deploy configuration) on the account", async () => {
    for (const name of [...shardNames(16), "edgedesk-directory"]) await cloudflare.run(["d1", "create", name]);
    cloudflare.calls = [];
    const { code, output } = await runSetup(["--dry-run"]);
    expect(code, output).toBe(0);
    expect(output).toContain("nothing to create (17 in place); pool: the directory and 16 shards");
  });

  it("takes a deployment made by hand as it is: no database, queue or bucket made again, one deploy, the app it has", async () => {
    checkout(WRANGLER_TOML.replace('FILES_BASE_URL = "http://localhost:8787"', 'FILES_BASE_URL = "https://desk.acme.test"'));
    for (const name of [...shardNames(16), "edgedesk-directory"]) await cloudflare.run(["d1", "create", name]);
    for (const db of cloudflare.databases.values()) db.migrated = true;
    cloudflare.databases.get("edgedesk-directory").platformApps.push({ name: "Production", digest: "0".repeat(64) });
    cloudflare.queues.add("edgedesk-events-dlq").add("edgedesk-events");
    cloudflare.buckets.add("edgedesk-files");
    cloudflare.secrets.set("ATTACHMENT_URL_SECRET", "set-by-hand");
    cloudflare.versions.push({ id: "v0-0000", tag: undefined, config: WRANGLER_TOML });
    cloudflare.calls = [];

    const { code, output } = await runSetup();
    expect(code, output).toBe(0);
    expect(changing()).toEqual([expect.stringMatching(/^deploy -c wrangler.deploy.toml --tag setup-[0-9a-f]{16} --secrets-file /)]);
    expect(cloudflare.secrets.get("ATTACHMENT_URL_SECRET")).toBe("set-by-hand");
    expect(cloudflare.secrets.has("WIDGET_TOKEN_SECRET")).toBe(true);
    expect(cloudflare.servingConfig()).toContain('FILES_BASE_URL = "https://desk.acme.test"');
    expect(output).toContain("The Worker: https://desk.acme.test");
    expect(output).toContain("A platform app exists already");
  });

  it("refuses a pool outside 1 to 64 before touching anything", () => {
    expect(() => parseSetupArgs(["--remote", "--shards", "65"])).toThrow("--shards must be 1 to 64");
    expect(() => parseSetupArgs(["--remote", "--shards", "0"])).toThrow("--shards must be 1 to 64");
    expect(() => parseSetupArgs(["--shards", "4"])).toThrow("add --remote");
  });
});

describe("secrets", () => {
  it("takes them from the environment when it has them (CI)", async () => {
    const { code, output } = await runSetup(["--shards", "1"], { env: { ATTACHMENT_URL_SECRET: "from-ci-attachments", WIDGET_TOKEN_SECRET: "from-ci-widget", DESK_USER_HMAC_KEY: "from-ci-hmac" } });
    expect(code, output).toBe(0);
    expect(Object.fromEntries(cloudflare.secrets)).toEqual({ ATTACHMENT_URL_SECRET: "from-ci-attachments", WIDGET_TOKEN_SECRET: "from-ci-widget", DESK_USER_HMAC_KEY: "from-ci-hmac" });
  });

  it("asks for a secret of another service, and without an answer fails before creating anything", async () => {
    checkout(WRANGLER_TOML.replace('MAIL_TRANSPORT = "send_email"', 'MAIL_TRANSPORT = "resend"'));
    const unanswered = await runSetup(["--shards", "1"]);
    expect(unanswered.code).toBe(1);
    expect(unanswered.output).toContain('Setup stopped at step "secrets".');
    expect(unanswered.output).toContain("Set RESEND_API_KEY in the environment");
    expect(changing()).toEqual([]);

    const answered = await runSetup(["--shards", "1"], { answers: { "RESEND_API_KEY": "re_typed_key" } });
    expect(answered.code, answered.output).toBe(0);
    expect(answered.asked).toEqual([expect.stringMatching(/^RESEND_API_KEY \(/)]);
    expect(cloudflare.secrets.get("RESEND_API_KEY")).toBe("re_typed_key");
  });

  it("keeps a secret the Worker has: a rerun never replaces it", async () => {
    expect((await runSetup(["--shards", "1"])).code).toBe(0);
    const before = cloudflare.secrets.get("ATTACHMENT_URL_SECRET");
    expect((await runSetup([], { env: { ATTACHMENT_URL_SECRET: "another" } })).code).toBe(0);
    expect(cloudflare.secrets.get("ATTACHMENT_URL_SECRET")).toBe(before);
  });
});

describe("e-mail", () => {
  it("turns Email Routing on for the zone and routes its catch-all to the Worker through the deploy; a rerun changes nothing", async () => {
    cloudflare.zones.push({ name: "acme.test", id: "z1", enabled: false, catchAll: null });
    const { code, output } = await runSetup(["--shards", "1", "--email-domain", "acme.test"]);
    expect(code, output).toBe(0);
    expect(cloudflare.callsOf("email routing enable")).toEqual([["email", "routing", "enable", "acme.test", "--zone-id", "z1"]]);
    expect(cloudflare.zones[0]).toMatchObject({ enabled: true, catchAll: "edgedesk" });
    expect(cloudflare.servingConfig()).toContain('addresses = ["*@acme.test"]');
    expect(cloudflare.servingConfig()).toContain('INBOUND_EMAIL_DOMAIN = "acme.test"');
    expect(cloudflare.servingConfig()).toContain('MAILER_SENDER_EMAIL = "notifications@acme.test"');

    cloudflare.calls = [];
    const again = await runSetup();
    expect(again.code, again.output).toBe(0);
    expect(changing()).toEqual([]);
    expect(again.output).toContain("*@acme.test already goes to edgedesk");
  });

  it("a catch-all that belongs to something else: the deploy step says how to confirm the takeover", async () => {
    cloudflare.zones.push({ name: "acme.test", id: "z1", enabled: true, catchAll: null });
    cloudflare.failOn(/^deploy /, "The Worker is deployed, but Email Routing has destructive changes (deletes or takeover conflicts) that need confirmation. Re-run the deployment interactively, or remove the conflicting entries from `addresses`.");
    const { code, output } = await runSetup(["--shards", "1", "--email-domain", "acme.test"]);
    expect(code).toBe(1);
    expect(output).toContain('Setup stopped at step "deploy".');
    expect(output).toContain("run `npx wrangler deploy -c wrangler.deploy.toml` once in a terminal and answer yes");
    expect(output).toContain("run again: npm run setup -- --remote --shards 1 --email-domain acme.test");
  });

  it("a domain the account has no zone for fails the e-mail step before anything is created", async () => {
    const { code, output } = await runSetup(["--email-domain", "elsewhere.test"]);
    expect(code).toBe(1);
    expect(output).toContain('Setup stopped at step "e-mail routing".');
    expect(output).toContain("No zone of this account holds elsewhere.test.");
    expect(output).toContain("--email-domain elsewhere.test");
    expect(changing()).toEqual([]);
  });
});
