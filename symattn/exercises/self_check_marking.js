/* symattn: marking a typed sheet as `symattn check` does, in the self-check page.
 *
 * The rules come from Python as data (symattn/exercises/page_rules.py): the key's plan,
 * its values, each mistake model's plans; this script runs a plan on the numbers typed
 * (symattn/compute/variants.py and values.py, 24 significant digits, rounded half to even
 * as Python's decimal module rounds), bounds carried rounding (symattn/check/slack.py, 28
 * digits) and compares as symattn/check/marking.py and diagnose.py do: an entry right from
 * the student's own rounded earlier entries is ok, one right from their wrong earlier
 * entries is carried; a wrong step is explained by the mistake models that fit it, two at
 * once, or an arithmetic slip.  Each function names the Python it follows.
 *
 * Loaded by the page as a plain script (it defines SymattnMarking) and by Node for the
 * tests (module.exports).
 */
(function (root) {
  "use strict";

  /** The marking of one page: ``R`` the reader, ``data`` the rules, ``places`` asked. */
  function marking(R, data, places) {
    const E = 24; // compare.PRECISION: the digits of an evaluation
    const C = 28; // the default decimal context: comparisons and bounds
    const D = R.parseDecimal;
    const ZERO = R.ZERO;
    const ONE = R.ONE;
    const EXACT = D("1E-30"); // compare.EXACT_TOLERANCE
    const CLOSE = D("0.05"); // marking.CLOSE
    const NOISE = D("1E-20"); // slack.EVALUATION_ERROR
    const TWO = D("2");

    class NotApplicable extends Error {}

    // -- decimals as Python's Decimal computes them (−∞ included) --------------------------
    const inf = (neg) => (neg ? R.NEG_INF : R.neg(R.NEG_INF));
    function add(a, b, p) {
      if (a.inf || b.inf) {
        if (a.inf && b.inf && a.neg !== b.neg) throw new NotApplicable("∞ − ∞");
        return a.inf ? a : b;
      }
      return R.add(a, b, p);
    }
    const sub = (a, b, p) => add(a, R.neg(b), p);
    function mul(a, b, p) {
      if (a.inf || b.inf) {
        if (a.isZero() || b.isZero()) throw new NotApplicable("0 · ∞");
        return inf(a.neg !== b.neg);
      }
      return R.mul(a, b, p);
    }
    function div(a, b, p) {
      if (b.isZero()) throw new NotApplicable("division by zero");
      if (a.inf && b.inf) throw new NotApplicable("∞ / ∞");
      if (a.inf) return inf(a.neg !== b.neg);
      if (b.inf) return ZERO;
      return R.div(a, b, p);
    }
    const nonzero = (x) => x.inf || !x.isZero();
    const fin = (x) => !x.inf;
    const absv = (x) => R.abs(x);
    const max = (a, b) => (R.cmp(a, b) >= 0 ? a : b);
    function sum(terms, p) {
      let total = ZERO;
      for (const t of terms) total = add(total, t, p);
      return total;
    }
    /** Decimal.quantize(10^-places, ROUND_HALF_UP) */
    function quantize(x, places) {
      if (x.inf || x.exp >= -places) {
        return x.inf ? x : new R.Dec(x.neg, x.coef * 10n ** BigInt(x.exp + places), -places);
      }
      const unit = 10n ** BigInt(-places - x.exp);
      let c = x.coef / unit;
      if ((x.coef % unit) * 2n >= unit) c += 1n;
      return new R.Dec(x.neg, c, -places);
    }

    const t = (m) => m[0].map((_, j) => m.map((row) => row[j]));
    const zeros = (rows, cols) => Array.from({ length: rows }, () => Array(cols).fill(ZERO));
    const copy = (m) => m.map((row) => row.slice());
    const matrix = (rows) => rows.map((row) => row.map(D));
    const matrices = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, matrix(v)]));

    // -- the rules, read ----------------------------------------------------------------------
    const specs = data.specs.map((s) => ({
      ...s,
      div: s.div === undefined ? null : D(s.div),
      div_abs: s.div_abs === undefined ? null : D(s.div_abs),
    }));
    const problems = data.problems.map((p) => ({
      mask: p.mask,
      inputs: matrices(p.inputs),
      inputs28: matrices(p.inputs28),
      tokens: p.tokens,
    }));
    const KEY = matrices(data.key);
    const mainPlan = { problem: 0, specs: data.plan.map((k) => specs[k]) };
    const run = (r) => ({
      problem: r.problem,
      specs: r.plan.map((k) => specs[k]),
      same: r.same,
      facts: r.facts,
    });
    const MISTAKES = Object.fromEntries(
      Object.entries(data.mistakes).map(([k, m]) => [k, { ...m, runs: m.runs.map(run) }])
    );
    const PAIRS = Object.fromEntries(
      Object.entries(data.pairs).map(([k, runs]) => [k, runs.map(run)])
    );
    const mainIds = new Map(mainPlan.specs.map((s, k) => [s.id, k]));

    // -- the kinds of step on decimals (compute/values.py, numbers/decimals.py) ----------
    function matmul(left, right, p) {
      if (left[0].length !== right.length) throw new NotApplicable("shapes do not fit");
      const cols = t(right);
      return left.map((row) =>
        cols.map((col) => {
          const terms = [];
          row.forEach((a, k) => {
            if (nonzero(a) && nonzero(col[k])) terms.push(mul(a, col[k], p));
          });
          return sum(terms, p);
        })
      );
    }
    function softmaxRows(m, useExp, p) {
      return m.map((row) => {
        const kept = row.filter(fin);
        if (!kept.length) throw new NotApplicable("a row with every key masked");
        let terms;
        if (useExp) {
          const top = kept.reduce(max);
          terms = row.map((x) => (fin(x) ? R.exp(sub(x, top, p), p) : ZERO));
        } else {
          terms = row.map((x) => (fin(x) ? x : ZERO));
        }
        const total = sum(terms, p);
        if (total.isZero()) throw new NotApplicable("the row sums to zero");
        return terms.map((x) => div(x, total, p));
      });
    }
    function softmax(spec, scores, mask, p) {
      let w;
      const how = spec.softmax || "rows";
      if (how === "none") w = scores.map((row) => row.map((s) => (fin(s) ? s : ZERO)));
      else if (how === "columns") w = t(softmaxRows(t(scores), true, p));
      else if (how === "global") {
        const flat = softmaxRows([scores.flat()], true, p)[0];
        const width = scores[0].length;
        w = scores.map((_, i) => flat.slice(i * width, (i + 1) * width));
      } else w = softmaxRows(scores, how !== "no_exp", p);
      if (spec.ma && mask) w = w.map((row, i) => row.map((x, j) => (mask[i][j] ? x : ZERO)));
      return w;
    }
    function apply(spec, operands, problem, given, p) {
      const args = operands.slice();
      if (spec.round !== undefined && args.length) {
        args[0] = args[0].map((row) => row.map((x) => quantize(x, spec.round)));
      }
      let out;
      switch (spec.kind) {
        case "tokens":
        case "lookup":
        case "given":
          out = copy(given);
          break;
        case "product":
        case "weighted_sum":
        case "product_sum":
          for (let k = 0; k + 1 < args.length; k += 2) {
            const term = matmul(spec.tl ? t(args[k]) : args[k], spec.tr ? t(args[k + 1]) : args[k + 1], p);
            out = out === undefined ? term : out.map((r, i) => r.map((x, j) => add(x, term[i][j], p)));
          }
          break;
        case "scale":
          out = args[0].map((row) => row.map((s) => div(s, spec.div, p)));
          break;
        case "mask":
          out = args[0].map((row, i) => row.map((s, j) => (problem.mask[i][j] ? s : R.NEG_INF)));
          break;
        case "softmax":
          out = softmax(spec, args[0], problem.mask, p);
          break;
        case "concat":
          out = args[0].map((_, i) => args.flatMap((block) => block[i]));
          break;
        case "copy":
          out = copy(args[0]);
          break;
        case "difference":
          out = args[0].map((r, i) => r.map((x, j) => sub(x, given[i][j], p)));
          break;
        case "columns":
          out = args[0].map((row) => row.slice(spec.columns[0], spec.columns[1]));
          break;
        case "jacobian":
          out = args[0].map((aRow, i) => {
            const gRow = args[1][i];
            if (spec.diag) {
              return aRow.map((a, j) => mul(mul(a, sub(ONE, a, p), p), gRow[j], p));
            }
            const inner = sum(aRow.map((a, j) => mul(a, gRow[j], p)), p);
            return aRow.map((a, j) => mul(a, sub(gRow[j], inner, p), p));
          });
          break;
        case "add":
          out = args[0].map((r, i) => r.map((x, j) => add(x, args[1][i][j], p)));
          break;
        default:
          out = topicStep(spec, args, problem, p);
      }
      if (spec.t) {
        if (out.length !== out[0].length) throw new NotApplicable("a transposed matrix needs n = m");
        out = t(out);
      }
      return out;
    }

    /** A topic's kind of step: its rule comes with the data (KindRules.page, a function
     *  of the step, its operands, the problem, the digits, its constants at those digits
     *  and this arithmetic), compiled once. */
    const OPS = { R, D, ZERO, ONE, NotApplicable, add, sub, mul, div, sum, matmul, softmaxRows, t };
    const KINDS = {};
    for (const [kind, source] of Object.entries(data.scripts || {})) {
      KINDS[kind] = new Function("return (" + source + ");")();
    }
    function topicStep(spec, args, problem, p) {
      const rule = KINDS[spec.kind];
      if (rule === undefined) throw new Error("the page cannot evaluate a step of kind " + spec.kind);
      return rule(spec, args, problem, p, spec.page[String(p)], OPS);
    }

    /** compute/variants.evaluate (null: not applicable, as compare.evaluation) */
    function evaluation(plan, given) {
      const problem = problems[plan.problem];
      const out = {};
      try {
        for (const spec of plan.specs) {
          if (spec.id in given) out[spec.id] = given[spec.id];
          else if (spec.kind === "tokens") out[spec.id] = problem.tokens.map((i) => [D(String(i))]);
          else {
            const args = spec.ops.map((o) => (o in out ? out[o] : problem.inputs[o]));
            const source = spec.source ? problem.inputs[spec.source] : null;
            out[spec.id] = apply(spec, args, problem, source, E);
          }
        }
      } catch (error) {
        if (error instanceof NotApplicable) return null;
        throw error;
      }
      return out;
    }

    // -- carried rounding (check/slack.py) ------------------------------------------------
    const absm = (m) => m.map((row) => row.map((x) => (fin(x) ? absv(x) : ZERO)));
    const addm = (a, b) => a.map((r, i) => r.map((x, j) => add(x, b[i][j], C)));
    function rmatmul(a, b) {
      const cols = t(b);
      return a.map((row) => {
        const nz = [];
        row.forEach((x, k) => nonzero(x) && nz.push(k));
        if (!nz.length) return Array(cols.length).fill(ZERO);
        return cols.map((col) => {
          let total = ZERO;
          for (const k of nz) if (nonzero(col[k])) total = add(total, mul(row[k], col[k], C), C);
          return total;
        });
      });
    }
    function rproduct(spec, values, radii) {
      let total;
      for (let k = 0; k < values.length; k += 2) {
        let left = absm(values[k]);
        let right = absm(values[k + 1]);
        let rl = radii[k];
        let rr = radii[k + 1];
        if (spec.tl) [left, rl] = [t(left), t(rl)];
        if (spec.tr) [right, rr] = [t(right), t(rr)];
        const term = addm(addm(rmatmul(left, rr), rmatmul(rl, right)), rmatmul(rl, rr));
        total = total === undefined ? term : addm(total, term);
      }
      return total;
    }
    function rsoftmax(spec, scores, weights, radius, problem) {
      const rows = scores.length;
      const cols = scores[0].length;
      const how = spec.softmax || "rows";
      if (how === "none") return copy(radius);
      if (spec.t) weights = t(weights);
      let groups;
      if (how === "columns") {
        groups = [];
        for (let j = 0; j < cols; j++) {
          const g = [];
          for (let i = 0; i < rows; i++) if (fin(scores[i][j])) g.push([i, j]);
          groups.push(g);
        }
      } else {
        const kept = scores.map((row, i) => row.flatMap((x, j) => (fin(x) ? [[i, j]] : [])));
        groups = how === "global" ? [kept.flat()] : kept;
      }
      let out = zeros(weights.length, weights[0].length);
      for (const group of groups) {
        if (how !== "no_exp") {
          const spread = sum(group.map(([i, j]) => mul(weights[i][j], radius[i][j], C)), C);
          for (const [i, j] of group) out[i][j] = mul(weights[i][j], add(radius[i][j], spread, C), C);
        } else {
          let total = absv(sum(group.map(([i, j]) => scores[i][j]), C));
          if (total.isZero()) total = ONE;
          const spread = sum(group.map(([i, j]) => radius[i][j]), C);
          for (const [i, j] of group) {
            out[i][j] = div(add(radius[i][j], mul(absv(weights[i][j]), spread, C), C), total, C);
          }
        }
      }
      if (spec.ma && problem.mask) {
        out = out.map((row, i) => row.map((r, j) => (problem.mask[i][j] ? r : ZERO)));
      }
      return out;
    }
    function rjacobian(a, g, ra, rg) {
      return a.map((aRow, i) => {
        const gRow = g[i];
        const inner = sum(aRow.map((x, j) => mul(x, gRow[j], C)), C);
        const spread = sum(
          aRow.map((x, j) =>
            add(mul(ra[i][j], absv(gRow[j]), C), mul(absv(x), rg[i][j], C), C)
          ),
          C
        );
        return aRow.map((x, j) =>
          add(mul(ra[i][j], absv(sub(gRow[j], inner, C)), C), mul(absv(x), add(rg[i][j], spread, C), C), C)
        );
      });
    }
    function rstep(spec, values, radius, own, problem) {
      const args = spec.ops.map((o) => (o in values ? values[o] : problem.inputs28[o]));
      const rads = spec.ops.map((o, k) => radius[o] || zeros(args[k].length, args[k][0].length));
      let out;
      switch (spec.kind) {
        case "product":
        case "weighted_sum":
        case "product_sum":
          out = rproduct(spec, args, rads);
          break;
        case "scale": {
          const c = spec.div_abs || ONE;
          out = rads[0].map((row) => row.map((r) => div(r, c, C)));
          break;
        }
        case "mask":
          out = rads[0].map((row, i) => row.map((r, j) => (problem.mask[i][j] ? r : ZERO)));
          break;
        case "softmax":
          return rsoftmax(spec, args[0], own, rads[0], problem);
        case "concat":
          out = rads[0].map((_, i) => rads.flatMap((block) => block[i]));
          break;
        case "add":
          out = rads[0].map((r, i) => r.map((x, j) => add(x, rads[1][i][j], C)));
          break;
        case "copy":
        case "difference":
          out = copy(rads[0]);
          break;
        case "columns":
          out = rads[0].map((row) => row.slice(spec.columns[0], spec.columns[1]));
          break;
        case "jacobian":
          out = rjacobian(args[0], args[1], rads[0], rads[1]);
          break;
        case "tokens":
        case "lookup":
        case "given":
          out = zeros(own.length, own[0].length);
          break;
        default:
          return firstOrder(spec, args, rads, problem);
      }
      if (spec.t) out = t(out);
      return out;
    }
    /** slack._first_order: Σ over rounded entries of |f(x + r e) − f(x)| */
    function firstOrder(spec, args, rads, problem) {
      const given = spec.source ? problem.inputs28[spec.source] : null;
      const base = apply(spec, args, problem, given, C);
      let out = zeros(base.length, base[0].length);
      rads.forEach((rad, k) =>
        rad.forEach((row, i) =>
          row.forEach((r, j) => {
            if (!nonzero(r)) return;
            const moved = args.map((a) => (a === args[k] ? copy(a) : a));
            moved[k][i][j] = add(moved[k][i][j], r, C);
            let shifted;
            try {
              shifted = apply(spec, moved, problem, given, C);
            } catch (error) {
              if (error instanceof NotApplicable) return;
              throw error;
            }
            out = addm(out, absm(base.map((pr, a) => pr.map((x, b) => sub(shifted[a][b], x, C)))));
          })
        )
      );
      return out;
    }

    /** slack.radii */
    function radii(plan, values, inputs, until) {
      const problem = problems[plan.problem];
      const radius = {};
      for (const spec of plan.specs) {
        if (spec.id in inputs) radius[spec.id] = copy(inputs[spec.id]);
        else if (spec.ops.some((o) => o in radius)) {
          radius[spec.id] = rstep(spec, values, radius, values[spec.id], problem);
        }
        if (spec.id === until) break;
      }
      const v = values[until];
      const found = radius[until] || zeros(v.length, v[0].length);
      return found.map((row, i) =>
        row.map((r, j) => {
          const x = v[i][j];
          if (!fin(x)) return add(r, ZERO, C);
          return add(r, mul(NOISE, max(ONE, absv(x)), C), C);
        })
      );
    }

    // -- comparing (check/compare.py) ---------------------------------------------------
    /** compare.close; ``tolerance`` null: one unit of the last written place */
    function close(g, expected, tolerance, slack) {
      const v = g.reading.value;
      if (v.inf || expected.inf) return v.inf && expected.inf && v.neg === expected.neg;
      let tol = tolerance;
      if (tol === null) tol = g.reading.radius.isZero() ? EXACT : g.reading.radius;
      const bound = add(tol, slack || ZERO, C);
      return R.cmp(absv(sub(v, expected, C)), bound) <= 0;
    }
    /** marking.Marker._tolerance */
    function tolerance(g) {
      const p = g.reading.places;
      if (places !== null && p !== null && p >= places) return D("1E-" + places);
      return null;
    }
    const exact = (g) => g.reading.radius.isZero();
    /** compare.rounding_radius */
    function roundingRadius(g, key) {
      if (exact(g) || g.reading.value.inf) return ZERO;
      if (fin(key) && R.cmp(absv(sub(g.reading.value, key, C)), EXACT) <= 0) return ZERO;
      return div(g.reading.radius, TWO, C);
    }

    /** One sheet, as Marker(key, answers, places).run(): ``written`` maps a step id to its
     *  grid as the page shows it (the column layout: transposed), each cell null or
     *  {text, reading} (reading null: unreadable).  Steps with nothing typed are left out.
     *  → {step id: {status, entries: [{i, j, status, note}], diagnosis: [{id, cells}],
     *  carried_forward, note: null | {kind, steps}}}, i and j as written (0-based). */
    function markSheet(written) {
      const columns = data.layout === "column";
      const steps = {};
      const otherView = {};
      for (const [id, grid] of Object.entries(written)) {
        steps[id] = columns ? t(grid) : grid;
        if (columns && grid.length === grid[0].length) otherView[id] = grid;
      }
      const cell = (i, j) => (columns ? [j, i] : [i, j]); // a row-layout entry as written
      const rightSteps = new Set();
      const results = {};

      function overridesBefore(before) {
        const values = {};
        const rounding = {};
        const only = new Set(data.ancestors[before]);
        for (const id of data.order.slice(0, data.order.indexOf(before))) {
          if (!(id in steps) || id === "tokens" || id === "X" || !only.has(id)) continue;
          const filled = copy(KEY[id]);
          const radius = filled.map((row) => row.map(() => ZERO));
          steps[id].forEach((row, i) =>
            row.forEach((g, j) => {
              if (g === null || g.reading === null) return;
              radius[i][j] = roundingRadius(g, filled[i][j]);
              filled[i][j] = g.reading.value;
            })
          );
          values[id] = filled;
          rounding[id] = radius;
        }
        return [values, rounding];
      }
      /** Marker._coarse */
      function coarseOf(ids) {
        for (const id of ids) {
          const expected = KEY[id];
          let coarse = null;
          let wrong = false;
          steps[id].forEach((row, i) =>
            row.forEach((g, j) => {
              if (g === null || g.reading === null || !fin(expected[i][j])) return;
              const off = absv(sub(g.reading.value, expected[i][j], C));
              if (R.cmp(off, EXACT) <= 0) return;
              const p = g.reading.places;
              if (p === null || R.cmp(off, D("1E-" + p)) > 0) wrong = true;
              else if (p <= 1 && coarse === null) coarse = p;
            })
          );
          if (coarse !== null && !wrong) return [id, coarse];
        }
        return null;
      }
      /** Marker._trials */
      function trialsOf(id, overrides, rounding) {
        const all = Object.keys(overrides);
        const subsets = [all, ...(all.length > 1 ? all.map((s) => [s]) : [])];
        const out = [];
        for (const subset of subsets) {
          const given = Object.fromEntries(subset.map((s) => [s, overrides[s]]));
          const values = evaluation(mainPlan, given);
          if (values === null || !(id in values)) continue;
          const inputs = Object.fromEntries(subset.map((s) => [s, rounding[s]]));
          out.push({
            steps: subset,
            values: values[id],
            slack: radii(mainPlan, values, inputs, id),
            right: subset.every((s) => rightSteps.has(s)),
            coarse: coarseOf(subset),
          });
        }
        return out;
      }

      // -- why (check/diagnose.py) ------------------------------------------------------
      function fits(id, values, slack) {
        return steps[id].every((row, i) =>
          row.every(
            (g, j) =>
              g === null || g.reading === null || close(g, values[i][j], null, slack ? slack[i][j] : null)
          )
        );
      }
      /** Diagnoser._values */
      function valuesOf(r, id, extra) {
        const needed = new Set([id]);
        for (const spec of [...r.specs].reverse()) {
          if (needed.has(spec.id)) spec.ops.forEach((o) => needed.add(o));
        }
        const kept = r.specs.map((s, k) => [s, k]).filter(([s]) => needed.has(s.id));
        const upto = { problem: r.problem, specs: kept.map(([s]) => s) };
        const given = { ...extra };
        if (r.problem === 0) {
          const same = new Set();
          for (const [spec, k] of kept) {
            const made = spec.ops.filter((o) => mainIds.has(o));
            if (r.same[k] && !(spec.id in extra) && made.every((o) => same.has(o))) {
              same.add(spec.id);
              if (spec.id !== id && spec.id in KEY && !(spec.id in given)) given[spec.id] = KEY[spec.id];
            }
          }
        }
        return [upto, evaluation(upto, given)];
      }
      function explains(id, r, overrides, rounding) {
        const extras = Object.keys(overrides).length ? [overrides, {}] : [{}];
        for (const extra of extras) {
          const [upto, values] = valuesOf(r, id, extra);
          const right = evaluation(mainPlan, extra);
          if (values === null || right === null || !(id in values)) continue;
          const inputs = Object.fromEntries(Object.keys(extra).map((s) => [s, rounding[s]]));
          const slack = radii(upto, values, inputs, id);
          if (fits(id, values[id], slack) && !fits(id, right[id], slack)) return true;
        }
        return false;
      }
      function slip(id, expected, overrides, rounding) {
        let reference = expected;
        let slack = null;
        if (Object.keys(overrides).length) {
          const values = evaluation(mainPlan, overrides);
          if (values !== null) {
            reference = values[id];
            slack = radii(mainPlan, values, rounding, id);
          }
        }
        const wrong = [];
        let right = 0;
        steps[id].forEach((row, i) =>
          row.forEach((g, j) => {
            if (g === null || g.reading === null) return;
            if (close(g, reference[i][j], null, slack ? slack[i][j] : null)) right += 1;
            else wrong.push(cell(i, j));
          })
        );
        const answered = right + wrong.length;
        const minority = wrong.length <= Math.floor(answered / 3) || (wrong.length <= 2 && right >= 2);
        return wrong.length && minority ? { id: "arithmetic_slip", cells: wrong } : null;
      }
      function diagnose(id, expected, overrides, rounding) {
        const wrong = [];
        steps[id].forEach((row, i) =>
          row.forEach((g, j) => {
            if (g !== null && g.reading !== null && !close(g, expected[i][j], null)) wrong.push(cell(i, j));
          })
        );
        const shows = data.shows[id].map((k) => MISTAKES[k]);
        for (const weaker of [false, true]) {
          const found = [];
          for (const m of shows.filter((m) => m.weaker === weaker)) {
            const r = m.runs.find((r) => explains(id, r, overrides, rounding));
            if (r !== undefined) found.push({ id: m.id, cells: wrong, facts: r.facts });
          }
          if (found.length) return found;
        }
        for (const first of shows.filter((m) => m.family === "scale")) {
          for (const second of shows.filter((m) => m.family !== "scale")) {
            const r = (PAIRS[first.id + " " + second.id] || []).find((r) =>
              explains(id, r, overrides, rounding)
            );
            if (r !== undefined) {
              return [
                { id: first.id, cells: wrong, facts: {} },
                { id: second.id, cells: wrong, facts: r.facts },
              ];
            }
          }
        }
        const found = slip(id, expected, overrides, rounding);
        return found ? [found] : [];
      }
      /** Marker.other_view: a column-layout step written in the row layout */
      function otherViewOf(id) {
        const grid = otherView[id];
        if (grid === undefined) return [];
        const expected = KEY[id];
        const given = [];
        grid.forEach((row, i) => row.forEach((g, j) => g !== null && given.push([i, j, g])));
        const text = (g) => (g === null ? null : g.text);
        const square = grid.length === grid[0].length;
        const symmetric = square && grid.every((row, i) => row.every((g, j) => text(g) === text(grid[j][i])));
        if (!given.length || symmetric) return [];
        for (const [i, j, g] of given) {
          if (g.reading === null || !close(g, expected[i][j], tolerance(g))) return [];
        }
        const misread = given
          .filter(([i, j, g]) => !(square && close(g, expected[j][i], tolerance(g))))
          .map(([i, j]) => [j, i]);
        return [{ id: "column_layout_transposed", cells: misread }];
      }

      /** Marker.step */
      function markStep(id) {
        const grid = steps[id];
        const expected = KEY[id];
        const [overrides, rounding] = overridesBefore(id);
        let found = null;
        const trials = () => {
          if (found === null) found = Object.keys(overrides).length ? trialsOf(id, overrides, rounding) : [];
          return found;
        };
        const entries = [];
        const used = [];
        grid.forEach((row, i) =>
          row.forEach((g, j) => {
            if (g === null) return;
            const [w0, w1] = cell(i, j);
            const entry = { i: w0, j: w1, status: "invalid", note: "invalid" };
            entries.push(entry);
            if (g.reading === null) return;
            entry.note = "";
            const key = expected[i][j];
            const tol = tolerance(g);
            let status = "wrong";
            if (close(g, key, tol)) status = "ok";
            else {
              for (const trial of trials()) {
                if (close(g, trial.values[i][j], tol, trial.slack[i][j])) {
                  used.push(trial);
                  status = trial.right && trial.coarse === null ? "ok" : "carried";
                  break;
                }
              }
            }
            const off = fin(key) ? absv(sub(g.reading.value, key, C)) : null;
            const coarse =
              places !== null && g.reading.places !== null && g.reading.places < places &&
              !(off !== null && R.cmp(off, EXACT) <= 0);
            if (status !== "wrong" && coarse) {
              status = "too_coarse";
              entry.note = "too_coarse";
            } else if (status === "wrong" && exact(g) && off !== null &&
              R.cmp(off, mul(CLOSE, max(ONE, absv(key)), C)) <= 0) {
              entry.note = "exact_close";
            }
            entry.status = status;
          })
        );
        entries.sort((a, b) => a.i - b.i || a.j - b.j);
        const total = grid.length * grid[0].length;
        const result = { status: "", entries, diagnosis: [], note: null, carried_forward: false };
        const notOk = entries.filter((e) => e.status !== "ok");
        result.status = !entries.length ? "missing" : notOk.length ? "incorrect"
          : entries.length === total ? "correct" : "partial";
        result.carried_forward = notOk.length > 0 && notOk.every((e) => e.status === "carried");
        // Marker._notes
        const carried = used.filter((u) => !u.right || u.coarse !== null);
        if (entries.some((e) => e.status === "carried") && carried.length) {
          const trial = carried[0];
          if (trial.coarse !== null) {
            const cells = entries.filter((e) => e.status === "carried").map((e) => [e.i, e.j]);
            result.diagnosis.push({ id: "premature_rounding", cells, facts: { step: trial.coarse[0], places: trial.coarse[1] } });
          } else {
            result.note = { kind: "carried", steps: trial.steps.filter((s) => !rightSteps.has(s)) };
          }
        } else if (used.length && (result.status === "correct" || result.status === "partial")) {
          const all = new Set(used.flatMap((u) => u.steps));
          result.note = { kind: "rounded", steps: data.order.filter((s) => all.has(s)) };
        }
        if (entries.some((e) => e.status === "wrong")) {
          const other = otherViewOf(id);
          result.diagnosis = other.length ? other : diagnose(id, expected, overrides, rounding);
        }
        return result;
      }

      for (const id of data.order) {
        if (!(id in steps)) continue;
        const result = markStep(id);
        if (result.status === "correct" || result.status === "partial") rightSteps.add(id);
        results[id] = result;
      }
      return results;
    }

    return { markSheet, evaluation, radii, close };
  }

  if (typeof module === "object" && module.exports) module.exports = { marking };
  else root.SymattnMarking = { marking };
})(typeof globalThis !== "undefined" ? globalThis : this);
