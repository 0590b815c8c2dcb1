// A step of the setup that failed: its name, what wrangler said, and how to go on. Every step is
// idempotent, so going on is always running the same command again once the cause is fixed; some
// causes need something done first, which `hint` says.

export class StepFailure extends Error {
  /** @param {string} step the step's name, as the plan prints it; @param {string} detail; @param {string} [hint] */
  constructor(step, detail, hint) {
    super(detail);
    this.step = step;
    this.hint = hint;
  }
}

/** The last lines wrangler printed, enough to see why it failed without its banners. */
export function tail(result, lines = 12) {
  const text = `${result.stdout ?? ""}\n${result.stderr ?? ""}`.trim();
  return text.split("\n").filter((line) => line.trim()).slice(-lines).join("\n");
}

/**
 * Runs `wrangler <args>` for the step `step` and answers its output; a non-zero exit is a StepFailure
 * naming the step and the command.
 */
export async function wranglerStep(run, step, args, options) {
  const result = await run(args, options);
  if (result.code !== 0) throw new StepFailure(step, `\`wrangler ${args.join(" ")}\` failed:\n${tail(result)}`);
  return result.stdout;
}

/** What a failure prints: the step, its cause, and how to continue. */
export function describeFailure(failure, rerun) {
  return [
    `Setup stopped at step "${failure.step}".`,
    failure.message,
    ...(failure.hint ? [failure.hint] : []),
    `What was done before this step is kept; to continue, fix the cause and run again: ${rerun}`,
  ].join("\n");
}
