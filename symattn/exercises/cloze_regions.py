"""Where a numerical Cloze field names a mistake: its 0 % answers, as intervals of the line.

``check`` marks an entry typed with N or more places right when it lies within one unit of
the N-th place (``unit``) of the exact value, and names a mistake when the typed value lies
within one unit of its last place of that mistake's value.  Moodle's numerical field tries
its answers in order and takes the first whose ``[value − tolerance, value + tolerance]``
holds the typed number.  So the right answer comes first, centred on the exact key with a
tolerance of one unit, and the rest of the line is cut where any mistake's interval
``[m − unit, m + unit]`` starts or ends: each piece outside the key's interval that some
mistake holds is one answer (its centre and half its width), naming every mistake that
holds it.  Pieces never overlap, so no answer lies within the tolerance of another; where
two pieces touch, the one naming every mistake of the point they share is tried first.

>>> mistakes = [Decimal("0.6"), Decimal("0.615"), Decimal("0.505")]
>>> for r in regions(Decimal("0.5"), Decimal("0.01"), mistakes):
...     print(r.low, r.high, r.names)
0.51 0.515 (2,)
0.605 0.61 (0, 1)
0.59 0.605 (0,)
0.61 0.625 (1,)
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from itertools import pairwise

from ..record import Record

__all__ = ["Region", "plain", "regions"]


class Region(Record):
    """One 0 % answer: the typed values ``low`` … ``high`` (both included) name the
    mistakes ``names`` (indices into the list given to :func:`regions`)."""

    low: Decimal
    high: Decimal
    names: tuple[int, ...]

    @property
    def centre(self) -> Decimal:
        return (self.low + self.high) / 2

    @property
    def radius(self) -> Decimal:
        return (self.high - self.low) / 2


def plain(value: Decimal) -> str:
    """A decimal as Moodle's numbers are written: digits and a point, no exponent."""
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _holding(point: Decimal, unit: Decimal, mistakes: Sequence[Decimal]) -> tuple[int, ...]:
    return tuple(k for k, m in enumerate(mistakes) if abs(point - m) <= unit)


def _pieces(key: Decimal, unit: Decimal, mistakes: Sequence[Decimal]) -> list[Region]:
    """The pieces outside the key's interval that some mistake holds, left to right."""
    ends = sorted({key - unit, key + unit} | {m + s for m in mistakes for s in (-unit, unit)})
    out: list[Region] = []
    for low, high in pairwise(ends):
        middle = (low + high) / 2
        if abs(middle - key) <= unit:
            continue  # the right answer's
        names = _holding(middle, unit, mistakes)
        if not names:
            continue
        if out and out[-1].high == low and out[-1].names == names:
            out[-1] = Region(out[-1].low, high, names)
        else:
            out.append(Region(low, high, names))
    return out


def _left_first(left: Region, right: Region, unit: Decimal, mistakes: Sequence[Decimal]) -> bool:
    """Which of two touching pieces Moodle should try first: the one that names every
    mistake of the point they share (else the one naming more; else the left)."""
    shared = set(_holding(left.high, unit, mistakes))
    if shared == set(right.names) and shared != set(left.names):
        return False
    if shared == set(left.names):
        return True
    return len(left.names) >= len(right.names)


def regions(key: Decimal, unit: Decimal, mistakes: Sequence[Decimal]) -> list[Region]:
    """The 0 % answers of a field whose right answer is ``key`` ± ``unit``, in the order
    Moodle must try them, for the (finite) mistake values ``mistakes``."""
    pieces = _pieces(key, unit, mistakes)
    after: dict[int, set[int]] = {k: set() for k in range(len(pieces))}  # k after these
    for k in range(len(pieces) - 1):
        left, right = pieces[k], pieces[k + 1]
        if left.high == right.low:
            if _left_first(left, right, unit, mistakes):
                after[k + 1].add(k)
            else:
                after[k].add(k + 1)
    order: list[int] = []
    while len(order) < len(pieces):  # constraints only join neighbours: never a cycle
        ready = next(k for k in range(len(pieces)) if k not in order and after[k] <= set(order))
        order.append(ready)
    return [pieces[k] for k in order]
