#!/usr/bin/env node
// npm run setup -- --remote [--dry-run] [--shards N] [--url URL] [--email-domain DOMAIN] [--mail-from ADDRESS] [--app-name NAME]
//
// From a signed-in Cloudflare account to a running edgedesk (docs/deploying.md): creates what the account
// lacks (the directory and the shard pool, the queue and its dead-letter queue, the bucket, the e-mail
// route), writes wrangler.deploy.toml with their ids, sets the secrets, migrates every database, deploys,
// and makes the first platform app. Run again, it changes nothing; --dry-run prints the plan only.
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { wranglerRun, root } from "./lib/wrangler.mjs";
import { UsageError, parseSetupArgs } from "./setup/options.mjs";
import { setup } from "./setup/setup.mjs";

let options;
try {
  options = parseSetupArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(error.message);
  process.exit(2);
}

/** Asks on the terminal; a secret's answer is not echoed. No terminal (CI): no answer. */
async function ask(question, { secret = false } = {}) {
  if (!process.stdin.isTTY) return null;
  let muted = false;
  const output = new Writable({
    write(chunk, encoding, done) {
      if (!muted) process.stdout.write(chunk, encoding);
      done();
    },
  });
  const terminal = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = terminal.question(question);
    muted = secret;
    return await answer;
  } finally {
    terminal.close();
    if (secret) process.stdout.write("\n");
  }
}

process.exitCode = await setup({ root, options, run: wranglerRun, env: process.env, ask, log: (line) => console.log(line) });
