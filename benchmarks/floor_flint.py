"""The floor: a minimal exact pipeline that writes the JSON of ``symattn derive --format json``.

Run as ``python benchmarks/floor_flint.py PROBLEM.json [-o OUT]`` on the problems that
``bench_exact.py`` generates (X, W_Q, W_K, W_V of rationals; one head, no mask, scale √d_k).
It is what the work costs with python-flint and nothing else: ``fmpq_mat`` products for Q, K, V
and the scores, ``arb`` balls at 180 bits for the softmax, the weighted sum as one ``arb_mat``
product, every exact string built once per row (the exponentials and the denominator) and once
per value (the coefficients), decimals rounded from the balls, a NumPy float64 cross-check, and
the same JSON layout written row by row.  It shares no code with symattn.  Its cross-check
block is its own (max errors in float64); everything else is byte for byte symattn's.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction

import numpy as np
from flint import arb, arb_mat, ctx, fmpq, fmpq_mat, fmpz

BITS = 180
TITLES = [
    ("X", "Token embeddings", "X (given)"),
    ("Q", "Queries", "Q = X W_Q"),
    ("K", "Keys", "K = X W_K"),
    ("V", "Values", "V = X W_V"),
    ("scores", "Attention scores", "S = Q Kᵀ"),
    ("scaled_scores", "Scaled scores", "S' = S / √d_k"),
    ("weights", "Softmax: attention weights", "aᵢ,ⱼ = exp(s′ᵢ,ⱼ) / Σₖ exp(s′ᵢ,ₖ)"),
    ("output", "Weighted sum: the output", "O = A V"),
]


def read(value: int | str) -> fmpq:
    q = Fraction(value)
    return fmpq(q.numerator, q.denominator)


def q_str(q: fmpq) -> str:
    p, d = int(q.p), int(q.q)
    return str(p) if d == 1 else f"{p}/{d}"


def surd_str(c: fmpq, r: int) -> str:
    """c·√r as SymPy prints it (r square-free; r = 1 for rationals)."""
    if c == 0:
        return "0"
    if r == 1:
        return q_str(c)
    sign = "-" if c < 0 else ""
    num, den = abs(int(c.p)), int(c.q)
    body = f"sqrt({r})" if num == 1 else f"{num}*sqrt({r})"
    return f"{sign}{body}" if den == 1 else f"{sign}{body}/{den}"


def exp_str(text: str) -> str:
    return "1" if text == "0" else "E" if text == "1" else f"exp({text})"


def rounded(x: arb, places: int = 4) -> str:
    whole = (abs(x) * 10**places + arb(1) / 2).floor()
    found = whole.unique_fmpz()
    n = int(found) if found is not None else int((whole.mid()).floor().unique_fmpz())
    text = str(n).rjust(places + 1, "0")
    sign = "-" if n and x < 0 else ""
    return f"{sign}{text[:-places]}.{text[-places:]}"


def rounded_q(q: fmpq, places: int = 4) -> str:
    scaled = abs(q) * 10**places
    n = int((scaled + fmpq(1, 2)).floor())
    text = str(n).rjust(places + 1, "0")
    sign = "-" if n and q < 0 else ""
    return f"{sign}{text[:-places]}.{text[-places:]}"


def square_free(n: int) -> tuple[int, int]:
    k, r = 1, 1
    for p, e in fmpz(n).factor():
        k *= int(p) ** (int(e) // 2)
        r *= int(p) ** (int(e) % 2)
    return k, r


def rational_step(m: fmpq_mat) -> dict[str, list[list[object]]]:
    rows = m.tolist()
    return {
        "exact": [[q_str(x) for x in row] for row in rows],
        "decimal": [[rounded_q(x) for x in row] for row in rows],
        "float": [[int(x.p) / int(x.q) for x in row] for row in rows],
    }


def main(argv: list[str]) -> int:
    ctx.prec = BITS
    path = argv[0]
    out_path = argv[argv.index("-o") + 1] if "-o" in argv else None
    with open(path, encoding="utf-8") as source:
        data = json.loads(source.read())
    x, wq, wk, wv = (
        fmpq_mat([[read(v) for v in row] for row in data[k]]) for k in ("X", "W_Q", "W_K", "W_V")
    )
    q, k, v = x * wq, x * wk, x * wv
    s = q * k.transpose()
    n, d_k, d_v = s.nrows(), q.ncols(), v.ncols()
    steps: list[tuple[str, dict[str, list[list[object]]]]] = []
    for name, m in (("X", x), ("Q", q), ("K", k), ("V", v), ("scores", s)):
        steps.append((name, rational_step(m)))
    # S' = S / (k√r) = (S / (k r)) √r
    kk, r = square_free(d_k)
    coef = s / (kk * r)
    crows = coef.tolist()
    root = arb(r).sqrt()
    scaled = {
        "exact": [[surd_str(c, r) for c in row] for row in crows],
        "decimal": [
            [rounded(arb(c) * root) if r != 1 else rounded_q(c) for c in row] for row in crows
        ],
        "float": [
            [float((arb(c) * root).mid()) if r != 1 else int(c.p) / int(c.q) for c in row]
            for row in crows
        ],
    }
    steps.append(("scaled_scores", scaled))
    # softmax: exponentials shifted by the row maximum, exactly
    e_rows, dens, exps_text, den_text = [], [], [], []
    for row, texts in zip(crows, scaled["exact"]):
        top = max(row)
        e = [(arb(c - top) * root).exp() for c in row]
        e_rows.append(e)
        dens.append(sum(e, arb(0)))
        exps_text.append([exp_str(t) for t in texts])
        den_text.append(" + ".join(exps_text[-1]))
    w = arb_mat([[ei / den for ei in e] for e, den in zip(e_rows, dens)])
    weights = {
        "exact": [[f"{t}/({dt})" for t in et] for et, dt in zip(exps_text, den_text)],
        "decimal": [[rounded(w[i, j]) for j in range(n)] for i in range(n)],
        "float": [[float(w[i, j].mid()) for j in range(n)] for i in range(n)],
    }
    steps.append(("weights", weights))
    vrows = v.tolist()
    o = w * arb_mat([[arb(c) for c in row] for row in vrows])
    prefixes = []  # per output column: the written coefficients and their joins
    for col in range(d_v):
        terms = []
        for j in range(n):
            t = q_str(vrows[j][col])
            terms.append(None if t == "0" else "" if t == "1" else "-" if t == "-1" else t + "*")
        prefixes.append(terms)

    def out_str(i: int, col: int) -> str:
        parts = []
        for t, e in zip(prefixes[col], exps_text[i]):
            if t is None:
                continue
            parts.append(
                e if t in ("", "-") and not t else (t + e if e != "1" or t in ("", "-") else t[:-1])
            )
        if not parts:
            return "0"
        num = parts[0] + "".join(
            f" - {p[1:]}" if p.startswith("-") else f" + {p}" for p in parts[1:]
        )
        return f"({num})/({den_text[i]})" if len(parts) > 1 else f"{num}/({den_text[i]})"

    output = {
        "exact": None,  # written row by row below
        "decimal": [[rounded(o[i, c]) for c in range(d_v)] for i in range(n)],
        "float": [[float(o[i, c].mid()) for c in range(d_v)] for i in range(n)],
    }
    steps.append(("output", output))
    # the cross-check: float64 against the balls
    fx = np.array([[float(int(a.p) / int(a.q)) for a in row] for row in x.tolist()])
    fw = [
        np.array([[int(a.p) / int(a.q) for a in row] for row in m.tolist()]) for m in (wq, wk, wv)
    ]
    fq, fk, fv = (fx @ m for m in fw)
    fs = fq @ fk.T / np.sqrt(d_k)
    fe = np.exp(fs - fs.max(axis=1, keepdims=True))
    fa = fe / fe.sum(axis=1, keepdims=True)
    fo = fa @ fv
    exact_o = np.array(output["float"])
    err = np.abs(fo - exact_o)
    scale = np.maximum(np.abs(exact_o), np.abs(fa) @ np.abs(fv))
    check = {
        "max_abs_error": float(err.max()),
        "max_rel_error": float((err / scale).max()),
        "passed": bool((err / scale).max() <= 1e-12),
    }
    write(data, steps, n, d_k, d_v, out_path, exps_text, out_str, check)
    return 0


def write(data, steps, n, d_k, d_v, out_path, exps_text, out_str, check) -> None:  # type: ignore[no-untyped-def]
    handle = open(out_path, "w", encoding="utf-8") if out_path else sys.stdout  # noqa: SIM115
    w = handle.write
    d_model = len(data["X"][0])
    w('{\n  "symattn_version": "0.1.0",\n')
    shapes = {"n": n, "m": n, "d_model": d_model, "d_k": d_k, "d_v": d_v, "heads": 1}
    w(f'  "shapes": {json.dumps(shapes)},\n')
    w('  "scale": "sqrt(d_k)",\n  "mask": "none",\n  "steps": [\n')
    titles = {sid: (t, f) for sid, t, f in TITLES}
    for number, (sid, body) in enumerate(steps):
        title, formula = titles[sid]
        w("    {\n" if number == 0 else ",\n    {\n")
        w(f'      "id": "{sid}",\n      "title": {json.dumps(title)},\n')
        w(f'      "formula": {json.dumps(formula, ensure_ascii=False)},\n')
        for key in ("exact", "decimal", "float"):
            w(f'      "{key}": [\n')
            rows = body[key]
            count = n if rows is None else len(rows)
            for i in range(count):
                row = [out_str(i, c) for c in range(d_v)] if rows is None else rows[i]
                w(("        " if i == 0 else ",\n        ") + json.dumps(row, ensure_ascii=False))
            w("\n      ]" + (",\n" if key != "float" else "\n"))
        w("    }")
    w('\n  ],\n  "crosscheck": ' + json.dumps(check) + "\n}\n")
    if out_path:
        handle.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
