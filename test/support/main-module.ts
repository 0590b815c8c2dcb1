/**
 * A setup file: keeps the Worker's main module once it is loaded.
 *
 * The Workers test pool imports the main module (src/index.ts, wrangler.toml's `main`) again each time a
 * request or a Durable Object call enters the Worker, and each import first asks the vitest process,
 * over its socket, to resolve the path through Vite's plugins. The module is loaded once per isolate
 * and never changes during a run, so those lookups only cost CPU: a third of it in a stream of requests.
 * This wraps the pool's module runner (`__vitest_mocker__.moduleRunner`, an internal of
 * @cloudflare/vitest-plugin) to answer that one path from the first import, for as long as the runner
 * still holds the module evaluated (a `vi.resetModules()` would drop it, and it is loaded anew). If a
 * later version of the pool moves the runner, nothing is kept and the tests run as before, only slower.
 */
const MAIN_MODULE = new URL("../../src/index.ts", import.meta.url).pathname;

type ModuleRunner = {
  import(id: string): Promise<unknown>;
  evaluatedModules?: { getModulesByFile(file: string): Set<{ evaluated: boolean }> | undefined };
  mainModuleKept?: boolean;
};
const runner = (globalThis as { __vitest_mocker__?: { moduleRunner?: ModuleRunner } }).__vitest_mocker__?.moduleRunner;

if (runner && !runner.mainModuleKept) {
  const load = runner.import.bind(runner);
  const stillEvaluated = () => [...(runner.evaluatedModules?.getModulesByFile(MAIN_MODULE) ?? [])].some((node) => node.evaluated);
  let main: Promise<unknown> | null = null;
  runner.import = (id: string) => {
    if (id !== MAIN_MODULE) return load(id);
    if (!main || !stillEvaluated()) {
      main = load(id).catch((error: unknown) => {
        main = null; // a failed load is tried again next time
        throw error;
      });
    }
    return main;
  };
  runner.mainModuleKept = true;
}
