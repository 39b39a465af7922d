#!/usr/bin/env node
// Render math fragments with KaTeX; used by tests/test_markdown_katex.py.
//
//   node tests/katex_render.js FRAGMENTS.json
//
// FRAGMENTS.json is a list of {"id": ..., "tex": "...", "display": true|false}.
// Each fragment is rendered with
//   katex.renderToString(tex, {displayMode: display, throwOnError: true, strict: "ignore"})
// and one JSON object is written to stdout:
//   {"katex": VERSION, "katex_path": PATH, "rendered": N,
//    "failures": [{"id": ..., "error": "..."}],
//    "warnings": [{"id": ..., "code": "...", "message": "..."}]}
// "warnings" are what KaTeX's strict mode would complain about; they are only
// collected (the strict setting is still "ignore"), never counted as failures.
//
// KaTeX is found in $SYMATTN_KATEX_DIR/node_modules/katex when that variable is set,
// else by Node's own resolution (node_modules folders above this file, NODE_PATH).
// When it cannot be found the script prints {"missing": "..."} and exits with 3; when
// SYMATTN_KATEX_DIR is set but holds no KaTeX it prints {"misconfigured": "..."} and
// exits with 4 (the test then fails instead of skipping).
"use strict";

const fs = require("fs");
const path = require("path");

function locateKatex() {
  const tried = [];
  const dir = process.env.SYMATTN_KATEX_DIR;
  if (dir) {
    // Set on purpose (as .ci/run does): a wrong folder is an error, not a skip.
    const candidate = path.resolve(dir, "node_modules", "katex");
    try {
      return require.resolve(candidate);
    } catch (e) {
      return { misconfigured: "SYMATTN_KATEX_DIR=" + dir + " but " + candidate + " is not there" };
    }
  }
  const searchPaths = [__dirname, process.cwd()].concat(
    (process.env.NODE_PATH || "").split(path.delimiter).filter(Boolean)
  );
  try {
    return require.resolve("katex", { paths: searchPaths });
  } catch (e) {
    tried.push("require.resolve('katex') from " + searchPaths.join(", "));
  }
  return { missing: "KaTeX not found; tried " + tried.join("; ") };
}

function main() {
  const input = process.argv[2];
  if (!input) {
    process.stderr.write("usage: node katex_render.js FRAGMENTS.json\n");
    process.exit(2);
  }
  const found = locateKatex();
  if (typeof found !== "string") {
    process.stdout.write(JSON.stringify(found) + "\n");
    process.exit(found.misconfigured ? 4 : 3);
  }
  const katex = require(found);
  const fragments = JSON.parse(fs.readFileSync(input, "utf8"));
  const failures = [];
  const warnings = [];
  for (const fragment of fragments) {
    const strict = (code, message) => {
      warnings.push({ id: fragment.id, code: String(code), message: String(message) });
      return "ignore";
    };
    try {
      const html = katex.renderToString(fragment.tex, {
        displayMode: Boolean(fragment.display),
        throwOnError: true,
        strict: strict,
      });
      if (typeof html !== "string" || html.length === 0) {
        failures.push({ id: fragment.id, error: "KaTeX returned no HTML" });
      }
    } catch (e) {
      failures.push({ id: fragment.id, error: String((e && e.message) || e) });
    }
  }
  process.stdout.write(
    JSON.stringify({
      katex: katex.version,
      katex_path: found,
      rendered: fragments.length,
      failures: failures,
      warnings: warnings,
    }) + "\n"
  );
}

main();
