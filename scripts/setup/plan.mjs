// What the setup will do, decided from what the account has (account.mjs) before anything changes:
// `--dry-run` prints it and stops; a real run prints it and carries it out (setup.mjs).
import { shardBinding, shardDatabaseName } from "../lib/shards.mjs";
import { StepFailure } from "./failure.mjs";
import { secretOrigin } from "./secrets.mjs";

/** The pool a new install gets without --shards: what wrangler.toml has always declared. */
export const DEFAULT_SHARDS = 16;

/** The shards SHARD_00 … the account holds without a gap (a gap ends a pool, as in the Worker). */
const contiguousShards = (databases) => {
  let count = 0;
  while (databases.has(shardDatabaseName(count))) count += 1;
  return count;
};

/**
 * The pool this run sets up. A new install (no directory yet) takes --shards or the default; an
 * installed one keeps its pool (the earlier run's record, else the shards the account holds) or grows to
 * --shards. It never shrinks: every shard may hold accounts.
 */
export function poolSize({ requested, previous, databases, directory }) {
  if (!databases.has(directory)) return requested ?? previous?.shards ?? DEFAULT_SHARDS;
  const installed = previous?.shards ?? contiguousShards(databases);
  if (requested !== null && requested < installed) {
    throw new StepFailure(
      "shard pool",
      `This deployment has ${installed} shards; --shards ${requested} would drop shards that hold accounts, and a pool never shrinks.`,
      `Run without --shards to keep ${installed}, or give ${installed} or more to grow the pool.`,
    );
  }
  return requested ?? installed;
}

/** The databases of a pool of `shards`: each shard, then the directory last, so a directory means a whole pool. */
export function poolDatabases(names, shards) {
  return [
    ...Array.from({ length: shards }, (_, n) => ({ binding: shardBinding(n), name: shardDatabaseName(n) })),
    { binding: "DIRECTORY", name: names.directory },
  ];
}

/**
 * The plan: the pool, what to create, which secrets the Worker lacks (with where each value will come
 * from), and the e-mail route. `found` is the account's inventory.
 */
export function planSetup({ names, shards, found, email, wanted, env }) {
  const databases = poolDatabases(names, shards);
  const missingSecrets = wanted
    .filter((secret) => !found.secrets.has(secret.name))
    .map((secret) => ({ ...secret, origin: secretOrigin(secret, env) }))
    .filter((secret) => secret.origin);
  return {
    shards,
    databases,
    newDatabases: databases.filter(({ name }) => !found.databases.has(name)),
    // the dead-letter queue first: the consumer names it
    newQueues: [names.deadLetterQueue, names.queue].filter((queue) => !found.queues.has(queue)),
    newBucket: !found.buckets.has(names.bucket),
    email,
    missingSecrets,
  };
}

/** The plan as lines a person reads: one per step, what it will do or that it has nothing to do. */
export function describePlan(plan, { worker, configChanges, deployNeeded, deployReason }) {
  const list = (items) => items.join(", ");
  const kept = plan.databases.length - plan.newDatabases.length;
  const lines = [
    `  databases     ${plan.newDatabases.length ? `create ${list(plan.newDatabases.map(({ name }) => name))}` : "nothing to create"}${kept ? ` (${kept} in place)` : ""}; pool: the directory and ${plan.shards} shard${plan.shards === 1 ? "" : "s"}`,
    `  queues        ${plan.newQueues.length ? `create ${list(plan.newQueues)}` : "nothing to create"}`,
    `  bucket        ${plan.newBucket ? "create it" : "nothing to create"}`,
    `  e-mail        ${describeEmail(plan.email, worker)}`,
    `  configuration ${configChanges ? "write wrangler.deploy.toml with the ids and addresses" : "wrangler.deploy.toml is up to date"}`,
    `  secrets       ${plan.missingSecrets.length ? list(plan.missingSecrets.map(({ name, origin }) => `${name} (${origin})`)) : "nothing to set"}`,
    `  migrations    ${list([...(plan.newDatabases.length ? [`all of them on the new databases`] : []), ...(kept ? [`whatever the ${kept} databases in place lack (checked when it runs)`] : [])])}`,
    `  deploy        ${deployNeeded ? `deploy ${worker} (${deployReason})` : "nothing to deploy: the serving version is this checkout's"}`,
    `  platform app  create the first one and print its key, unless the directory has one (checked when it runs)`,
  ];
  return lines;
}

function describeEmail(email, worker) {
  if (!email) return "off (no --email-domain): nothing to route";
  const steps = [];
  if (!email.zone.enabled) steps.push(`turn Email Routing on for ${email.zone.name}`);
  if (email.route) steps.push(`route *@${email.zone.name} to ${worker} (applied by the deploy)`);
  return steps.length ? steps.join("; ") : `*@${email.zone.name} already goes to ${worker}`;
}
