#!/usr/bin/env node
/**
 * Fails on import cycles, on imports across the house's layers and on a second door into the domain
 * (`npm run check:cycles`), four rules:
 *
 * 1. Files: no module of src/ reaches itself through its imports. Type-only imports count too: a
 *    cycle of types still ties two modules together (articles.ts and categories.ts once did that).
 * 2. Folders: the aggregates of src/domain (identity/, people/, contacts/, ...) depend on one another
 *    in one direction only. An import of another folder's rows.ts does not count: row types are
 *    declared from drizzle/schema.ts alone, import nothing of the domain, and may be read anywhere
 *    (kernel/scope.ts names the actors' rows, for one).
 * 3. Layers: the table LAYERS below says which parts of src/ a part may not import (a part is a folder
 *    or a top-level file of src/, or a package). The domain reaches effects only through its ports.
 * 4. One door: a transport hands the domain a scope, never the database or the environment. The
 *    request's database (`c.var.db`) is read only where the request's scopes are built (DOOR below), and
 *    no transport imports a function of src/domain whose first parameter is a `Database` or an `Env`.
 *
 * It checks the src/ of the directory it runs in: test/scripts/check-cycles-fixtures.mjs runs it on
 * small trees that break each rule, and `npm run check:cycles` runs both.
 *
 * Usage: node scripts/check-cycles.mjs [--ignore <path>]...
 *   --ignore leaves a file or folder out of both rules (its imports, and imports of it), for a part of
 *   the tree that is being reworked; the check is meant to run over all of src/.
 *
 * Imports are read from the source text (comments and strings skipped), and resolved as the bundler
 * resolves them: relative specifiers, with `.ts` or `/index.ts` added. Packages are not followed, but
 * their names count for rule 3.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const ROOT = resolve("src");
const DOMAIN = join(ROOT, "domain");

/**
 * Rule 3, one row per part: what it must not import, and why. Parts are named as under src/ ("jobs",
 * "ports.ts"); "package:hono" names a package (and its subpaths). Type-only imports count too.
 */
const LAYERS = [
  {
    part: "domain",
    mayNotImport: ["http", "routes", "schemas", "views", "events", "jobs", "webhooks", "realtime", "limits", "demo", "docs", "pages",
      "app.ts", "index.ts", "ports.ts", "package:hono", "package:hono-openapi", "package:@hono/zod-validator"],
    because: "the domain imports only domain/, db/ and drizzle/; effects go through its ports (domain/kernel/ports.ts)",
  },
  {
    part: "events",
    mayNotImport: ["views", "webhooks", "jobs", "realtime", "http", "routes", "ports.ts"],
    because: "events/ is the low-level way onto the queue: it renders nothing and knows no consumer",
  },
  {
    part: "realtime",
    mayNotImport: ["views", "jobs", "webhooks", "http", "routes", "ports.ts"],
    because: "a room sends the frames it is given; src/ports.ts renders them",
  },
  {
    part: "webhooks",
    mayNotImport: ["jobs", "realtime", "http", "routes", "ports.ts"],
    because: "deliveries are machinery the jobs use; jobs are entered only from the entry points",
  },
  {
    part: "views",
    mayNotImport: ["http", "routes", "schemas", "events", "jobs", "realtime", "ports.ts"],
    because: "views are pure functions from records to JSON (the delivery log's records come from webhooks/)",
  },
  {
    part: "http",
    mayNotImport: ["routes", "jobs", "app.ts", "index.ts"],
    because: "http/ is the plumbing routes share; jobs are entered only from index.ts",
  },
  {
    part: "routes",
    mayNotImport: ["db", "jobs", "ports.ts"],
    because: "a route hands the domain a scope from src/http/scopes.ts, never the database",
  },
  {
    part: "mcp",
    mayNotImport: ["db", "jobs", "ports.ts"],
    because: "an MCP tool is a route by another transport: it hands the domain a scope from src/http/scopes.ts",
  },
];

/**
 * Rule 4. `readsRequestDb`: the parts that may read the request's database (src/http opens it in
 * database.ts and builds the scopes in scopes.ts). `transports`: the parts that call the
 * domain. `tools`: modules of the domain that are the database's own tools (typed batches), not doors.
 */
const DOOR = {
  readsRequestDb: ["http"],
  transports: ["routes", "mcp", "http", "jobs", "realtime", "ports.ts", "app.ts", "index.ts"],
  tools: ["domain/kernel/batch.ts"],
  because: "the domain is entered with a scope built in src/http/scopes.ts or src/jobs/scope.ts, never with the database or env",
};

function parseArgs(argv) {
  const ignored = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--ignore" && argv[i + 1]) ignored.push(resolve(argv[++i]));
    else {
      console.error(`check-cycles: unknown argument ${argv[i]}\nusage: node scripts/check-cycles.mjs [--ignore <path>]...`);
      process.exit(2);
    }
  }
  return ignored;
}

const ignored = parseArgs(process.argv.slice(2));
const isIgnored = (file) => ignored.some((path) => file === path || file.startsWith(path + sep));
const show = (file) => relative(process.cwd(), file).split(sep).join("/");

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|tsx)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The source with comments blanked out and string contents kept, so that `// import x from "y"` is no import. */
function withoutComments(text) {
  let out = "";
  let i = 0;
  /** for each open template literal, the brace depth of the `${` that left it */
  const templates = [];
  let depth = 0;
  while (i < text.length) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (ch === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
      out += " ";
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== ch && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === "`" || (ch === "}" && templates.length > 0 && templates.at(-1) === depth)) {
      if (ch === "}") {
        templates.pop();
        depth--;
      }
      // inside a template literal: up to its end or to the next `${`
      let j = i + 1;
      while (j < text.length && text[j] !== "`" && !(text[j] === "$" && text[j + 1] === "{")) j += text[j] === "\\" ? 2 : 1;
      if (text[j] === "$") {
        depth++;
        templates.push(depth);
        out += text.slice(i, j + 2);
        i = j + 2;
      } else {
        out += text.slice(i, j + 1);
        i = j + 1;
      }
    } else {
      if (ch === "{") depth++;
      else if (ch === "}") depth--;
      out += ch;
      i++;
    }
  }
  return out;
}

const STATIC_IMPORT = /(?:^|[;}\n])\s*(import|export)\s+(type\s+)?([\w$*{},\s]*?)\s*from\s*["']([^"']+)["']/g;
const BARE_IMPORT = /(?:^|[;}\n])\s*import\s*["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

/** `{ type A, type B }` with nothing else imports types only. */
function onlyTypes(clause) {
  const named = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!named) return false;
  const parts = named[1].split(",").map((p) => p.trim()).filter(Boolean);
  return parts.length > 0 && parts.every((p) => p.startsWith("type "));
}

/** The values a clause imports by name: `{ a, type B, c as d }` -> ["a", "c"]. */
function valueNames(clause) {
  const named = /\{([^}]*)\}/.exec(clause);
  if (!named) return [];
  return named[1].split(",").map((p) => p.trim()).filter((p) => p && !p.startsWith("type ")).map((p) => p.split(/\s+as\s+/)[0]);
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.mts`, `${base}.tsx`, join(base, "index.ts")];
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  return found && found.startsWith(ROOT + sep) ? found : null;
}

/** file -> [{ target, typeOnly }] for the imports that stay inside src/; packages -> the package names imported. */
const packageImports = new Map();
const packageName = (specifier) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

function importGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const code = withoutComments(readFileSync(file, "utf8"));
    const imports = [];
    const packages = new Set();
    const add = (specifier, typeOnly, names = []) => {
      if (!specifier.startsWith(".")) return void packages.add(packageName(specifier));
      const target = resolveImport(file, specifier);
      if (target && !isIgnored(target)) imports.push({ target, typeOnly, names: typeOnly ? [] : names });
    };
    for (const m of code.matchAll(STATIC_IMPORT)) add(m[4], Boolean(m[2]) || onlyTypes(m[3]), valueNames(m[3]));
    for (const m of code.matchAll(BARE_IMPORT)) add(m[1], false);
    for (const m of code.matchAll(DYNAMIC_IMPORT)) add(m[1], false);
    graph.set(file, imports);
    packageImports.set(file, packages);
  }
  return graph;
}

/** Strongly connected components with more than one node, or with a node importing itself (Tarjan). */
function cyclicComponents(edges) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node)?.has(node)) components.push(component);
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** One concrete loop through a component, for the message: start -> ... -> start. */
function loopIn(component, edges) {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

const files = sourceFiles(ROOT).filter((file) => !isIgnored(file)).sort();
const graph = importGraph(files);
const problems = [];

// 1. files
const fileEdges = new Map(files.map((file) => [file, new Set(graph.get(file).map((i) => i.target))]));
for (const component of cyclicComponents(fileEdges)) {
  problems.push(`files: ${loopIn(component, fileEdges).map(show).join(" -> ")}`);
}

// 2. folders of src/domain
/** The aggregate folder of a module of src/domain (null outside them). */
function folderOf(file) {
  const parts = file.startsWith(DOMAIN + sep) ? relative(DOMAIN, file).split(sep) : [];
  return parts.length > 1 ? parts[0] : null;
}
const isRowTypes = (file) => file.endsWith(`${sep}rows.ts`);
const folderEdges = new Map();
const witnesses = new Map();
for (const [file, imports] of graph) {
  const from = folderOf(file);
  if (!from) continue;
  if (!folderEdges.has(from)) folderEdges.set(from, new Set());
  for (const { target } of imports) {
    const to = folderOf(target);
    if (!to || to === from || isRowTypes(target)) continue;
    folderEdges.get(from).add(to);
    const key = `${from}>${to}`;
    if (!witnesses.has(key)) witnesses.set(key, `${show(file)} imports ${show(target)}`);
  }
}
for (const component of cyclicComponents(folderEdges)) {
  const loop = loopIn(component, folderEdges);
  const because = loop.slice(1).map((to, i) => `  ${witnesses.get(`${loop[i]}>${to}`)}`);
  problems.push(`domain folders: ${loop.join(" -> ")}\n${because.join("\n")}`);
}

// 3. layers
/** The part of src/ a file belongs to: its first folder under src/, or its own name for a top-level file. */
const partOf = (file) => relative(ROOT, file).split(sep)[0];
for (const [file, imports] of graph) {
  const rules = LAYERS.filter((rule) => rule.part === partOf(file));
  for (const rule of rules) {
    const reached = [
      ...imports.map(({ target }) => ({ name: partOf(target), shown: show(target) })),
      ...[...packageImports.get(file)].map((name) => ({ name: `package:${name}`, shown: `the package ${name}` })),
    ];
    for (const { name, shown } of reached) {
      if (rule.mayNotImport.includes(name)) problems.push(`layers: ${show(file)} imports ${shown}: ${rule.because}`);
    }
  }
}

// 4. one door
const sourceText = new Map(files.map((file) => [file, withoutComments(readFileSync(file, "utf8"))]));
/** Whether `name` is exported from `file` as a function whose first parameter is a Database or an Env. */
const takesDatabase = (file, name) =>
  new RegExp(`export\\s+(?:async\\s+)?function\\s+${name}\\s*(?:<[^>]*>)?\\(\\s*\\w+\\s*:\\s*(?:Database|Env)\\b`).test(sourceText.get(file)) ||
  new RegExp(`export\\s+const\\s+${name}\\s*=\\s*(?:async\\s*)?\\(\\s*\\w+\\s*:\\s*(?:Database|Env)\\b`).test(sourceText.get(file));
const isDomain = (file) => file.startsWith(DOMAIN + sep) && !DOOR.tools.includes(relative(ROOT, file).split(sep).join("/"));
for (const [file, imports] of graph) {
  const part = partOf(file);
  if (!DOOR.readsRequestDb.includes(part) && /\.var\.db\b/.test(sourceText.get(file))) {
    problems.push(`one door: ${show(file)} reads the request's database (.var.db): ${DOOR.because}`);
  }
  if (!DOOR.transports.includes(part)) continue;
  for (const { target, names } of imports) {
    if (!isDomain(target)) continue;
    for (const name of names.filter((n) => takesDatabase(target, n))) {
      problems.push(`one door: ${show(file)} calls ${name} of ${show(target)}, which takes a Database or an Env first: ${DOOR.because}`);
    }
  }
}

if (problems.length > 0) {
  console.error(`Import cycles, layer breaches and second doors (${problems.length}):\n${problems.map((p) => `- ${p}`).join("\n")}`);
  process.exit(1);
}
const scope = ignored.length > 0 ? ` (ignoring ${ignored.map(show).join(", ")})` : "";
console.log(`No import cycles, no layer breaches and one door: ${files.length} files of src/, ${folderEdges.size} folders of src/domain, ${LAYERS.length} layer rules${scope}.`);
