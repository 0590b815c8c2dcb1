#!/usr/bin/env node
// Every relative link of the documentation lands: README.md, docs/*.md and bench/README.md, checked by
// `npm run check:links` (in npm test's first stage). A link names a file that exists and, with a
// `#anchor`, a heading of that file, spelt as GitHub makes anchors of headings. Links with a scheme
// (https:, mailto:) and text inside code (fenced blocks, `spans`) are not checked.
//
// Usage: node scripts/check-links.mjs [root]   (the root defaults to the current directory)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const root = process.argv[2] ?? ".";

/** The documentation files, relative to the root. */
function documents() {
  const docs = existsSync(join(root, "docs")) ? readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`) : [];
  return ["README.md", ...docs, "bench/README.md"].filter((f) => existsSync(join(root, f)));
}

/** The file's lines, those inside fenced code blocks blanked, so neither their links nor headings count. */
function proseLines(text) {
  let fence = null;
  return text.split("\n").map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
      return "";
    }
    if (opening) {
      fence = opening[1];
      return "";
    }
    return line;
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(text) {
  const seen = new Map();
  const found = new Set();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const plain = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = plain.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

const anchorCache = new Map();
function anchorsOf(file) {
  if (!anchorCache.has(file)) anchorCache.set(file, anchors(readFileSync(join(root, file), "utf8")));
  return anchorCache.get(file);
}

const problems = [];
for (const file of documents()) {
  proseLines(readFileSync(join(root, file), "utf8")).forEach((line, index) => {
    const prose = line.replace(/(`+)[^`]*?\1/g, "");
    for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
      const [path, anchor] = target.split("#", 2);
      const linked = path === "" ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      const where = `${file}:${index + 1}: ${target}`;
      if (linked.startsWith("..") || !existsSync(join(root, linked))) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (anchor !== undefined && linked.endsWith(".md") && !anchorsOf(linked).has(decodeURIComponent(anchor).toLowerCase())) {
        problems.push(`${where}: no heading ${anchor} in ${relative(".", linked)}`);
      }
    }
  });
}

if (problems.length > 0) {
  console.error(`Relative links that point nowhere:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`check-links: every relative link of ${documents().length} documents lands`);
