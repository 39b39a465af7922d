#!/usr/bin/env node
// The self-check page's reader and marking rules under Node, for tests/test_self_check_reader.py.
//
//   node tests/self_check_node.js   (one JSON request per line on stdin, one answer per line)
//
// {"read": TEXT}  →  {"empty": true} | {"ok": false} |
//                    {"ok": true, "value": "…", "radius": "…", "places": N|null}
// {"mark": TEXT, "expected": DECIMAL, "places": N|null}  →  {"status": …, "note": …} | null
// {"diagnose": [[i, j, TEXT], …], "key": MATRIX, "mistakes": [{id, weaker, values}],
//  "places": N|null}  →  ["id", …]
"use strict";

const path = require("path");
const readline = require("readline");

const assets = path.join(__dirname, "..", "symattn", "exercises");
const R = require(path.join(assets, "self_check_reader.js"));
const { rules } = require(path.join(assets, "self_check.js"));

function matrix(rows) {
  return rows.map((row) => row.map(R.parseDecimal));
}

function answer(request) {
  if ("read" in request) {
    const got = R.readEntry(request.read);
    if (got === null) return { empty: true };
    if (!got.ok) return { ok: false };
    const r = got.reading;
    return { ok: true, value: r.value.toString(), radius: r.radius.toString(), places: r.places };
  }
  const marking = rules(R, request.places);
  if ("mark" in request) {
    const entry = marking.mark(request.mark, R.parseDecimal(request.expected));
    return entry === null ? null : { status: entry.status, note: entry.note };
  }
  const entries = request.diagnose.map(([i, j, text]) => ({
    i,
    j,
    ...marking.mark(text, R.parseDecimal(request.key[i][j])),
  }));
  const mistakes = request.mistakes
    .filter((m) => m.values) // a mistake named without its numbers: not for these rules
    .map((m) => ({ ...m, values: matrix(m.values) }));
  return marking.diagnose(entries, mistakes).map((m) => m.id);
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let out;
  try {
    out = answer(JSON.parse(line));
  } catch (error) {
    out = { error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
});
