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
// {"gather": [{step, row, col, value}], "shapes": {step: [rows, cols]}}  →  {step: grid}
// {"answers_file": GRIDS, "page_id": ID|null, "order": [step, …]}  →  the file's text
// {"keep": GRIDS, "key": KEY, "storage": "memory"|"refusing"|RAW}  →  {saved, restored}
//   (a fresh storage: one that works, one that throws as a browser that keeps nothing
//   does, or one already holding the string RAW under KEY)
"use strict";

const path = require("path");
const readline = require("readline");

const assets = path.join(__dirname, "..", "symattn", "exercises");
const R = require(path.join(assets, "self_check_reader.js"));
const page = require(path.join(assets, "self_check.js"));
const { rules } = page;

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
  if ("gather" in request) return page.gather(request.gather, request.shapes);
  if ("answers_file" in request) {
    return page.answersFile(request.page_id, request.answers_file, request.order);
  }
  if ("keep" in request) {
    const held = new Map();
    const refusing = request.storage === "refusing";
    if (!["memory", "refusing"].includes(request.storage)) held.set(request.key, request.storage);
    const storage = {
      setItem(k, v) {
        if (refusing) throw new Error("QuotaExceededError");
        held.set(k, String(v));
      },
      getItem(k) {
        if (refusing) throw new Error("SecurityError");
        return held.has(k) ? held.get(k) : null;
      },
      removeItem(k) {
        held.delete(k);
      },
    };
    const saved = request.keep === null ? null : page.save(storage, request.key, request.keep);
    return { saved, restored: page.restore(storage, request.key) };
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
