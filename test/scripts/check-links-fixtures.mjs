#!/usr/bin/env node
/**
 * Proves scripts/check-links.mjs can fail: it runs the checker on small documentation trees written to a
 * temporary directory, one per kind of broken link, and on a clean tree that must pass. Run by
 * `npm run check:links` after the check of the real tree.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const CHECKER = resolve("scripts/check-links.mjs");

/** A tree whose every relative link lands; each case below breaks one by replacing a file. */
const CLEAN = {
  "README.md": [
    "# Project",
    "See [the API](docs/api.md), [its errors](docs/api.md#errors-and-their-codes), [below](#the-map) and [the bench](bench/README.md).",
    "Outside links are not checked: [a site](https://example.com/missing), [mail](mailto:a@example.com).",
    "In code a link is text: `[x](nowhere.md)` and",
    "```md",
    "[y](nowhere.md#at-all)",
    "```",
    "## The map",
  ].join("\n"),
  "docs/api.md": "# The API\n\nBack to the [tour](../README.md#the-map).\n\n## Errors and their codes\n\n## Errors and their codes\n\nThe second: [again](#errors-and-their-codes-1).\n",
  "bench/README.md": "# Benchmarks\n\nSee [shards](../docs/api.md#the-api).\n",
};

const CASES = [
  { name: "a clean tree", files: {}, fails: false },
  { name: "a link to a missing file", files: { "docs/api.md": "# The API\n\n[gone](limits.md)\n" }, fails: "docs/api.md:3: limits.md: no such file" },
  {
    name: "a link to a missing heading of another file",
    files: { "bench/README.md": "# Benchmarks\n\n[x](../docs/api.md#errors)\n" },
    fails: "bench/README.md:3: ../docs/api.md#errors: no heading errors in docs/api.md",
  },
  {
    name: "a link to a missing heading of the same file",
    files: { "docs/api.md": "# The API\n\n[x](#the-api-reference)\n" },
    fails: "docs/api.md:3: #the-api-reference: no heading the-api-reference in docs/api.md",
  },
  {
    name: "a heading that is only in a code block",
    files: { "docs/api.md": "# The API\n\n[x](#not-a-heading)\n\n```sh\n# not a heading\n```\n" },
    fails: "docs/api.md:3: #not-a-heading: no heading not-a-heading in docs/api.md",
  },
];

let failures = 0;
for (const { name, files, fails } of CASES) {
  const root = mkdtempSync(join(tmpdir(), "check-links-"));
  try {
    for (const [path, text] of Object.entries({ ...CLEAN, ...files })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const run = spawnSync(process.execPath, [CHECKER, root], { encoding: "utf8" });
    const output = `${run.stdout}${run.stderr}`;
    const ok = fails === false ? run.status === 0 : run.status !== 0 && output.includes(fails);
    if (!ok) {
      failures++;
      console.error(`check-links fixture "${name}": expected ${fails === false ? "a pass" : `a failure naming "${fails}"`}, got status ${run.status}:\n${output}`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
if (failures > 0) process.exit(1);
console.log(`check-links fixtures: ${CASES.length} trees, each judged as expected`);
