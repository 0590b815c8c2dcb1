// Fills public/ with the browser files the Worker serves as static assets (wrangler.toml [assets]), so
// every page loads its scripts from the Worker's own origin and works without the internet. Runs after
// every `npm install` (postinstall) and as `npm run build:widget`; the files are generated, not committed.
//
// - public/vendor/: browser builds of installed packages, copied as they are;
// - public/packs/: the website widget written here (widget/, docs/widget.md): the loader a host page
//   embeds (packs/js/sdk.js) and the app of the /widget page (packs/js/widget.js, packs/css/widget.css),
//   bundled and minified with esbuild.
import { copyFileSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Served at /vendor/<name>: the file of an installed package it is copied from. */
export const VENDOR_FILES = {
  // the API reference page (/docs): Scalar's single-file build, which needs no further chunks
  "scalar-api-reference.js": "node_modules/@scalar/api-reference/dist/browser/standalone.js",
  // the agent demo (/agent-demo): the ActionCable client Chatwoot's own apps use
  "actioncable.js": "node_modules/@rails/actioncable/app/assets/javascripts/actioncable.js",
};

/** Served at /packs/<name>: the widget's entry point it is built from. */
export const WIDGET_FILES = {
  // an IIFE: host pages load it with a plain <script>, from any origin
  "js/sdk.js": { entry: "widget/loader/index.ts", format: "iife" },
  // a module: the /widget page loads it with <script type="module">
  "js/widget.js": { entry: "widget/app/main.ts", format: "esm" },
  "css/widget.css": { entry: "widget/app/styles/widget.css" },
};

const unchanged = (from, to) => {
  try {
    const a = statSync(from);
    const b = statSync(to);
    return a.size === b.size && a.mtimeMs <= b.mtimeMs;
  } catch {
    return false;
  }
};

export function copyVendorFiles() {
  for (const [name, source] of Object.entries(VENDOR_FILES)) {
    const from = join(root, source);
    const to = join(root, "public", "vendor", name);
    if (unchanged(from, to)) continue;
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
}

/** Writes `bytes` to `path` unless it holds them already; through a rename, so a server reading it never sees half a file. */
function replaceFile(path, bytes) {
  try {
    if (Buffer.compare(readFileSync(path), bytes) === 0) return;
  } catch {
    // not there yet
  }
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, path);
}

/**
 * Builds public/packs/ from widget/. esbuild is a devDependency: an install without them (`npm install
 * --omit=dev`) skips the build with a note instead of failing, and deploys need a full install. `npm
 * start` builds too (several test servers may start at once: files change only when their bytes do).
 */
export async function buildWidget() {
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    console.warn("page-assets: esbuild is not installed (devDependency), public/packs/ not built");
    return;
  }
  const results = await Promise.all(
    Object.entries(WIDGET_FILES).map(([name, { entry, format }]) =>
      esbuild.build({
        entryPoints: [join(root, entry)],
        outfile: join(root, "public", "packs", name),
        bundle: true,
        minify: true,
        format,
        // the browsers of the last few years: keeps optional chaining and classes as they are (smaller)
        target: ["es2020", "chrome90", "firefox90", "safari15"],
        // the loader's own stylesheet is a string it injects into the host page
        loader: { ".css": name.endsWith(".css") ? "css" : "text", ".svg": "text" },
        legalComments: "none",
        logLevel: "warning",
        write: false,
      }),
    ),
  );
  for (const { outputFiles } of results) for (const file of outputFiles) replaceFile(file.path, Buffer.from(file.contents));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  copyVendorFiles();
  await buildWidget();
}
