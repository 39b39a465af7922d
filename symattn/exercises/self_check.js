/* symattn: the self-check page, marking each entry as it is typed.
 *
 * The rules (rules(), which Node also loads for the tests) are those of `symattn check`
 * (symattn/check/marking.py, compare.py and diagnose.py): an entry is read by
 * SymattnReader (the port of symattn's reader); it is `ok` when it is within one unit of
 * its last written place of the key (with places asked, of the asked place when it has
 * at least as many; an exact answer: equal, within 1e-30), the
 * difference taken to 28 digits as Python's default decimal context takes it;
 * `too_coarse` when it is right but written with fewer places than asked and not exactly
 * the key; `invalid` when it cannot be read; `wrong` otherwise.  A step with a wrong entry
 * is explained by each mistake model whose values fit every entry typed in the step (and
 * the key does not); weaker models only when no other fits.  The key's values and the
 * mistakes' values come from the page's data.  These key-only rules mark a page whose plan
 * has a kind of step that self_check_marking.js cannot evaluate; every other page is marked
 * by self_check_marking.js, from the student's own earlier numbers as `check` marks them.
 */
(function (root) {
  "use strict";
  const DIGITS = 28; // the precision of check's comparisons
  const MARKS = { ok: "✓", wrong: "✗", too_coarse: "✗", invalid: "?", carried: "↪" };

  /** The rules of marking, given the reader R and the decimal places asked (or null). */
  function rules(R, places) {
    const EXACT = R.parseDecimal("1E-30"); // compare.EXACT_TOLERANCE
    const CLOSE = R.parseDecimal("0.05"); // marking.CLOSE

    function distance(value, expected) {
      return R.abs(R.sub(value, expected, DIGITS));
    }

    /** compare.close: within the reading's radius (exact: 1e-30) of the expected value;
     *  with `asked` (marking.Marker._tolerance), a decimal written with the
     *  places asked or more is within one unit of the asked place. */
    function close(reading, expected, asked) {
      const value = reading.value;
      if (value.inf || expected.inf) {
        return value.inf && expected.inf && value.neg === expected.neg;
      }
      let tolerance = reading.radius.isZero() ? EXACT : R.add(reading.radius, R.ZERO, DIGITS);
      if (asked && places !== null && reading.places !== null && reading.places >= places) {
        tolerance = R.parseDecimal("1E-" + places);
      }
      return R.cmp(distance(value, expected), tolerance) <= 0;
    }

    /** marking.Marker._too_coarse */
    function tooCoarse(reading, expected) {
      if (places === null || reading.places === null || reading.places >= places) return false;
      return !(!expected.inf && R.cmp(distance(reading.value, expected), EXACT) <= 0);
    }

    /** An exact answer near the key but not equal to it (marking: "read as exact"). */
    function exactClose(reading, expected) {
      if (!reading.radius.isZero() || expected.inf || reading.value.inf) return false;
      const one = R.cmp(R.abs(expected), R.ONE) > 0 ? R.abs(expected) : R.ONE;
      return R.cmp(distance(reading.value, expected), R.mul(CLOSE, one, DIGITS)) <= 0;
    }

    /** One entry as typed: null (nothing typed) or {status, reading, note}, where note
     *  is "too_coarse", "invalid", "exact_close" or "". */
    function mark(text, expected) {
      const read = R.readEntry(text);
      if (read === null) return null;
      if (!read.ok) return { status: "invalid", reading: null, note: "invalid" };
      const reading = read.reading;
      let status = close(reading, expected, true) ? "ok" : "wrong";
      let note = "";
      if (status !== "wrong" && tooCoarse(reading, expected)) {
        status = "too_coarse";
        note = "too_coarse";
      } else if (status === "wrong" && exactClose(reading, expected)) {
        note = "exact_close";
      }
      return { status, reading, note };
    }

    /** diagnose.Diagnoser: the mistakes whose values fit every entry typed in the step
     *  (entries: [{i, j, status, reading}], 0-based); weaker ones only when no other fits.
     *  (The key cannot fit: an entry is wrong.) */
    function diagnose(entries, mistakes) {
      const typed = entries.filter((e) => e.reading !== null);
      if (!typed.some((e) => e.status === "wrong")) return [];
      const fits = (values) => typed.every((e) => close(e.reading, values[e.i][e.j]));
      for (const weaker of [false, true]) {
        const found = [];
        const seen = new Set();
        for (const mistake of mistakes) {
          if (mistake.weaker !== weaker || seen.has(mistake.id)) continue;
          if (fits(mistake.values)) {
            found.push(mistake);
            seen.add(mistake.id);
          }
        }
        if (found.length) return found;
      }
      return [];
    }

    return { close, tooCoarse, exactClose, mark, diagnose };
  }

  // -- what is typed: kept in the browser, handed in as answers.json -----------------------
  /** The key the page keeps what is typed under (its page id; a page of no class: its
   *  address). */
  function storageKey(pageId, address) {
    return "symattn-self-check:" + (pageId || address);
  }

  /** The typed boxes as an answers file's steps: ``cells`` [{step, row, col, value}]
   *  (1-based, as the inputs' data- attributes), ``shapes`` {step: [rows, cols]} as the
   *  page writes each step.  Only steps with something typed; a blank box is null. */
  function gather(cells, shapes) {
    const out = {};
    for (const cell of cells) {
      if (cell.value.trim() === "") continue;
      if (!(cell.step in out)) {
        const [rows, cols] = shapes[cell.step];
        out[cell.step] = Array.from({ length: rows }, () => Array(cols).fill(null));
      }
      out[cell.step][cell.row - 1][cell.col - 1] = cell.value;
    }
    return out;
  }

  /** answers.json as `symattn check` and `symattn grade` read it (docs/answers-format.md):
   *  "page_id" first, then each step one row a line, in the page's order. */
  function answersFile(pageId, grids, order) {
    const parts = pageId ? ["  \"page_id\": " + JSON.stringify(pageId)] : [];
    for (const step of order) {
      if (!(step in grids)) continue;
      const rows = grids[step].map((row) => "    [" + row.map((x) => JSON.stringify(x)).join(", ") + "]");
      parts.push("  " + JSON.stringify(step) + ": [\n" + rows.join(",\n") + "\n  ]");
    }
    return "{\n" + parts.join(",\n") + "\n}\n";
  }

  /** Keep ``grids`` (nothing typed: forget); a browser that keeps nothing is no error. */
  function save(storage, key, grids) {
    try {
      if (Object.keys(grids).length) storage.setItem(key, JSON.stringify(grids));
      else storage.removeItem(key);
      return true;
    } catch (error) {
      return false;
    }
  }

  /** What was kept under ``key``: {step: grid of strings or null}, or {} (nothing kept,
   *  storage refused, or something that is not such a grid). */
  function restore(storage, key) {
    let kept;
    try {
      kept = JSON.parse(storage.getItem(key) || "{}");
    } catch (error) {
      return {};
    }
    const out = {};
    if (kept === null || typeof kept !== "object" || Array.isArray(kept)) return out;
    for (const [step, grid] of Object.entries(kept)) {
      const fine = Array.isArray(grid) && grid.every((row) => Array.isArray(row) &&
        row.every((x) => x === null || typeof x === "string"));
      if (fine) out[step] = grid;
    }
    return out;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  }

  /** The page: every input marked as it is typed.  With the rules of `check` as data
   *  (SymattnMarking, data.marking), the whole sheet is marked at each change, as `check`
   *  marks it: carried rounding, carried-forward credit, two mistakes at once and slips;
   *  a page whose plan has a kind of step that script cannot evaluate is marked against
   *  the key alone (rules() above). */
  function run(R, M, document) {
    const data = JSON.parse(document.getElementById("symattn-self-check").textContent);
    const WORDS = data.words;
    const marking = rules(R, data.places);
    const sheet = M && data.marking && data.marking.supported
      ? M.marking(R, data.marking, data.places) : null;
    const NOTES = {
      too_coarse: WORDS.too_coarse_note,
      invalid: WORDS.invalid_note,
      exact_close: WORDS.exact_close_note,
    };
    const TITLES = Object.fromEntries(data.steps.map((step) => [step.id, step.title]));
    const matrix = (rows) => rows.map((row) => row.map(R.parseDecimal));
    const steps = data.steps.map((step) => ({
      id: step.id,
      key: matrix(step.key),
      mistakes: step.mistakes.map((m) => ({ ...m, values: m.values && matrix(m.values) })),
      section: document.querySelector('section.step[data-step="' + CSS.escape(step.id) + '"]'),
      entries: new Map(), // "i,j" → {i, j, name, status, reading, note}
      diagnosis: [],
      note: null,
    }));

    function show(input, entry) {
      const mark = document.getElementById("mk-" + input.id.slice(3));
      mark.replaceChildren();
      if (entry === null) {
        input.removeAttribute("data-status");
        mark.removeAttribute("data-mark");
        input.removeAttribute("aria-invalid");
        mark.removeAttribute("title");
        return;
      }
      input.setAttribute("data-status", entry.status);
      input.setAttribute("aria-invalid", entry.status === "ok" ? "false" : "true");
      mark.setAttribute("data-mark", entry.status); // data-status is the inputs' alone
      mark.setAttribute("title", WORDS[entry.status]);
      const said = document.createElement("span");
      said.className = "vh";
      said.textContent = " " + WORDS[entry.status];
      mark.append(MARKS[entry.status], said);
    }

    /** Key-only marking of one entry (a page whose rules the script cannot run). */
    function markEntry(step, input) {
      const i = Number(input.dataset.row) - 1;
      const j = Number(input.dataset.col) - 1;
      const entry = marking.mark(input.value, step.key[i][j]);
      if (entry === null) step.entries.delete(i + "," + j);
      else step.entries.set(i + "," + j, { ...entry, i, j, name: input.getAttribute("aria-label") });
      show(input, entry);
    }

    /** The whole sheet, as `check` marks it. */
    function markSheet() {
      const typed = {};
      const cells = new Map();
      for (const input of inputs) {
        const step = byId.get(input.dataset.step);
        const i = Number(input.dataset.row) - 1;
        const j = Number(input.dataset.col) - 1;
        const read = R.readEntry(input.value);
        cells.set(input, [step, i, j, read]);
        if (read === null) continue;
        if (!(step.id in typed)) typed[step.id] = step.key.map((row) => row.map(() => null));
        typed[step.id][i][j] = { text: input.value, reading: read.ok ? read.reading : null };
      }
      const marked = sheet.markSheet(typed);
      for (const step of steps) {
        step.entries.clear();
        step.diagnosis = marked[step.id] ? marked[step.id].diagnosis : [];
        step.note = marked[step.id] ? marked[step.id].note : null;
      }
      for (const [input, [step, i, j, read]] of cells) {
        if (read === null) {
          show(input, null);
          continue;
        }
        const got = marked[step.id].entries.find((e) => e.i === i && e.j === j);
        const entry = { status: got.status, note: got.note, i, j, name: input.getAttribute("aria-label") };
        step.entries.set(i + "," + j, entry);
        show(input, entry);
      }
    }

    function markStep(step) {
      const ordered = [...step.entries.values()].sort((a, b) => a.i - b.i || a.j - b.j);
      const notes = step.section.querySelector(".notes");
      notes.replaceChildren();
      for (const entry of ordered) {
        if (!entry.note) continue;
        const item = document.createElement("li");
        item.textContent = fill(WORDS.entry_note, { name: entry.name, message: NOTES[entry.note] });
        notes.appendChild(item);
      }
      if (step.note) {
        const item = document.createElement("li");
        item.setAttribute("data-note", step.note.kind);
        const named = step.note.steps.map((s) => TITLES[s] || s).join(", ");
        item.textContent = fill(WORDS[step.note.kind + "_note"], { steps: named });
        notes.appendChild(item);
      }
      const shown = step.section.querySelector(".diagnoses");
      shown.replaceChildren();
      const found = sheet ? step.diagnosis : marking.diagnose(ordered, step.mistakes.filter((m) => m.values));
      for (const mistake of found) {
        const known = step.mistakes.find((m) => m.id === mistake.id);
        if (known === undefined) continue;
        const selector = 'template[data-template="' + known.template + '"]';
        shown.appendChild(document.querySelector(selector).content.firstElementChild.cloneNode(true));
      }
      const total = step.key.length * step.key[0].length;
      const right = ordered.filter((e) => e.status === "ok").length;
      const tally = step.section.querySelector(".tally");
      tally.textContent = ordered.length ? fill(WORDS.tally, { right, total }) : "";
      tally.classList.toggle("ok", right === total);
    }

    function markTotal() {
      let right = 0;
      let total = 0;
      for (const step of steps) {
        total += step.key.length * step.key[0].length;
        for (const entry of step.entries.values()) right += entry.status === "ok";
      }
      document.getElementById("total").textContent = fill(WORDS.total, { right, total });
    }

    const inputs = [...document.querySelectorAll("input[data-step]")];
    const byId = new Map(steps.map((step) => [step.id, step]));
    let storage = null;
    try {
      storage = root.localStorage; // a browser may refuse it (file://, private windows)
    } catch (error) {
      storage = null;
    }
    const KEPT = storageKey(data.page_id, document.location.pathname);
    const shapes = Object.fromEntries(steps.map((s) => [s.id, [s.key.length, s.key[0].length]]));
    const typed = () =>
      gather(
        inputs.map((input) => ({
          step: input.dataset.step,
          row: Number(input.dataset.row),
          col: Number(input.dataset.col),
          value: input.value,
        })),
        shapes
      );
    if (storage) {
      const kept = restore(storage, KEPT);
      for (const input of inputs) {
        const row = (kept[input.dataset.step] || [])[Number(input.dataset.row) - 1] || [];
        const value = row[Number(input.dataset.col) - 1];
        if (typeof value === "string") input.value = value;
      }
    }
    const download = document.querySelector('[data-action="download-answers"]');
    if (download) {
      download.addEventListener("click", () => {
        const text = answersFile(data.page_id, typed(), steps.map((s) => s.id));
        const link = document.createElement("a");
        link.download = "answers.json";
        link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 1000);
      });
    }
    function update(step, input) {
      if (storage) save(storage, KEPT, typed());
      if (sheet) {
        markSheet();
        steps.forEach(markStep);
      } else {
        markEntry(step, input);
        markStep(step);
      }
      markTotal();
    }
    for (const input of inputs) {
      const step = byId.get(input.dataset.step);
      input.addEventListener("input", () => update(step, input));
      input.addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return; // Enter: on to the next box, as in a spreadsheet
        event.preventDefault();
        const next = inputs[inputs.indexOf(input) + 1];
        if (next) next.focus();
      });
      if (input.value && !sheet) markEntry(step, input); // a value the browser kept
    }
    if (sheet) markSheet();
    steps.forEach(markStep);
    markTotal();
    return { update };
  }

  if (typeof module === "object" && module.exports) {
    module.exports = { rules, MARKS, storageKey, gather, answersFile, save, restore };
  }
  else root.SymattnPage = run(root.SymattnReader, root.SymattnMarking, root.document);
})(typeof globalThis !== "undefined" ? globalThis : this);
