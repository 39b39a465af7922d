"""One encoder block by hand (``block = true``, ``norm = "post"`` or ``"pre"``, ``eps``
(default 0), ``gamma`` (1s), ``beta`` (0s), ``W_1``, ``b_1``, ``W_2``, ``b_2``).

Post-norm (default): residual = X + output, norm = LN(residual), ffn_hidden =
ReLU(norm W_1 + b_1), ffn_output = ffn_hidden W_2 + b_2, block_output = LN(norm +
ffn_output).  Pre-norm: attention reads LN(X); residual = X + output; norm =
LN(residual); block_output = residual + FFN(norm).  LN over each row, biased variance,
exact (surds).  With positions the block's X is X̃ = X + P.  Its mistake: LayerNorm with
the unbiased variance.

>>> from symattn.load import load
>>> p = load({"X": [[1, 0], [0, 2]], "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]],
...           "W_V": [[1, 0], [0, 1]], "block": True, "W_1": [[1], [0]], "W_2": [[1, 1]]})
>>> from symattn.plan import forward_plan
>>> forward_plan(p).ids[-5:]
('residual', 'norm', 'ffn_hidden', 'ffn_output', 'block_output')
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import SymattnError
from ..numbers import Surd
from ..printing import Names, pretty
from ..problem import Matrix, Problem, TopicConfig
from ..steps import Kind, Plan, Source, StepSpec
from ..words import Words
from . import block_numpy, block_writing
from .base import Builder, KindRules, LoadContext, Matrices, Mistake, Run, Topic
from .block_kinds import (
    AFFINE,
    LAYERNORM,
    RESIDUAL,
    AffineParams,
    LayerNormParams,
    affine,
    decimal_affine,
    decimal_layer_norm_rule,
    layer_norm,
)
from .cells import CellRefs
from .page_rule import PageRule

__all__ = ["TOPIC", "BlockConfig"]

#: The matrices of a block that the problem gives (the vectors γ, β, b_1, b_2 too).
GIVEN = ("gamma", "beta", "W_1", "b_1", "W_2", "b_2")


class BlockConfig(TopicConfig):
    norm: str  # "post" or "pre"
    eps: Any
    gamma: Matrix
    beta: Matrix
    W_1: Matrix
    b_1: Matrix
    W_2: Matrix
    b_2: Matrix

    def givens(self) -> dict[str, Matrix]:
        return {name: getattr(self, name) for name in GIVEN}

    @property
    def layer_norm(self) -> LayerNormParams:
        return LayerNormParams(self.eps, self.gamma, self.beta)


_LETTERS = {"X": "X", "X_pos": "X̃", "residual": "R", "norm": "Z", "ffn_output": "F"}
_RESULTS = {"X_norm": "X̂", "norm": "Z", "block_output": "Y"}


def _layer_norm(
    step_id: str, operand: str, p: Problem, config: BlockConfig, plus: str | None = None
) -> StepSpec:
    """LN over each row of ``operand`` (of ``operand + plus``)."""
    name = _LETTERS.get(operand, operand)
    if plus is not None:
        name = f"{name} + {_LETTERS.get(plus, plus)}"
    return StepSpec(
        id=step_id,
        kind=LAYERNORM,
        operands=(operand,) if plus is None else (operand, plus),
        params=config.layer_norm,
        row_labels=p.tokens,
    )


def _weights(ctx: LoadContext, key: str, rows: int, rule: str) -> Matrix:
    if not ctx.has(key):
        raise ctx.error(f"missing {key}: the block's feed-forward network needs it")
    matrix = ctx.matrix(key)
    if len(matrix) != rows:
        raise ctx.error(f"has {len(matrix)} rows but needs {rows} ({rule})", key)
    return matrix


def _unbiased(problem: Problem, plan: Plan) -> list[Run]:
    """LayerNorm with the variance over d − 1 (the sample variance), not over d."""

    def change(spec: StepSpec) -> StepSpec | None:
        if spec.kind != LAYERNORM:
            return None
        return spec.changed(params=dataclasses.replace(spec.params, unbiased=True))

    return [(problem, plan.changed(change), {})]


def _norm_cells(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str:
    """γ_j (x_ij − μ_i) / √(σ_i² + ε) + β_j, x = the operand (or the sum of the two)."""
    params = spec.params
    d = refs.width(0)
    rows = [refs.row(k, i) for k in range(refs.operands)]
    x = "+".join(refs.cell(k, i, j) for k in range(refs.operands))
    mean = f"(SUMPRODUCT({'+'.join(rows)})/{d})"
    var = f"(SUMPRODUCT(({'+'.join(rows)}-{mean})^2)/{d - 1 if params.unbiased else d})"
    gamma = refs.constant(params.gamma[0][j]) if params.gamma else "1"
    beta = refs.constant(params.beta[0][j]) if params.beta else "0"
    return f"{gamma}*(({x})-{mean})/SQRT({var}+{refs.constant(params.eps)})+{beta}"


def _affine_cells(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str:
    """Σ_k x_ik w_kj + b_j, through ReLU when asked."""
    total = "+".join(f"{refs.cell(0, i, k)}*{refs.cell(1, k, j)}" for k in range(refs.width(0)))
    total += f"+{refs.cell(2, 0, j)}"
    return f"MAX(0,{total})" if spec.params.activation == "relu" else total


class Block(Topic):
    name = "block"
    with_memory = False  # attends over its own tokens
    asked = "block"
    fixed = ("gamma", "beta", "b_1", "b_2")
    keys = ("block", "norm", "eps", "gamma", "beta", "W_1", "b_1", "W_2", "b_2")
    laid_out = ("W_1", "W_2")
    after_scores = ("W_1", "b_1", "W_2")  # the FFN's (b_2 is drawn with the key's values)
    shown = GIVEN
    kinds = (
        KindRules(
            LAYERNORM,
            lambda spec, args, p: layer_norm(args, spec.params),
            decimal_layer_norm_rule,
            block_writing.layer_norm_step,
            closed=True,
            cells=_norm_cells,
            general=block_writing.layer_norm_general,
            page=PageRule(
                """(spec, args, problem, p, k, o) => {
  if (args[0][0].length < 2 && k.unbiased) throw new o.NotApplicable("one entry");
  const rows = args.length === 2
    ? args[0].map((r, i) => r.map((x, j) => o.add(x, args[1][i][j], p))) : args[0];
  return rows.map((row) => {
    const d = row.length;
    const mean = o.div(o.sum(row, p), o.D(String(d)), p);
    const squares = row.map((x) => { const dx = o.sub(x, mean, p); return o.mul(dx, dx, p); });
    const variance = o.div(o.sum(squares, p), o.D(String(k.unbiased ? d - 1 : d)), p);
    const spread = o.add(variance, o.D(k.eps), p);
    if (spread.neg || spread.isZero()) throw new o.NotApplicable("zero variance");
    const root = o.R.sqrt(spread, p);
    return row.map((x, j) =>
      o.add(o.div(o.mul(o.D(k.gamma[j]), o.sub(x, mean, p), p), root, p), o.D(k.beta[j]), p));
  });
}""",
                lambda spec, p, shape: {
                    "gamma": [str(x.in_context()) for x in spec.params.gamma[0]],
                    "beta": [str(x.in_context()) for x in spec.params.beta[0]],
                    "eps": str(spec.params.eps.in_context()),
                    "unbiased": spec.params.unbiased,
                },
            ),
        ),
        KindRules(
            AFFINE,
            lambda spec, args, p: affine(args[0], args[1], args[2], spec.params.activation),
            lambda spec, args, p, given: decimal_affine(
                args[0], args[1], args[2], spec.params.activation
            ),
            block_writing.affine_step,
            closed=True,
            cells=_affine_cells,
            general=block_writing.affine_general,
            page=PageRule(
                """(spec, args, problem, p, k, o) => {
  const cols = o.t(args[1]);
  return args[0].map((row) => {
    const values = cols.map((col, j) => {
      let total = args[2][0][j];
      row.forEach((v, r) => (total = o.add(total, o.mul(v, col[r], p), p)));
      return total;
    });
    return k.relu ? values.map((v) => (o.R.cmp(v, o.ZERO) > 0 ? v : o.ZERO)) : values;
  });
}""",
                lambda spec, p, shape: {"relu": spec.params.activation == "relu"},
            ),
        ),
    )
    mistakes = (
        Mistake(
            "layernorm_unbiased_variance",
            ("X_norm", "norm", "ffn_hidden", "ffn_output", "block_output"),
            _unbiased,
        ),
    )
    names: ClassVar[Mapping[str, Names]] = {
        "X_norm": Names(r"\hat{x}", r"\hat{x}", "x̂", r"\hat{X}", r"\hat{X}", "X̂"),
        "residual": Names("r", "r", "r", "R", "R", "R"),
        "norm": Names("z", "z", "z", "Z", "Z", "Z"),
        "ffn_hidden": Names("h", "h", "h", "H", "H", "H"),
        "ffn_output": Names("f", "f", "f", "F", "F", "F"),
        "block_output": Names("y", "y", "y", "Y", "Y", "Y"),
        "W_1": Names("w^{(1)}", "{w^{(1)}}", "w⁽¹⁾", "W_{1}", "W_{1}", "W_1"),
        "W_2": Names("w^{(2)}", "{w^{(2)}}", "w⁽²⁾", "W_{2}", "W_{2}", "W_2"),
        "b_1": Names("b^{(1)}", "{b^{(1)}}", "b⁽¹⁾", "b_{1}", "b_{1}", "b_1"),
        "b_2": Names("b^{(2)}", "{b^{(2)}}", "b⁽²⁾", "b_{2}", "b_{2}", "b_2"),
        "gamma": Names(r"\gamma", r"\gamma", "γ", r"\gamma", r"\gamma", "γ"),
        "beta": Names(r"\beta", r"\beta", "β", r"\beta", r"\beta", "β"),
    }
    symbols: ClassVar[Mapping[str, tuple[str, str]]] = {
        "mu": (r"\mu", "μ"),
        "sigma2": (r"\sigma^{2}", "σ²"),
        "eps": (r"\varepsilon", "ε"),
        "gamma": (r"\gamma", "γ"),
        "beta": (r"\beta", "β"),
        "b1": (r"b^{(1)}", "b⁽¹⁾"),
        "b2": (r"b^{(2)}", "b⁽²⁾"),
        "relu": (r"\mathrm{ReLU}", "ReLU"),
        "max": (r"\max", "max"),
        "squared": ("^{2}", "²"),
        "layer_norm": (
            r"\mathrm{LN}(x) = \gamma (x - \mu) / \sqrt{\sigma^{2} + \varepsilon} + \beta",
            "LN(x) = γ (x − μ) / √(σ² + ε) + β",
        ),
        "sigma2_plus_eps": (r"\sigma^{2} + \varepsilon", "σ² + ε"),
        "residual": ("R = X + O", "R = X + O"),
        "Z_post": (r"Z = \mathrm{LN}(R)", "Z = LN(R)"),
        "ffn": (
            r"\mathrm{FFN}(Z) = \mathrm{ReLU}(Z W_{1} + b_{1}) W_{2} + b_{2}",
            "FFN(Z) = ReLU(Z W_1 + b_1) W_2 + b_2",
        ),
        "block_out_post": (r"\mathrm{LN}(Z + \mathrm{FFN}(Z))", "LN(Z + FFN(Z))"),
        "block_out_pre": (r"R + \mathrm{FFN}(\mathrm{LN}(R))", "R + FFN(LN(R))"),
        "LN_X": (r"\mathrm{LN}(X)", "LN(X)"),
        "LN_R": (r"\mathrm{LN}(R)", "LN(R)"),
        "relu_max": (r"\max(0, \cdot)", "max(0, ·)"),
        "d_model_minus_1": (r"d_{\text{model}} - 1", "d_model − 1"),
        "biased_variance": (
            r"\sigma^{2} = \sum_{k} (x_{k} - \mu)^{2} / d_{\text{model}}",
            "σ² = Σₖ (xₖ − μ)² / d_model",
        ),
    }
    numpy = block_numpy.PATH

    def read(self, ctx: LoadContext) -> BlockConfig | None:
        if not ctx.flag("block"):
            extra = [k for k in self.keys[1:] if ctx.has(k)]
            if extra:
                raise ctx.error("only for an encoder block; add block = true", extra[0])
            return None
        if ctx.symbolic:
            raise ctx.error("an encoder block is derived for numbers only", "block")
        if (not ctx.has("X") and not ctx.has("text")) or ctx.has("memory") or ctx.has("Q"):
            raise ctx.error(
                "an encoder block needs X (or text) and the W's, self-attention", "block"
            )
        if ctx.has("dO") or ctx.has("target"):
            raise ctx.error("the backward pass of a block is not derived", "block")
        shapes = ctx.shapes
        d_model = shapes["d_model"]
        width = shapes.get("d_out", shapes["d_v"] * shapes["heads"])
        if width != d_model:
            raise ctx.error(
                f"the attention output has {width} columns but X has d_model = {d_model}; the "
                "residual X + output needs them equal (choose W_V or W_O so)",
                "block",
            )
        norm = ctx.data.get("norm", "post")
        if norm not in ("post", "pre"):
            raise ctx.error(f'expected "post" or "pre", found {norm!r}', "norm")
        eps = ctx.number(ctx.data["eps"], "eps") if ctx.has("eps") else None
        if eps is not None and (not eps.is_rational or eps.sign() < 0):
            raise ctx.error(
                f"expected a rational number ≥ 0 such as 1e-5, found {ctx.data['eps']!r}", "eps"
            )
        w_1 = _weights(ctx, "W_1", d_model, f"norm W_1: d_model = {d_model}")
        d_ff = len(w_1[0])
        w_2 = _weights(ctx, "W_2", d_ff, f"hidden W_2: d_ff = {d_ff}")
        if len(w_2[0]) != d_model:
            raise ctx.error(
                f"has {len(w_2[0])} columns but the block's output needs d_model = {d_model}",
                "W_2",
            )
        return BlockConfig(
            norm=norm,
            eps=eps if eps is not None else Surd(),
            gamma=ctx.vector("gamma", d_model, 1),
            beta=ctx.vector("beta", d_model, 0),
            W_1=w_1,
            b_1=ctx.vector("b_1", d_ff, 0),
            W_2=w_2,
            b_2=ctx.vector("b_2", d_model, 0),
        )

    def after_x(self, b: Builder, config: BlockConfig) -> None:
        if config.norm == "pre":  # attention reads LN(X) (LN(X̃) with positions)
            b.attended = b.add(_layer_norm("X_norm", b.attended, b.problem, config))

    def after_attention(self, b: Builder, config: BlockConfig) -> None:
        p, x, tokens = b.problem, b.x, b.problem.tokens
        b.inputs.update((name, Source(name)) for name in ("W_1", "b_1", "W_2", "b_2"))
        b.add(
            StepSpec(
                id="residual",
                kind=Kind.ADD,
                operands=(x, b.output),
                params=RESIDUAL,
                row_labels=tokens,
            )
        )
        b.add(_layer_norm("norm", "residual", p, config))
        b.add(
            StepSpec(
                id="ffn_hidden",
                kind=AFFINE,
                operands=("norm", "W_1", "b_1"),
                params=AffineParams("relu"),
                row_labels=tokens,
            )
        )
        b.add(
            StepSpec(
                id="ffn_output",
                kind=AFFINE,
                operands=("ffn_hidden", "W_2", "b_2"),
                params=AffineParams(),
                row_labels=tokens,
            )
        )
        if config.norm == "pre":
            b.add(
                StepSpec(
                    id="block_output",
                    kind=Kind.ADD,
                    operands=("residual", "ffn_output"),
                    params=RESIDUAL,
                    row_labels=tokens,
                )
            )
        else:  # post-norm: Y = LN(Z + F), the sum written out inside the step
            b.add(_layer_norm("block_output", "norm", p, config, "ffn_output"))

    def result(self, problem: Problem, config: BlockConfig) -> str:
        return "block_output"

    def notes(self, problem: Problem, config: BlockConfig, w: Words) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = [
            w.parts(f"derive.block_{config.norm}"),
            w.parts("derive.given_layernorm", eps=pretty(config.eps)),
        ]
        if problem.topic("positions") is not None:
            out.append(w.parts("derive.block_positions"))
        return out

    def check_options(self, options: Any) -> None:
        d_model = options.shape[1]
        if options.d_v is not None and options.d_v != d_model:
            raise SymattnError(
                "an encoder block adds the attention output to X: d_v is d_model "
                f"({d_model}), found {options.d_v}",
                option="d-v",
            )
        if options.heads != 1:
            raise SymattnError(
                "an encoder block exercise has one head (its output must be d_model wide)",
                option="heads",
            )

    def d_v(self, options: Any, d_model: int, d_v: int) -> int:
        return d_model  # the residual adds the attention output to X

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        """Post-norm, ε = 0, a ReLU feed-forward network of width d_model + 1 with small
        integer weights."""
        _, d_model, _, _ = options.shape
        d_ff = d_model + 1
        data |= {
            "block": True,
            "norm": "post",
            "W_1": matrix(d_model, d_ff, 1, sparse=True),
            "b_1": [rng.choice((0, 0, 1)) for _ in range(d_ff)],
            "W_2": matrix(d_ff, d_model, 1, sparse=True),
        }


TOPIC = Block()
