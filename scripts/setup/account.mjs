// What the signed-in Cloudflare account already has, read through wrangler's CLI: `--json` where the
// command has it, otherwise its printed lists and tables (wrangler 4.164's formats; each reader names
// the command it parses). Nothing here changes the account.
import { StepFailure, tail, wranglerStep } from "./failure.mjs";

const INVENTORY = "read the account";

/** The JSON document a `--json` command printed (wrangler may print a warning line before it). */
function parseJson(step, args, stdout) {
  const start = stdout.search(/^[[{]/m);
  try {
    return JSON.parse(stdout.slice(start));
  } catch {
    throw new StepFailure(step, `\`wrangler ${args.join(" ")}\` printed no JSON:\n${stdout.trim().slice(0, 500)}`);
  }
}

/** The rows of a table wrangler printed (`logger.table`, box-drawn), each keyed by the header's cells. */
export function parseTable(stdout) {
  const rows = stdout
    .split("\n")
    .filter((line) => line.trimStart().startsWith("│"))
    .map((line) => line.trim().split("│").slice(1, -1).map((cell) => cell.trim()));
  const [head, ...body] = rows;
  return head ? body.map((cells) => Object.fromEntries(head.map((name, i) => [name, cells[i] ?? ""]))) : [];
}

/** `wrangler whoami --json`: the account the setup works on. */
export async function signedInAccount(run, env) {
  const args = ["whoami", "--json"];
  const result = await run(args);
  const signIn = "Sign in with `npx wrangler login`, or set CLOUDFLARE_API_TOKEN (with CLOUDFLARE_ACCOUNT_ID) where no browser is at hand, as in CI.";
  if (result.code !== 0 || !/"loggedIn":\s*true/.test(result.stdout)) throw new StepFailure("sign in", "wrangler is not signed in to Cloudflare.", signIn);
  const user = parseJson("sign in", args, result.stdout);
  const accounts = user.accounts ?? [];
  const wanted = env.CLOUDFLARE_ACCOUNT_ID;
  // a token scoped to one account may not be allowed to list accounts: then CLOUDFLARE_ACCOUNT_ID is taken on trust
  if (wanted && accounts.length === 0) return { email: user.email, id: wanted, name: "named by CLOUDFLARE_ACCOUNT_ID" };
  const chosen = wanted ? accounts.find(({ id }) => id === wanted) : accounts.length === 1 ? accounts[0] : undefined;
  if (!chosen) {
    const listed = accounts.map(({ id, name }) => `  ${id}  ${name}`).join("\n");
    throw new StepFailure(
      "sign in",
      wanted ? `CLOUDFLARE_ACCOUNT_ID is ${wanted}, which is none of this sign-in's accounts:\n${listed}` : accounts.length ? `This sign-in reaches ${accounts.length} accounts:\n${listed}` : "This sign-in may list no account.",
      "Set CLOUDFLARE_ACCOUNT_ID to the id of the account to set up.",
    );
  }
  return { email: user.email, id: chosen.id, name: chosen.name };
}

/** `wrangler d1 list --json`: database name → id. */
export async function listDatabases(run) {
  const args = ["d1", "list", "--json"];
  const list = parseJson(INVENTORY, args, await wranglerStep(run, INVENTORY, args));
  return new Map(list.map(({ name, uuid }) => [name, uuid]));
}

/** `wrangler queues list`: the names in its table, page after page until a page brings none that is new. */
export async function listQueues(run) {
  const names = new Set();
  for (let page = 1; page <= 100; page++) {
    const known = names.size;
    parseTable(await wranglerStep(run, INVENTORY, ["queues", "list", "--page", String(page)])).forEach((row) => names.add(row.name));
    if (names.size === known) break;
  }
  return names;
}

/** `wrangler r2 bucket list`: the `name:` line of each bucket it lists. */
export async function listBuckets(run) {
  const stdout = await wranglerStep(run, INVENTORY, ["r2", "bucket", "list"]);
  return new Set([...stdout.matchAll(/^name:\s+(\S+)\s*$/gm)].map((match) => match[1]));
}

/** wrangler's answer for a Worker that was never deployed (API error 10007, "workers.api.error.script_not_found"). */
const NO_WORKER = /10007|not found|does not exist|has no deployments/i;

/** `wrangler secret list --format json`: the Worker's secret names (none before its first deploy). */
export async function listSecrets(run, worker) {
  const args = ["secret", "list", "--format", "json", "--name", worker];
  const result = await run(args);
  if (result.code !== 0) {
    if (NO_WORKER.test(tail(result))) return new Set();
    throw new StepFailure(INVENTORY, `\`wrangler ${args.join(" ")}\` failed:\n${tail(result)}`);
  }
  return new Set(parseJson(INVENTORY, args, result.stdout).map(({ name }) => name));
}

/**
 * The tag of the Worker version serving now (`wrangler deployments status --json`, then `wrangler
 * versions view <id> --json`), null before the first deploy: the setup tags each deploy with a
 * fingerprint of what it deployed.
 */
export async function deployedTag(run, worker) {
  const args = ["deployments", "status", "--json", "--name", worker];
  const result = await run(args);
  if (result.code !== 0) {
    if (NO_WORKER.test(tail(result))) return null;
    throw new StepFailure(INVENTORY, `\`wrangler ${args.join(" ")}\` failed:\n${tail(result)}`);
  }
  const deployment = parseJson(INVENTORY, args, result.stdout);
  const serving = [...(deployment.versions ?? [])].sort((a, b) => b.percentage - a.percentage)[0];
  if (!serving) return null;
  const viewArgs = ["versions", "view", serving.version_id, "--json", "--name", worker];
  const version = parseJson(INVENTORY, viewArgs, await wranglerStep(run, INVENTORY, viewArgs));
  return version.annotations?.["workers/tag"] ?? null;
}

/**
 * `wrangler email routing list`: the zone of this account that holds `domain` (the domain itself or a
 * parent of it), with whether Email Routing is on there; null when the account has no such zone.
 */
export async function emailZone(run, domain) {
  const stdout = await wranglerStep(run, INVENTORY, ["email", "routing", "list"]);
  const zone = parseTable(stdout)
    .filter((row) => domain === row.zone || domain.endsWith(`.${row.zone}`))
    .sort((a, b) => b.zone.length - a.zone.length)[0];
  return zone ? { name: zone.zone, id: zone["zone id"], enabled: zone.enabled === "yes" } : null;
}

/** `wrangler email routing rules get <zone> catch-all`: true when the zone's catch-all sends mail to `worker`. */
export async function catchAllRoutesTo(run, zone, worker) {
  const stdout = await wranglerStep(run, INVENTORY, ["email", "routing", "rules", "get", zone.name, "catch-all", "--zone-id", zone.id]);
  return /Enabled:\s*true/.test(stdout) && new RegExp(`^\\s*- worker: ${worker}\\s*$`, "m").test(stdout);
}

/** `wrangler d1 migrations list <binding> --remote`: true when the database has migrations to apply. */
export async function hasPendingMigrations(run, step, binding, config) {
  const stdout = await wranglerStep(run, step, ["d1", "migrations", "list", binding, "--remote", "-c", config]);
  return !/No migrations to apply/i.test(stdout);
}

/** `wrangler d1 execute DIRECTORY --remote --json`: how many platform apps the directory holds. */
export async function platformAppCount(run, step, config) {
  const args = ["d1", "execute", "DIRECTORY", "--remote", "--json", "-c", config, "--command", "SELECT count(*) AS apps FROM platform_apps"];
  const [statement] = parseJson(step, args, await wranglerStep(run, step, args));
  return Number(statement?.results?.[0]?.apps ?? 0);
}
