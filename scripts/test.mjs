#!/usr/bin/env node
// npm test: every check and test suite, arranged for a 2-core machine (README "The two commands";
// docs/development.md "Tests").
//
// The quick checks go first, so a stale type file, an import cycle or a documentation link that points
// nowhere fails in seconds. Then everything else runs at once: the Workers suite keeps both cores busy
// most of the time, and the end-to-end suite mostly waits for `npm start` servers to come up, so the two
// together take little more than the Workers suite alone; the type check, the libSQL suite and the
// scripts' tests (`npm run setup` against a stand-in wrangler) fill the gaps.
//
// Output of a step that runs beside another is held back and printed whole when it ends. The run stops
// at the first stage with a failed step; the last line counts the steps.
import { spawn } from "node:child_process";

const stages = [
  ["check:cycles", "check:links", "check:worker-types"],
  ["test:unit", "test:e2e", "typecheck", "test:libsql", "test:scripts"],
];

let passed = 0;
let failed = 0;

function run(script, streamed) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npm", ["run", "--silent", script], { stdio: streamed ? "inherit" : ["ignore", "pipe", "pipe"] });
    let output = "";
    if (!streamed) {
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
    }
    child.on("close", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      if (!streamed) process.stdout.write(output);
      console.log(`${code === 0 ? "ok" : "FAILED"}: npm run ${script} (${seconds} s)\n`);
      if (code === 0) passed++;
      else failed++;
      resolve(code === 0);
    });
  });
}

for (const stage of stages) {
  const results = await Promise.all(stage.map((script) => run(script, stage.length === 1 || script === stage[0])));
  if (results.includes(false)) break;
}
console.log(`steps: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed === stages.flat().length ? 0 : 1);
