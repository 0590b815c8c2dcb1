// The setup's command line (docs/deploying.md): what a person may choose; everything else is read from
// the account and from wrangler.toml.
import { parseArgs } from "node:util";
import { MAX_SHARDS } from "../lib/shards.mjs";

export const USAGE = `usage: npm run setup -- --remote [--dry-run] [--shards N] [--url URL] [--email-domain DOMAIN] [--mail-from ADDRESS] [--app-name NAME]`;

/** A command line the setup refuses before it touches anything. */
export class UsageError extends Error {}

/**
 * Reads the setup's arguments. `shards` is null unless given: a new install then takes the default pool,
 * an existing one keeps its own.
 */
export function parseSetupArgs(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        remote: { type: "boolean", default: false },
        "dry-run": { type: "boolean", default: false },
        shards: { type: "string" },
        url: { type: "string" },
        "email-domain": { type: "string" },
        "mail-from": { type: "string" },
        "app-name": { type: "string", default: "Platform app" },
      },
    }));
  } catch (error) {
    throw new UsageError(`${error.message}\n${USAGE}`);
  }
  if (!values.remote) {
    throw new UsageError(`setup works on Cloudflare only: add --remote (locally, \`npm start\` sets up everything it serves)\n${USAGE}`);
  }
  const shards = values.shards === undefined ? null : Number(values.shards);
  if (shards !== null && !(Number.isInteger(shards) && shards >= 1 && shards <= MAX_SHARDS)) {
    throw new UsageError(`--shards must be 1 to ${MAX_SHARDS}, got ${values.shards}`);
  }
  if (values.url !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(values.url)) {
    throw new UsageError(`--url must be an address like https://desk.example.com, got ${values.url}`);
  }
  if (values["email-domain"] !== undefined && !/^([a-z0-9-]+\.)+[a-z]{2,}$|^$/i.test(values["email-domain"])) {
    throw new UsageError(`--email-domain must be a domain like inbound.example.com (or "" to turn e-mail off), got ${values["email-domain"]}`);
  }
  if (!values["app-name"].trim()) throw new UsageError("--app-name must not be empty");
  return {
    dryRun: values["dry-run"],
    shards,
    url: values.url?.replace(/\/$/, ""),
    emailDomain: values["email-domain"]?.toLowerCase(),
    mailFrom: values["mail-from"],
    appName: values["app-name"].trim(),
  };
}

/** The command that repeats this run, for the "to continue" line of a failure. */
export function rerunCommand(options) {
  const parts = ["npm run setup -- --remote"];
  if (options.shards !== null) parts.push(`--shards ${options.shards}`);
  if (options.url) parts.push(`--url ${options.url}`);
  if (options.emailDomain !== undefined) parts.push(`--email-domain ${options.emailDomain || '""'}`);
  if (options.mailFrom) parts.push(`--mail-from ${options.mailFrom}`);
  if (options.appName !== "Platform app") parts.push(`--app-name ${JSON.stringify(options.appName)}`);
  return parts.join(" ");
}
