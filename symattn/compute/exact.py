"""The exact rule of each kind of step: the core's kinds here, each topic's from its own
module (:mod:`symattn.topics`); the arithmetic is :mod:`symattn.numbers.matrices`.

>>> FORWARD_RULES[Kind.SOFTMAX].__name__
'<lambda>'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..numbers import Surd
from ..numbers.matrices import add, concat, mask, matmul, scale, softmax, transpose, weighted_sum
from ..problem import Matrix, Problem
from ..steps import Kind, StepSpec
from ..topics import CORE_KINDS, TopicTable

__all__ = ["FORWARD_RULES", "ExactRule"]


ExactRule = Callable[[StepSpec, list[Matrix], Problem], Matrix]


def _ids(problem: Problem) -> Matrix:
    assert problem.lookup is not None
    return tuple((Surd.rational(i),) for i in problem.lookup.ids)


def _given(spec: StepSpec, problem: Problem) -> Matrix:
    assert spec.source is not None
    return spec.source.take(problem)


FORWARD_RULES: Mapping[Kind, ExactRule] = TopicTable(
    {
        Kind.TOKENS: lambda spec, args, p: _ids(p),
        Kind.LOOKUP: lambda spec, args, p: _given(spec, p),
        Kind.GIVEN: lambda spec, args, p: _given(spec, p),
        Kind.PRODUCT: lambda spec, args, p: matmul(
            transpose(args[0]) if spec.transpose_left else args[0],
            transpose(args[1]) if spec.transpose_right else args[1],
        ),
        Kind.SCALE: lambda spec, args, p: scale(args[0], spec.divisor),
        Kind.MASK: lambda spec, args, p: mask(args[0], p.mask or ()),
        Kind.SOFTMAX: lambda spec, args, p: softmax(args[0]),
        Kind.WEIGHTED_SUM: lambda spec, args, p: weighted_sum(args[0], args[1]),
        Kind.CONCAT: lambda spec, args, p: concat(args),
        Kind.COPY: lambda spec, args, p: args[0],
        Kind.ADD: lambda spec, args, p: add(args[0], args[1]),
    },
    lambda topic: {rules.kind: rules.exact for rules in topic.kinds},
    theirs=CORE_KINDS,
)
