#!/usr/bin/env node
// The self-check page's marking under Node, for tests/test_page_marking.py.
//
//   node tests/self_check_marking_node.js   (one JSON request per line on stdin)
//
// {"rules": DATA, "places": N|null}  →  {"ok": true}   (the page's marking data, as embedded)
// {"sheet": {step: [[TEXT|null, …], …]}}  →  {step: {status, entries, diagnosis, …}}
//   (grids as the page shows them; the marking of the last rules given)
"use strict";

const path = require("path");
const readline = require("readline");

const assets = path.join(__dirname, "..", "symattn", "exercises");
const R = require(path.join(assets, "self_check_reader.js"));
const { marking } = require(path.join(assets, "self_check_marking.js"));

let current = null;

function cell(text) {
  if (text === null) return null;
  const read = R.readEntry(text);
  if (read === null) return null;
  return { text, reading: read.ok ? read.reading : null };
}

function answer(request) {
  if ("rules" in request) {
    current = marking(R, request.rules, request.places);
    return { ok: true };
  }
  const sheet = {};
  for (const [step, grid] of Object.entries(request.sheet)) {
    sheet[step] = grid.map((row) => row.map(cell));
  }
  return current.markSheet(sheet);
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
