// `npm run setup -- --remote` (docs/deploying.md): from a signed-in Cloudflare account to a running
// deployment. It reads what the account has, prints the plan, and creates only what is missing, so a
// run that stopped half way is finished by running it again, and a run after a complete one changes
// nothing and says so. wrangler is reached only through `run(args, {input, env})`, which the tests replace.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { catchAllRoutesTo, deployedTag, emailZone, listBuckets, listDatabases, listQueues, listSecrets, signedInAccount } from "./account.mjs";
import { deployConfigNow, deployConfigPath, deployConfigText, readDeployConfig, templateNames } from "./deploy-config.mjs";
import { StepFailure, describeFailure } from "./failure.mjs";
import { deployFingerprint } from "./fingerprint.mjs";
import { rerunCommand } from "./options.mjs";
import { describePlan, planSetup, poolSize } from "./plan.mjs";
import { secretValues, wantedSecrets } from "./secrets.mjs";
import { stepBucket, stepDatabases, stepDeploy, stepEmail, stepMigrations, stepPlatformApp, stepQueues, writeConfig } from "./steps.mjs";

/** A URL wrangler.toml gives for local work: a deployment must be given its own. */
const LOCAL = /localhost/;

/**
 * Runs the setup; answers the exit code. `root` is the project (wrangler.toml's folder), `run` runs
 * wrangler, `ask` asks a person (null answer: no terminal), `log` prints a line.
 */
export async function setup({ root, options, run, env, ask, log }) {
  const template = readFileSync(join(root, "wrangler.toml"), "utf8");
  const names = templateNames(template);
  const previous = readDeployConfig(deployConfigPath(root));
  try {
    const account = await signedInAccount(run, env);
    log(`Cloudflare account ${account.name} (${account.id}), signed in as ${account.email ?? "an API token"}.`);
    log("Reading what the account has...");
    const found = await readAccount(run, names.worker);
    const shards = poolSize({ requested: options.shards, previous, databases: found.databases, directory: names.directory });
    const email = await emailPlan(run, options, previous, names.worker, found.tag !== null);
    const plan = planSetup({ names, shards, found, email, wanted: wantedSecrets(names), env });
    const vars = deployedVars({ template, options, previous, email });
    // the configuration as it will be once the databases exist (new ones have placeholders here)
    const expected = configText(template, plan, found.databases, vars, email);
    const configChanges = plan.newDatabases.length > 0 || deployConfigNow(root) !== expected;
    const reasons = deployReasons({ plan, found, email, fingerprint: deployFingerprint(root, expected) });
    if (reasons.length > 0 && LOCAL.test(vars.FILES_BASE_URL)) reasons.push("then again with the Worker's own address as FILES_BASE_URL");
    log(`Plan (${options.dryRun ? "dry run: nothing changes" : "what this run does"}):`);
    describePlan(plan, { worker: names.worker, configChanges, deployNeeded: reasons.length > 0, deployReason: reasons.join(", ") }).forEach((line) => log(line));
    if (options.dryRun) return 0;

    const { changes, url, key } = await carryOut({ root, template, names, options, run, env, ask, log, found, plan, vars, email, deploy: reasons.length > 0 });
    log("");
    log(changes.length ? `Done: ${changes.join("; ")}.` : "Nothing to change: every resource, secret, migration and the deployed Worker were already in place.");
    log(`The Worker: ${url}`);
    log(key ? `Platform key of "${options.appName}" (api_access_token for /platform/api/v1; shown only now): ${key}` : `A platform app exists already; \`npm run platform-app -- --name NAME --remote\` makes another with a new key.`);
    return 0;
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    log(describeFailure(error, rerunCommand(options)));
    return 1;
  }
}

/**
 * The account's databases, queues, buckets, and the Worker's secrets and serving tag, read side by side
 * (each wrangler start takes seconds). `wrangler whoami` has run before, alone: a sign-in that had
 * expired is refreshed once, not by five processes at the same time.
 */
async function readAccount(run, worker) {
  const [databases, queues, buckets, secrets, tag] = await Promise.all([listDatabases(run), listQueues(run), listBuckets(run), listSecrets(run, worker), deployedTag(run, worker)]);
  return { databases, queues, buckets, secrets, tag };
}

/** The steps after the plan, in order; answers what changed, the Worker's address and a new platform key. */
async function carryOut({ root, template, names, options, run, env, ask, log, found, plan, vars, email, deploy }) {
  // asked first: a secret no one can give stops the run before it creates anything
  const secrets = await secretValues(plan.missingSecrets, { env, ask });
  const changes = [];
  const ids = await stepDatabases(run, plan, found.databases, changes);
  await stepQueues(run, plan, changes);
  await stepBucket(run, names, plan, changes);
  await stepEmail(run, email, changes);
  let text = configText(template, plan, ids, vars, email);
  writeConfig(root, text, changes, log);
  await stepMigrations(run, plan, found.databases, changes, log);

  let url = vars.FILES_BASE_URL;
  if (deploy) {
    const reported = await stepDeploy(run, root, text, secrets, log);
    changes.push(`deployed ${names.worker}`);
    if (LOCAL.test(url)) {
      // the first deploy tells the Worker's address: the Worker needs it too, for file URLs and links
      url = reported;
      text = configText(template, plan, ids, { ...vars, FILES_BASE_URL: url, FRONTEND_URL: url }, email);
      writeConfig(root, text, [], log);
      log(`Deploying again with the Worker's own address (${url}) as FILES_BASE_URL and FRONTEND_URL...`);
      await stepDeploy(run, root, text, {}, log);
    }
  }
  const key = await stepPlatformApp(run, options.appName, changes);
  return { changes, url, key };
}

/** E-mail is on when a domain is given (or an earlier run had one): its zone, whether to turn routing on, and whether the catch-all needs routing. */
async function emailPlan(run, options, previous, worker, deployed) {
  const domain = options.emailDomain ?? previous?.vars.INBOUND_EMAIL_DOMAIN ?? "";
  if (!domain) return null;
  const zone = await emailZone(run, domain);
  if (!zone) {
    throw new StepFailure("e-mail routing", `No zone of this account holds ${domain}.`, `Add the domain to this Cloudflare account (or choose one it has with --email-domain), or turn e-mail off with --email-domain "".`);
  }
  const route = !(zone.enabled && deployed && (await catchAllRoutesTo(run, zone, worker)));
  return { domain, zone, route };
}

/** The vars this deployment sets: the address the Worker is reached at, and the e-mail domain and sender. */
function deployedVars({ template, options, previous, email }) {
  const local = (name) => template.match(new RegExp(`^${name} = "([^"]*)"$`, "m"))?.[1] ?? "";
  const earlier = (name) => (previous?.vars[name] && !LOCAL.test(previous.vars[name]) ? previous.vars[name] : undefined);
  const url = options.url ?? earlier("FILES_BASE_URL") ?? local("FILES_BASE_URL");
  return {
    FILES_BASE_URL: url,
    FRONTEND_URL: options.url ?? earlier("FRONTEND_URL") ?? url,
    INBOUND_EMAIL_DOMAIN: email?.domain ?? "",
    MAILER_SENDER_EMAIL: options.mailFrom ?? earlier("MAILER_SENDER_EMAIL") ?? (email ? `notifications@${email.domain}` : local("MAILER_SENDER_EMAIL")),
  };
}

/** The deploy configuration with the ids in `ids` (name → id); a database without one yet gets a placeholder. */
function configText(template, plan, ids, vars, email) {
  const id = (name) => ids.get(name) ?? "(created by this run)";
  const shardEntries = plan.databases.filter(({ binding }) => binding !== "DIRECTORY").map((db) => ({ ...db, id: id(db.name) }));
  const directory = plan.databases.find(({ binding }) => binding === "DIRECTORY");
  return deployConfigText(template, { directoryId: id(directory.name), shards: shardEntries, vars, addresses: email ? [`*@${email.zone.name}`] : [] });
}

/** Why a deploy is needed; none when the serving version is this checkout's, with every secret and route in place. */
function deployReasons({ plan, found, email, fingerprint }) {
  const reasons = [];
  if (found.tag === null) reasons.push("first deploy");
  else if (plan.newDatabases.length > 0) reasons.push("new databases");
  else if (fingerprint !== found.tag) reasons.push("the code or configuration changed");
  if (plan.missingSecrets.length > 0) reasons.push("secrets to set");
  if (email?.route && found.tag !== null) reasons.push("the e-mail route");
  return reasons;
}
