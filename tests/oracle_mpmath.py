"""The mpmath oracle: every decimal ``symattn derive --format json`` prints, decided
again from the exact form it prints beside it, at any ``--digits``.

An exact form (SymPy's ``str``: ``exp(sqrt(2)/2)/(exp(sqrt(2)/2) + 1)``, ``sin(1)``,
``tanh(3/4)``) is read here by a small operator-precedence reader, each integer made
an mpmath number and each function mpmath's (``exp``, ``sqrt``, ``sin``, ``cos``,
``tanh``, ``log``), and evaluated at two precisions; a digit counts as decided when
both agree on it and the value is not within their difference of a rounding tie.
The rounding is done here (half away from zero, with :mod:`decimal`).  Nothing of
symattn's evaluation, balls or rounding is used, so a wrong digit (a hidden tie
rounded the wrong way, a ball too wide) shows as a mismatch.

A value that close to a tie is decided exactly: SymPy simplifies the form minus the
tie (a form written with ``sin(1)``, ``cos(1)`` that is exactly −82.425 is a tie, and
rounds away from zero); the oracle then accepts nothing else.  What the oracle cannot
decide (that close to a tie, and SymPy cannot tell) is ``None`` and not compared.

The values themselves (not only the digits) of the topics that have an independent
reference are compared with it elsewhere (tests/reference_topics.py, torch and NumPy in
tests/test_gqa_decode_block.py): this oracle is about every printed digit.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

import mpmath
import sympy

#: Digits of the two evaluations (the second checks the first).
PRECISION = 70
CHECK_PRECISION = 110
_FUNCTIONS = {
    "exp": mpmath.exp,
    "sqrt": mpmath.sqrt,
    "sin": mpmath.sin,
    "cos": mpmath.cos,
    "tanh": mpmath.tanh,
    "log": mpmath.log,
    "Abs": abs,
}
_CONSTANTS = {"E": mpmath.e, "pi": mpmath.pi, "oo": mpmath.inf}


class Unreadable(ValueError):
    """An exact form with a name or a construct the oracle does not evaluate."""


_TOKEN = re.compile(r"\s*(?:(\d+\.\d*|\d+)|([A-Za-z_]\w*)|(\*\*|[-+*/(),]))")
#: Binary operators: precedence, right-associative.
_BINARY = {"+": (1, False), "-": (1, False), "*": (2, False), "/": (2, False), "**": (4, True)}
_UNARY = 3  # below ``**`` on its left, as Python reads ``-2**2``


def _apply(op: str, values: list[Any]) -> None:
    if op == "neg":
        values.append(-values.pop())
        return
    if op in _FUNCTIONS:
        values.append(_FUNCTIONS[op](values.pop()))
        return
    b, a = values.pop(), values.pop()
    if op == "+":
        values.append(a + b)
    elif op == "-":
        values.append(a - b)
    elif op == "*":
        values.append(a * b)
    elif op == "/":
        values.append(a / b)
    else:
        values.append(mpmath.power(a, b))


def _precedence(op: str) -> int:
    return _UNARY if op == "neg" else _BINARY[op][0] if op in _BINARY else -1


def _evaluate(form: str) -> Any:
    """``form`` evaluated in one pass (operator precedence, as Python reads it): a
    block's forms are 200,000 characters, which Python's own parser takes a second for."""
    values: list[Any] = []
    ops: list[str] = []
    operand = True  # an operand (or a unary sign) comes next
    position = 0
    form = form.rstrip()
    while position < len(form):
        token = _TOKEN.match(form, position)
        if token is None:
            raise Unreadable(form[position : position + 40])
        position = token.end()
        number, name, op = token.groups()
        if number is not None or (name is not None and name in _CONSTANTS):
            values.append(mpmath.mpf(number) if number is not None else +_CONSTANTS[name])
            operand = False
        elif name is not None:
            if name not in _FUNCTIONS:
                raise Unreadable(name)
            ops.append(name)
        elif op == "(":
            ops.append("(")
            operand = True
        elif op == ")":
            while ops and ops[-1] != "(":
                _apply(ops.pop(), values)
            if not ops:
                raise Unreadable(form[:40])
            ops.pop()
            if ops and ops[-1] in _FUNCTIONS:
                _apply(ops.pop(), values)
            operand = False
        elif operand and op in "+-":
            if op == "-":
                ops.append("neg")
        elif op in _BINARY:
            level, right = _BINARY[op]
            while (
                ops
                and ops[-1] != "("
                and (_precedence(ops[-1]) > level or (_precedence(ops[-1]) == level and not right))
            ):
                _apply(ops.pop(), values)
            ops.append(op)
            operand = True
        else:
            raise Unreadable(op or form[:40])
    while ops:
        _apply(ops.pop(), values)
    if len(values) != 1:
        raise Unreadable(form[:40])
    return values[0]


def value(form: str, digits: int = PRECISION) -> Any:
    """The exact form ``form`` evaluated with mpmath at ``digits`` digits."""
    with mpmath.workdps(digits):
        return +_evaluate(form)


def _half_away(exact: Decimal, places: int) -> str:
    context = Context(prec=400, rounding=ROUND_HALF_UP)
    rounded = exact.copy_abs().quantize(Decimal(1).scaleb(-places), context=context)
    text = format(rounded, "f")
    return f"-{text}" if exact < 0 and rounded != 0 else text


def _decimal(x: Any, digits: int) -> Decimal:
    return Decimal(mpmath.nstr(x, digits, strip_zeros=False, min_fixed=-1e9, max_fixed=1e9))


def expected_decimal(form: str, places: int) -> str | None:
    """The decimal of ``form`` with ``places`` places, half away from zero; None when
    neither the evaluation nor SymPy can decide it."""
    if form in ("-oo", "oo"):
        return None  # a masked score: printed as −∞, not a decimal
    low, high = value(form, PRECISION), value(form, CHECK_PRECISION)
    with mpmath.workdps(CHECK_PRECISION):
        error = abs(high - low) + abs(high) * mpmath.mpf(10) ** (20 - PRECISION)
        scaled = abs(high) * mpmath.mpf(10) ** places
        if scaled + error * mpmath.mpf(10) ** places < mpmath.mpf(1) / 4:
            return _half_away(Decimal(0), places)  # e^-1e9, an exact 0: never its digits
        distance = abs(scaled - mpmath.floor(scaled) - mpmath.mpf(1) / 2)
        if distance > error * mpmath.mpf(10) ** places:
            return _half_away(_decimal(high, CHECK_PRECISION), places)
        return _tie(form, high, places)


def _tie(form: str, near: Any, places: int) -> str | None:
    """A value within the evaluations' error of a tie: exactly the tie (rounded away
    from zero), or None when SymPy cannot tell."""
    with mpmath.workdps(CHECK_PRECISION):
        step = mpmath.mpf(10) ** (-places)
        tie_units = mpmath.floor(abs(near) / step) + mpmath.mpf(1) / 2
    tie = sympy.Rational(int(2 * tie_units), 2) / sympy.Integer(10) ** places
    tie = -tie if near < 0 else tie
    if sympy.simplify(sympy.sympify(form) - tie) == 0:
        exact = Decimal(int(2 * tie_units)) / 2 / Decimal(10) ** places
        return _half_away(-exact if near < 0 else exact, places)
    return None


def mismatches(payload: dict[str, Any], places: int) -> list[str]:
    """Every decimal of a ``--format json`` derivation that is not the oracle's, as
    ``step[i,j]: printed != expected`` (1-based)."""
    found = []
    for step in payload["steps"]:
        exact, shown = step.get("exact"), step.get("decimal")
        if not isinstance(exact, list) or not isinstance(shown, list):
            continue  # tokens: no numbers
        for i, (forms, decimals) in enumerate(zip(exact, shown), start=1):
            for j, (form, got) in enumerate(zip(forms, decimals), start=1):
                try:
                    want = expected_decimal(form, places)
                except Unreadable:  # a symbol (a symbolic problem): no decimal to check
                    want = None
                    if got is not None:
                        found.append(f"{step['id']}[{i},{j}]: {got} for {form}")
                if want is not None and got != want:
                    found.append(f"{step['id']}[{i},{j}]: {got} != {want}")
    return found
