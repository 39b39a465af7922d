"""The backward pass (SPEC §5): every gradient of attention, exactly and step by step.

Starting from ``dO`` (or from a ``target`` T, with L = ½‖O − T‖² and dO = O − T)::

    dV = Aᵀ dO            dA = dO Vᵀ
    dS'_i = (diag(a_i) − a_i a_iᵀ) dA_i        (the softmax Jacobian, row by row)
    dS = dS' / c          dQ = dS K            dK = dSᵀ Q
    dW_Q = Xᵀ dQ          dW_K = X_kvᵀ dK       dW_V = X_kvᵀ dV
    dX = dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ   (only the dQ term for cross-attention)

The exact entries are SymPy expressions built from the forward pass's closed forms
(never simplified); their high-precision values are computed separately, in Decimal,
from the forward values.  Masked entries of dS' are exactly 0.
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from typing import Any

from .errors import SymattnError
from .exact import Combination, ExpRatio, NegInf, Surd, decimal_context
from .steps import Derivation, Step, Values

__all__ = ["BACKWARD_STEPS", "MAX_BACKWARD_SIZE", "extend"]

#: The backward closed forms grow fast; larger problems get a clear error.
MAX_BACKWARD_SIZE = 6
BACKWARD_STEPS = (
    "dO", "dV", "dweights", "dscaled_scores", "dscores", "dQ", "dK", "dW_Q", "dW_K", "dW_V", "dX",
)  # fmt: skip

SymMatrix = list[list[Any]]
DecMatrix = list[list[Decimal | None]]


def _sym(matrix: Any) -> SymMatrix:
    import sympy

    out = []
    for row in matrix:
        cells = []
        for x in row:
            if isinstance(x, (Surd, ExpRatio, Combination)):
                cells.append(x.to_sympy())
            elif isinstance(x, NegInf):
                cells.append(-sympy.oo)
            else:
                cells.append(sympy.sympify(x))
        out.append(cells)
    return out


def _t(matrix: list[list[Any]]) -> list[list[Any]]:
    return [list(col) for col in zip(*matrix)]


def _mm_sym(a: SymMatrix, b: SymMatrix) -> SymMatrix:
    import sympy

    return [[sympy.Add(*(x * y for x, y in zip(row, col))) for col in zip(*b)] for row in a]


def _mm_dec(a: DecMatrix, b: DecMatrix) -> DecMatrix:
    if any(x is None for row in a + b for x in row):
        return _unknown(len(a), len(b[0]))
    return [
        [
            sum((x * y for x, y in zip(row, col) if x is not None and y is not None), Decimal(0))
            for col in zip(*b)
        ]
        for row in a
    ]


def _unknown(rows: int, cols: int) -> DecMatrix:
    """Values of a symbolic problem: there are none."""
    return [[None] * cols for _ in range(rows)]


def _surd_dec(matrix: Any, precision: int) -> DecMatrix:
    return [
        [e.to_decimal(precision) if isinstance(e, Surd) else None for e in row] for row in matrix
    ]


def _dec(values: Values) -> DecMatrix:
    return [list(row) for row in values]


def _values(matrix: DecMatrix) -> Values:
    return tuple(tuple(row) for row in matrix)


def extend(derivation: Derivation) -> Derivation:
    """The derivation with the backward steps of SPEC §5 appended."""
    d, p = derivation, derivation.problem
    if p.dO is None and p.target is None:
        raise SymattnError(
            f"{p.source}: --backward needs an upstream gradient: give dO (n × d_v), or a "
            "target T for the loss ½‖O − T‖²"
        )
    size = max(p.n, p.m, p.d_model or 0, p.d_k, p.d_v)
    if size > MAX_BACKWARD_SIZE:
        raise SymattnError(
            f"{p.source}: --backward derives problems up to size {MAX_BACKWARD_SIZE} "
            f"(n, m, d_model, d_k, d_v); this one has {size}"
        )
    steps: list[Step] = list(d.steps)
    matrices = dict(d.matrices)
    tokens = p.tokens
    kv_tokens = p.memory_tokens if p.memory is not None else tokens
    with decimal.localcontext(decimal_context(d.precision)):
        return _backward(d, steps, matrices, tokens, kv_tokens)


def _backward(
    d: Derivation,
    steps: list[Step],
    matrices: dict[str, Any],
    tokens: tuple[str, ...] | None,
    kv_tokens: tuple[str, ...] | None,
) -> Derivation:
    import sympy

    p = d.problem

    def add(
        step_id: str,
        formula: str,
        kind: str,
        exact: SymMatrix,
        values: DecMatrix,
        operands: tuple[str, ...] = (),
        left_t: bool = False,
        right_t: bool = False,
        rows: tuple[str, ...] | None = None,
    ) -> tuple[SymMatrix, DecMatrix]:
        frozen = tuple(tuple(row) for row in exact)
        steps.append(
            Step(
                step_id,
                step_id,
                formula,
                kind,
                frozen,
                _values(values),
                operands,
                right_t,
                rows,
                None,
                transpose_left=left_t,
            )
        )
        matrices[step_id] = frozen
        return exact, values

    if p.dO is not None:
        do_sym = _sym(p.dO)
        do_val: DecMatrix = [
            [x.to_decimal(d.precision) if isinstance(x, Surd) else None for x in row]
            for row in p.dO
        ]
        formula = "dO (given)"
    else:
        assert p.target is not None
        o = d.step("output")
        t_sym = _sym(p.target)
        do_sym = [[x - t for x, t in zip(r, tr)] for r, tr in zip(_sym(o.exact), t_sym)]
        do_val = [
            [
                None if x is None or not isinstance(t, Surd) else x - t.to_decimal(d.precision)
                for x, t in zip(r, tr)
            ]
            for r, tr in zip(o.values, p.target)
        ]
        formula = "dO = O − T (L = ½‖O − T‖²)"
    add("dO", formula, "given", do_sym, do_val, rows=tokens)
    xw = p.X is not None and p.W_Q is not None and p.W_K is not None and p.W_V is not None
    if xw:
        x_sym, x_val = _sym(p.X), _dec(d.step("X").values)
        kv_name = "memory" if p.memory is not None else "X"
        kv_sym = _sym(p.memory) if p.memory is not None else x_sym
        kv_val = _surd_dec(p.memory, d.precision) if p.memory is not None else x_val

    def head(prefix: str, do_id: str, do_sym: SymMatrix, do_val: DecMatrix) -> list[Any]:
        """One head's gradients (ids prefixed); returns its (dQ, W_Q), … pairs for dX."""
        a_sym, a_val = (
            _sym(d.step(f"{prefix}weights").exact),
            _dec(d.step(f"{prefix}weights").values),
        )
        v_sym, v_val = _sym(d.step(f"{prefix}V").exact), _dec(d.step(f"{prefix}V").values)
        q_sym, q_val = _sym(d.step(f"{prefix}Q").exact), _dec(d.step(f"{prefix}Q").values)
        k_sym, k_val = _sym(d.step(f"{prefix}K").exact), _dec(d.step(f"{prefix}K").values)
        dv = add(
            f"{prefix}dV",
            "dV = Aᵀ dO",
            "product",
            _mm_sym(_t(a_sym), do_sym),
            _mm_dec(_t(a_val), do_val),
            (f"{prefix}weights", do_id),
            left_t=True,
            rows=kv_tokens,
        )
        da = add(
            f"{prefix}dweights",
            "dA = dO Vᵀ",
            "product",
            _mm_sym(do_sym, _t(v_sym)),
            _mm_dec(do_val, _t(v_val)),
            (do_id, f"{prefix}V"),
            right_t=True,
            rows=tokens,
        )
        # the softmax Jacobian, row by row: dS'_ij = a_ij (dA_ij − Σ_k a_ik dA_ik)
        js_sym: SymMatrix = []
        js_val: DecMatrix = []
        for a_row, g_row, av, gv in zip(a_sym, da[0], a_val, da[1]):
            inner = sympy.Add(*(a * g for a, g in zip(a_row, g_row)))
            js_sym.append(
                [a * (g - inner) if a != 0 else sympy.Integer(0) for a, g in zip(a_row, g_row)]
            )
            known = [(x, y) for x, y in zip(av, gv) if x is not None and y is not None]
            if len(known) < len(av):
                js_val.append([None] * len(av))
            else:
                total = sum((x * y for x, y in known), Decimal(0))
                js_val.append([x * (y - total) for x, y in known])
        scaled = p.scale is not None
        first = f"{prefix}dscaled_scores" if scaled else f"{prefix}dscores"
        ds = add(
            first,
            "dS'_i = (diag(a_i) − a_i a_iᵀ) dA_i",
            "jacobian",
            js_sym,
            js_val,
            (f"{prefix}weights", f"{prefix}dweights"),
            rows=tokens,
        )
        if scaled:
            symbolic_scale = not isinstance(p.scale, Surd)
            c_sym = p.scale if symbolic_scale else p.scale.to_sympy()
            c_val = None if symbolic_scale else p.scale.to_decimal(d.precision)
            ds = add(
                f"{prefix}dscores",
                "dS = dS' / √d_k" if p.scale_label == "sqrt(d_k)" else "dS = dS' / c",
                "scale",
                [[x / c_sym for x in row] for row in ds[0]],
                [[None if x is None or c_val is None else x / c_val for x in row] for row in ds[1]],
                (f"{prefix}dscaled_scores",),
                rows=tokens,
            )
        dq = add(
            f"{prefix}dQ",
            "dQ = dS K",
            "product",
            _mm_sym(ds[0], k_sym),
            _mm_dec(ds[1], k_val),
            (f"{prefix}dscores", f"{prefix}K"),
            rows=tokens,
        )
        dk = add(
            f"{prefix}dK",
            "dK = dSᵀ Q",
            "product",
            _mm_sym(_t(ds[0]), q_sym),
            _mm_dec(_t(ds[1]), q_val),
            (f"{prefix}dscores", f"{prefix}Q"),
            left_t=True,
            rows=kv_tokens,
        )
        if not xw:
            return []
        for name, source, grad in (("dW_Q", "X", dq), ("dW_K", kv_name, dk), ("dW_V", kv_name, dv)):
            left_sym, left_val = (x_sym, x_val) if source == "X" else (kv_sym, kv_val)
            add(
                f"{prefix}{name}",
                f"{name} = {source}ᵀ {grad_name(name)}",
                "product",
                _mm_sym(_t(left_sym), grad[0]),
                _mm_dec(_t(left_val), grad[1]),
                (source, f"{prefix}{grad_name(name)}"),
                left_t=True,
            )
        parts = [(f"{prefix}dQ", f"{prefix}W_Q", dq)]
        if p.memory is None:
            parts += [(f"{prefix}dK", f"{prefix}W_K", dk), (f"{prefix}dV", f"{prefix}W_V", dv)]
        return parts

    if p.heads == 1 and p.W_O is None:
        parts = head("", "dO", do_sym, do_val)
    else:
        c_sym, c_val = _sym(d.step("concat").exact), _dec(d.step("concat").values)
        dc_id, dc_sym, dc_val = "dO", do_sym, do_val
        if p.W_O is not None:
            wo_sym, wo_val = _sym(p.W_O), _surd_dec(p.W_O, d.precision)
            add(
                "dW_O",
                "dW_O = Cᵀ dO",
                "product",
                _mm_sym(_t(c_sym), do_sym),
                _mm_dec(_t(c_val), do_val),
                ("concat", "dO"),
                left_t=True,
            )
            dc_sym, dc_val = add(
                "dconcat",
                "dC = dO W_Oᵀ",
                "product",
                _mm_sym(do_sym, _t(wo_sym)),
                _mm_dec(do_val, _t(wo_val)),
                ("dO", "W_O"),
                right_t=True,
                rows=tokens,
            )
            dc_id = "dconcat"
        parts = []
        width = p.d_v
        for t in range(p.heads):
            prefix = f"h{t + 1}."
            block_sym = [row[t * width : (t + 1) * width] for row in dc_sym]
            block_val = [row[t * width : (t + 1) * width] for row in dc_val]
            add(
                f"{prefix}dO",
                f"dO of head {t + 1} = columns {t * width + 1}…{(t + 1) * width} of {dc_id}",
                "given",
                block_sym,
                block_val,
                rows=tokens,
            )
            parts += head(prefix, f"{prefix}dO", block_sym, block_val)
    if xw:
        total_sym: SymMatrix | None = None
        total_val: DecMatrix | None = None
        for _, weight, grad in parts:
            w = matrices[weight]
            w_sym, w_val = _sym(w), _surd_dec(w, d.precision)
            term_sym, term_val = _mm_sym(grad[0], _t(w_sym)), _mm_dec(grad[1], _t(w_val))
            if total_sym is None or total_val is None:
                total_sym, total_val = term_sym, term_val
            else:
                total_sym = [[a + b for a, b in zip(r, s)] for r, s in zip(total_sym, term_sym)]
                total_val = [
                    [None if a is None or b is None else a + b for a, b in zip(r, s)]
                    for r, s in zip(total_val, term_val)
                ]
        assert total_sym is not None and total_val is not None
        formula = "dX = Σ dQ W_Qᵀ" if p.heads > 1 else "dX = dQ W_Qᵀ"
        if p.memory is None:
            formula += " + dK W_Kᵀ + dV W_Vᵀ"
        add(
            "dX",
            formula,
            "product_sum",
            total_sym,
            total_val,
            tuple(x for g, w, _ in parts for x in (g, w)),
            right_t=True,
            rows=tokens,
        )
    return Derivation(p, tuple(steps), matrices, d.precision)


def grad_name(weight_gradient: str) -> str:
    """The gradient a weight's gradient is made from: dW_Q ← dQ, dW_K ← dK, dW_V ← dV."""
    return {"dW_Q": "dQ", "dW_K": "dK", "dW_V": "dV"}[weight_gradient]
