// The steps that change the account, in the order setup.mjs runs them (docs/deploying.md "What it
// creates"). Each does only what the plan says is missing, pushes what it changed onto `changes`, and
// fails as a StepFailure naming itself.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAppSql, generateKey, sha256Hex } from "../lib/platform-keys.mjs";
import { hasPendingMigrations, listDatabases, platformAppCount } from "./account.mjs";
import { DEPLOY_CONFIG, deployConfigNow, deployConfigPath } from "./deploy-config.mjs";
import { StepFailure, wranglerStep } from "./failure.mjs";
import { deployFingerprint } from "./fingerprint.mjs";

/** Creates the missing databases, then reads every id back (`wrangler d1 list --json`). */
export async function stepDatabases(run, plan, ids, changes) {
  if (plan.newDatabases.length === 0) return ids;
  for (const { name } of plan.newDatabases) await wranglerStep(run, "databases", ["d1", "create", name]);
  changes.push(`created ${plan.newDatabases.length} databases`);
  const listed = await listDatabases(run);
  const lost = plan.newDatabases.filter(({ name }) => !listed.has(name));
  if (lost.length > 0) throw new StepFailure("databases", `wrangler created ${lost.map(({ name }) => name).join(", ")} but \`wrangler d1 list\` does not show them yet.`);
  return listed;
}

export async function stepQueues(run, plan, changes) {
  for (const queue of plan.newQueues) await wranglerStep(run, "queues", ["queues", "create", queue]);
  if (plan.newQueues.length) changes.push(`created the queues ${plan.newQueues.join(", ")}`);
}

export async function stepBucket(run, names, plan, changes) {
  if (!plan.newBucket) return;
  await wranglerStep(run, "bucket", ["r2", "bucket", "create", names.bucket]);
  changes.push(`created the bucket ${names.bucket}`);
}

/** Turns Email Routing on for the zone; the catch-all rule itself is the deploy configuration's `addresses`. */
export async function stepEmail(run, email, changes) {
  if (!email || email.zone.enabled) return;
  try {
    await wranglerStep(run, "e-mail routing", ["email", "routing", "enable", email.zone.name, "--zone-id", email.zone.id]);
  } catch (failure) {
    failure.hint = `Email Routing adds MX and SPF records to ${email.zone.name}: if the zone has other mail records, turn it on in the dashboard (Email > Email Routing) and resolve them there.`;
    throw failure;
  }
  changes.push(`turned Email Routing on for ${email.zone.name}`);
}

export function writeConfig(root, text, changes, log) {
  if (deployConfigNow(root) === text) return;
  writeFileSync(deployConfigPath(root), text);
  changes.push(`wrote ${DEPLOY_CONFIG}`);
  log(`Wrote ${DEPLOY_CONFIG}.`);
}

/** How many databases are asked about their migrations at once: each question is a wrangler start. */
const MIGRATION_CHECKS_AT_ONCE = 4;

/** Applies the migrations each database lacks: all of them on a new one, the pending ones on the others. */
export async function stepMigrations(run, plan, existing, changes, log) {
  const behind = plan.databases.filter(({ name }) => !existing.has(name));
  const installed = plan.databases.filter(({ name }) => existing.has(name));
  for (let i = 0; i < installed.length; i += MIGRATION_CHECKS_AT_ONCE) {
    const group = installed.slice(i, i + MIGRATION_CHECKS_AT_ONCE);
    const pending = await Promise.all(group.map(({ binding }) => hasPendingMigrations(run, "migrations", binding, DEPLOY_CONFIG)));
    behind.push(...group.filter((_, n) => pending[n]));
  }
  for (const { binding, name } of behind) {
    await wranglerStep(run, "migrations", ["d1", "migrations", "apply", binding, "--remote", "-c", DEPLOY_CONFIG]);
    log(`  migrated ${binding} (${name})`);
  }
  if (behind.length) changes.push(`migrated ${behind.length} databases`);
}

/**
 * `wrangler deploy` with the deploy configuration, tagged with its fingerprint, the missing secrets
 * uploaded with the version; answers the Worker's address from wrangler's output file.
 */
export async function stepDeploy(run, root, text, secrets, log) {
  const scratch = mkdtempSync(join(tmpdir(), "edgedesk-setup-"));
  try {
    const outputFile = join(scratch, "output.ndjson");
    const args = ["deploy", "-c", DEPLOY_CONFIG, "--tag", deployFingerprint(root, text)];
    if (Object.keys(secrets).length > 0) {
      const secretsFile = join(scratch, "secrets.json");
      writeFileSync(secretsFile, JSON.stringify(secrets), { mode: 0o600 });
      args.push("--secrets-file", secretsFile);
    }
    log("Deploying the Worker...");
    const stdout = await wranglerStep(run, "deploy", args, { env: { WRANGLER_OUTPUT_FILE_PATH: outputFile } });
    return workerUrl(outputFile, stdout);
  } catch (failure) {
    if (failure instanceof StepFailure) failure.hint = deployHint(failure.message);
    throw failure;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** What to do about a failed deploy; the databases are migrated by then, so the next run only deploys. */
function deployHint(message) {
  if (/Email Routing has destructive changes/.test(message)) {
    return `The Worker is deployed, but the zone's catch-all rule belongs to something else and wrangler takes it over only when a person confirms: run \`npx wrangler deploy -c ${DEPLOY_CONFIG}\` once in a terminal and answer yes (or change the rule in the dashboard).`;
  }
  return "Everything before the deploy is in place; the next run deploys.";
}

/** The Worker's address: the first target of wrangler's `deploy` output entry, else the first https line it printed. */
function workerUrl(outputFile, stdout) {
  let targets = [];
  try {
    const entries = readFileSync(outputFile, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
    targets = entries.find((entry) => entry.type === "deploy")?.targets ?? [];
  } catch {
    // an older wrangler writes no output file
  }
  const target = targets.find((t) => /workers\.dev$|^https?:\/\//.test(t)) ?? stdout.match(/https:\/\/\S+/)?.[0];
  if (!target) throw new StepFailure("deploy", "The Worker was deployed, but wrangler named no address for it (is workers.dev turned off for it?).", "Give its address with --url and run again.");
  return /^https?:\/\//.test(target) ? target : `https://${target}`;
}

/** Makes the first platform app when the directory has none; answers its key (null when one existed). */
export async function stepPlatformApp(run, appName, changes) {
  if ((await platformAppCount(run, "platform app", DEPLOY_CONFIG)) > 0) return null;
  const key = generateKey();
  await wranglerStep(run, "platform app", ["d1", "execute", "DIRECTORY", "--remote", "-c", DEPLOY_CONFIG, "--command", createAppSql(appName, sha256Hex(key))]);
  changes.push(`created the platform app "${appName}"`);
  return key;
}
