"""More masks: an additive ``mask`` (a matrix with −∞ or finite negative numbers, −99 or −1e9
as courses write it), added to the scaled scores; and ``valid_lens`` (keys each query may
see: a padding mask from lengths).  A mask of only 0/1 stays the core's keep-mask.

>>> from symattn.load import load
>>> p = load({"Q": [[1], [0]], "K": [[1], [2]], "V": [[1], [2]], "valid_lens": [1, 2]})
>>> p.mask, p.mask_label
(((True, False), (True, True)), 'valid_lens')
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, ClassVar

from ..numbers import NEG_INF
from ..printing import Names
from ..problem import Matrix, TopicConfig
from ..steps import Kind, Source, StepSpec
from . import masks_numpy
from .base import Builder, LoadContext, Topic

__all__ = ["TOPIC", "MasksConfig", "is_additive"]

_NEG_INF_TEXT = ("-inf", "−inf", "-∞", "−∞", "-oo", "-infinity", "−infinity")


class MasksConfig(TopicConfig):
    add: Matrix | None = None  # the additive mask (numbers, −∞), n × m
    valid_lens: tuple[int, ...] | None = None

    def givens(self) -> dict[str, Matrix]:
        return {} if self.add is None else {"mask": self.add}


def _negative(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, Decimal):
        return v.is_signed() and not v.is_nan() and not v.is_zero()
    if isinstance(v, (int, float)):
        return bool(v < 0)
    return isinstance(v, str) and v.strip()[:1] in ("-", "−")


def is_additive(raw: Any) -> bool:
    """A mask matrix with a negative entry (−99, "-inf") adds to the scores; a matrix of
    0/1 stays a keep-mask."""
    if not isinstance(raw, list):
        return False
    return any(isinstance(row, list) and any(_negative(v) for v in row) for row in raw)


def _additive(ctx: LoadContext, raw: list[Any], n: int, m: int) -> Matrix:
    """The additive mask, n × m (written m × n, keys down the side, in the column layout)."""
    rows_wanted, cols_wanted = (m, n) if ctx.layout == "column" else (n, m)
    if len(raw) != rows_wanted:
        what = "one per key" if ctx.layout == "column" else "one per query"
        raise ctx.error(f"expected {rows_wanted} rows, {what}, found {len(raw)}", "mask")
    rows = []
    for i, row in enumerate(raw):
        if not isinstance(row, list) or len(row) != cols_wanted:
            what = "one per query" if ctx.layout == "column" else "one per key"
            raise ctx.error(f"expected {cols_wanted} entries ({what})", "mask", i)
        cells: list[Any] = []
        for j, v in enumerate(row):
            text = v.strip().lower() if isinstance(v, str) else None
            if text in _NEG_INF_TEXT or (
                isinstance(v, (float, Decimal)) and v == Decimal("-Infinity")
            ):
                cells.append(NEG_INF)
                continue
            number = ctx.number(v, "mask", i, j)
            if number.sign() > 0:
                raise ctx.error(
                    f"an additive mask holds 0, negative numbers or -inf; found {v!r}", "mask", i, j
                )
            cells.append(number)
        rows.append(tuple(cells))
    matrix = tuple(rows) if ctx.layout != "column" else tuple(zip(*rows))
    for i, row in enumerate(matrix):
        if all(c is NEG_INF for c in row):
            where = (None, i) if ctx.layout == "column" else (i, None)
            raise ctx.error(
                f"every key is −∞, so the softmax of query {i + 1} is undefined; leave at "
                "least one key finite",
                "mask",
                *where,
            )
    return matrix


def _valid_lens(ctx: LoadContext, n: int, m: int) -> tuple[int, ...]:
    raw = ctx.data["valid_lens"]
    lens = [raw] * n if isinstance(raw, int) and not isinstance(raw, bool) else raw
    if not isinstance(lens, list) or len(lens) != n:
        raise ctx.error(f"expected a whole number or a list of {n} (one per query)", "valid_lens")
    for i, length in enumerate(lens):
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= m:
            raise ctx.error(
                f"expected a whole number 1 … {m} (keys that query {i + 1} may see), "
                f"found {length!r}",
                f"valid_lens[{i + 1}]",
            )
    return tuple(lens)


class Masks(Topic):
    name = "masks"
    asked = "valid_lens or an additive mask"
    keys = ("valid_lens",)
    backward = True
    laid_out = ("mask",)
    names: ClassVar[Mapping[str, Names]] = {
        "mask": Names(r"\mu", r"\mu", "μ", r"\mathcal{M}", r"\mathcal{M}", "Mask")
    }
    numpy = masks_numpy.PATH

    def claims_mask(self, raw: Any) -> str | None:
        return "additive" if is_additive(raw) else None

    def read(self, ctx: LoadContext) -> MasksConfig | None:
        n, m = ctx.shapes["n"], ctx.shapes["m"]
        lens = None
        if ctx.has("valid_lens"):
            lens = _valid_lens(ctx, n, m)
            base = ctx.mask or tuple(tuple(True for _ in range(m)) for _ in range(n))
            keep = tuple(
                tuple(k and j < lens[i] for j, k in enumerate(row)) for i, row in enumerate(base)
            )
            for i, row in enumerate(keep):
                if not any(row):
                    raise ctx.error(f"query {i + 1} may see no key", "valid_lens")
            ctx.mask = keep
            label = ctx.mask_label
            ctx.mask_label = "valid_lens" if label == "none" else f"{label}+valid_lens"
        raw = ctx.data.get("mask")
        add = None
        if isinstance(raw, list) and is_additive(raw):
            add = _additive(ctx, raw, n, m)
            if ctx.mask is not None:  # padding or valid_lens on top: −∞ there
                add = tuple(
                    tuple(v if k else NEG_INF for v, k in zip(row, krow))
                    for row, krow in zip(add, ctx.mask)
                )
            ctx.mask = None
        if lens is None and add is None:
            return None
        return MasksConfig(add, lens)

    def on_scores(self, b: Builder, config: MasksConfig) -> None:
        if config.add is None:
            return
        b.inputs["mask"] = Source("mask")
        p = b.problem
        b.scored(
            b.add(
                StepSpec(
                    id=f"{b.prefix}masked_scores",
                    kind=Kind.ADD,
                    operands=(b.current, "mask"),
                    row_labels=p.tokens,
                    col_labels=p.kv_tokens,
                )
            ),
            "M",
        )


TOPIC = Masks()
