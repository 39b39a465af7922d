r"""The one grammar of values, for problem files and for answers: text → a syntax tree.

A tiny tokenizer and a precedence-climbing parser read what people write — never
``eval``, never ``sympify``.  The tree is then read by :mod:`.values` (a problem entry:
exact, products and quotients only) or by :mod:`.readings` (a student's answer: any
number, with the precision it was written to).

Written forms (the answers profile accepts all; the problem profile the exact ones):

* numbers ``3``, ``0.107``, ``.5``, ``6.3379e-02``; in answers a decimal comma ``1,41``;
* ``+ - − * / · × ⋅ ^ **``, brackets ``( )`` and ``{ }``, implicit products ``2√2``,
  in answers also with a space: ``2 e^{x}``, ``2 sqrt(2)``, ``1/2 e^2``;
* roots ``sqrt(2)``, ``√2``, ``√(2/3)``, ``\sqrt{2}``; ``\frac{a}{b}`` (``\dfrac``, ``\tfrac``);
* powers ``x^2``, ``2^(1/2)``, ``10^-2``, superscripts ``10⁻²``, ``x²``;
* in answers: ``e`` (``E``, as SymPy writes it), ``e^x``, ``exp(x)``, ``\exp``, a percent
  sign ``10.7%``, a leading ``≈``, and ``∞``, ``inf``, ``oo``, ``\infty``;
* in answers the functions symattn prints in its exact forms (position codes, rotations):
  ``sin(x)``, ``cos(x)``, ``tanh(x)`` and ``\sin{x}``, ``\cos``, ``\tanh``.

An answer may be as long as the forms symattn prints (:data:`MAX_ANSWER_LENGTH`), and is
nested at most :data:`MAX_DEPTH` deep; longer or deeper text is refused in one line.

>>> tree = parse("5√2/2", ANSWER)
>>> tree.op, type(tree.left.right).__name__
('/', 'Sqrt')
>>> parse("0.1070", ANSWER)
Num(value=Fraction(107, 1000), places=4, exponent=0, pos=1)
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Union

from ..record import Record
from .lexer import FUNCTIONS, Profile, Token, ValueSyntaxError, tokens

__all__ = [
    "ANSWER",
    "FUNCTIONS",
    "MAX_ANSWER_LENGTH",
    "MAX_DECIMAL_EXPONENT",
    "MAX_DEPTH",
    "MAX_POWER",
    "MAX_VALUE_LENGTH",
    "PROBLEM",
    "BinOp",
    "Euler",
    "Exp",
    "Func",
    "Infinity",
    "Name",
    "Neg",
    "Node",
    "Num",
    "Percent",
    "Pow",
    "Profile",
    "Sqrt",
    "ValueSyntaxError",
    "exact_decimal",
    "parse",
]

#: Longest string accepted as one value of a problem file (a guard against absurd input).
MAX_VALUE_LENGTH = 200
#: Longest answer: the exact forms symattn prints (a rotated softmax weight in LaTeX is about
#: 2,000 characters) fit, absurd input does not.
MAX_ANSWER_LENGTH = 4000
#: Deepest nesting of a value (brackets, signs, powers, and the terms of a sum or product
#: in its syntax tree): far more than any printed form, far less than Python's stack.
MAX_DEPTH = 100
#: Largest |exponent| of a decimal such as 1e300 (keeps numbers sane).
MAX_DECIMAL_EXPONENT = 100
#: Largest whole exponent of a power such as 2^64 (the power guard; see also MAX_BITS).
MAX_POWER = 64


PROBLEM = Profile.PROBLEM
ANSWER = Profile.ANSWER


class Num(Record):
    """A number as written: its exact value, the decimal places written (None for an
    integer) and the power of ten of scientific notation."""

    value: Fraction
    places: int | None
    exponent: int
    pos: int


class Name(Record):
    name: str
    pos: int


class Neg(Record):
    arg: Node
    pos: int


class BinOp(Record):
    op: str  # + - * /
    left: Node
    right: Node
    pos: int


class Pow(Record):
    base: Node
    exponent: Node
    pos: int


class Sqrt(Record):
    arg: Node
    pos: int


class Exp(Record):
    arg: Node
    pos: int


class Func(Record):
    """``sin``, ``cos`` or ``tanh`` of its argument."""

    name: str
    arg: Node
    pos: int


class Euler(Record):
    pos: int


class Infinity(Record):
    pos: int


class Percent(Record):
    arg: Node
    pos: int


Node = Union[Num, Name, Neg, BinOp, Pow, Sqrt, Exp, Func, Euler, Infinity, Percent]

# -- the parser ------------------------------------------------------------------------------

#: How tightly each binary operator binds.
_BINDING = {"+": 10, "-": 10, "*": 20, "/": 20}
_NEGATION = 25
_POWER = 30
#: Tokens that may follow a factor without a sign between them: 2√2, 5\sqrt{2}, 3(1/2),
#: 2 \exp(1).
_IMPLICIT = ("√", "sqrt", "frac", "(", "{", "exp", *FUNCTIONS)


class _Parser:
    def __init__(self, text: str, profile: Profile) -> None:
        self.profile = profile
        self.tokens = tokens(text, profile)
        self.index = 0
        self.depth = 0

    def deeper(self, token: Token | None) -> None:
        """One level more of brackets, signs or powers; refused past :data:`MAX_DEPTH`."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            where = f" at position {token.pos}" if token is not None else ""
            raise ValueSyntaxError(f"the value is nested more than {MAX_DEPTH} deep{where}")

    def peek(self) -> Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise ValueSyntaxError("value ends too early")
        self.index += 1
        return token

    def expect(self, op: str) -> None:
        token = self.take()
        if not (token.kind == "op" and token.text == op):
            raise ValueSyntaxError(f"expected {op!r} at position {token.pos}, found {token.text!r}")

    def parse(self) -> Node:
        if not self.tokens:
            raise ValueSyntaxError("empty value")
        node = self.expression(0)
        extra = self.peek()
        if extra is not None:
            raise ValueSyntaxError(f"unexpected {extra.text!r} at position {extra.pos}")
        return node

    def implicit(self, token: Token) -> bool:
        """A factor follows with no sign: 2√2, 5\\sqrt{2}, 2e^x, and in answers a name
        after a space too (2 e^{x}, 2 sqrt(2), e^{2} e^{3}, as sympy.latex writes them).
        A spaced e between a number and a sign or a number (6.3379 e-02) reads both as
        scientific notation and as a product, so it is refused."""
        if token.kind == "op":
            return token.text in _IMPLICIT
        if token.kind != "name" or self.profile is not ANSWER:
            return False
        if token.spaced and token.text.lower() == "e":
            before = self.tokens[self.index - 1]
            after = self.tokens[self.index + 1] if self.index + 1 < len(self.tokens) else None
            signed = after is not None and (
                after.kind == "num" or (after.kind == "op" and after.text in ("+", "-"))
            )
            if before.kind == "num" and signed:
                raise ValueSyntaxError(
                    f"'{before.text} e' at position {token.pos} could be a power of ten or a "
                    f"product with e: write a power of ten without spaces ({before.text}e-2), "
                    f"a product with its sign ({before.text}·e)"
                )
        return True

    def expression(self, floor: int) -> Node:
        self.deeper(self.peek())
        try:
            return self._expression(floor)
        finally:
            self.depth -= 1

    def _expression(self, floor: int) -> Node:
        left = self.unary()
        while (token := self.peek()) is not None:
            if token.kind == "op" and token.text in _BINDING:
                binding = _BINDING[token.text]
                if binding <= floor:
                    break
                self.take()
                left = BinOp(token.text, left, self.expression(binding), token.pos)
            elif self.implicit(token) and _BINDING["*"] > floor:
                left = BinOp("*", left, self.expression(_BINDING["*"]), token.pos)
            else:
                break
        return left

    def unary(self) -> Node:
        token = self.peek()
        if token is not None and token.kind == "op" and token.text in ("+", "-"):
            self.take()
            inner = self.expression(_NEGATION)
            return inner if token.text == "+" else Neg(inner, token.pos)
        return self.power()

    def power(self) -> Node:
        base = self.postfix(self.atom())
        token = self.peek()
        if token is not None and token.kind == "op" and token.text == "^":
            self.take()
            return Pow(base, self.exponent(), token.pos)
        if token is not None and token.kind == "sup":
            self.take()
            return Pow(base, _number(token.text.lstrip("+"), token.pos), token.pos)
        return base

    def exponent(self) -> Node:
        """What follows ^: a signed number, a bracket, or a factor (right-associative)."""
        self.deeper(self.peek())
        try:
            return self._exponent()
        finally:
            self.depth -= 1

    def _exponent(self) -> Node:
        token = self.peek()
        if token is not None and token.kind == "op" and token.text in ("+", "-"):
            self.take()
            inner = self.power()
            return inner if token.text == "+" else Neg(inner, token.pos)
        return self.power()

    def postfix(self, node: Node) -> Node:
        token = self.peek()
        while token is not None and token.kind == "op" and token.text == "%":
            self.take()
            node = Percent(node, token.pos)
            token = self.peek()
        return node

    def group(self, close: str) -> Node:
        node = self.expression(0)
        self.expect(close)
        return node

    def atom(self) -> Node:
        token = self.take()
        if token.kind == "num":
            return _number(token.text, token.pos)
        if token.kind == "op":
            if token.text == "(":
                return self.group(")")
            if token.text == "{":
                return self.group("}")
            if token.text in ("√", "sqrt"):
                return Sqrt(self.postfix(self.atom()), token.pos)
            if token.text == "frac":
                self.expect("{")
                num = self.group("}")
                self.expect("{")
                return BinOp("/", num, self.group("}"), token.pos)
            if token.text == "exp":
                return Exp(self.postfix(self.atom()), token.pos)
            if token.text in FUNCTIONS:  # \sin{\left(x \right)}, \cos x
                return Func(token.text, self.postfix(self.atom()), token.pos)
            if token.text == "inf":
                return Infinity(token.pos)
        if token.kind == "name":
            return self.named(token)
        raise ValueSyntaxError(f"unexpected {token.text!r} at position {token.pos}")

    def named(self, token: Token) -> Node:
        name = token.text
        answer = self.profile is ANSWER
        if name == "sqrt":
            self.expect("(")
            return Sqrt(self.group(")"), token.pos)
        if answer and name == "exp":
            self.expect("(")
            return Exp(self.group(")"), token.pos)
        if answer and name in FUNCTIONS:
            self.expect("(")
            return Func(name, self.group(")"), token.pos)
        if answer and name in ("e", "E"):  # E: Euler's number as SymPy prints it
            return Euler(token.pos)
        if answer and name.lower() in ("inf", "infinity", "oo"):
            return Infinity(token.pos)
        return Name(name, token.pos)


def exact_decimal(text: str) -> Fraction:
    """A decimal read exactly, refused when its size is absurd (|exponent| > 100)."""
    shown = text if len(text) <= 40 else text[:37] + "…"  # an answer may be 4,000 long
    try:
        value = Decimal(text)
    except ArithmeticError:  # "2e-" from a lone superscript sign: not a number
        raise ValueSyntaxError(f"{shown!r} is not a number") from None
    if not value.is_finite():
        raise ValueSyntaxError(f"{shown} is not a finite number")
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and abs(exponent) > MAX_DECIMAL_EXPONENT + 30:
        raise ValueSyntaxError(f"{shown} is out of range")
    if value != 0 and abs(value.adjusted()) > MAX_DECIMAL_EXPONENT:
        raise ValueSyntaxError(f"{shown} is out of range (|exponent| > {MAX_DECIMAL_EXPONENT})")
    return Fraction(value)


def _number(text: str, pos: int) -> Num:
    value = exact_decimal(text)  # refuses absurd sizes before anything else is computed
    mantissa, _, power = text.lower().partition("e")
    places = len(mantissa.partition(".")[2]) if "." in mantissa else None
    return Num(value, places, int(power) if power else 0, pos)


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, BinOp):
        return (node.left, node.right)
    if isinstance(node, Pow):
        return (node.base, node.exponent)
    if isinstance(node, (Neg, Sqrt, Exp, Func, Percent)):
        return (node.arg,)
    return ()


def _check_depth(tree: Node) -> None:
    """Refuse a tree deeper than :data:`MAX_DEPTH` (a sum of thousands of terms is one
    level of brackets but thousands of levels of tree), walked without recursion."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueSyntaxError(f"the value is nested more than {MAX_DEPTH} deep")
        stack.extend((child, depth + 1) for child in _children(node))


def parse(text: str, profile: Profile = PROBLEM) -> Node:
    """The syntax tree of ``text`` (one value) under ``profile``."""
    longest = MAX_ANSWER_LENGTH if profile is ANSWER else MAX_VALUE_LENGTH
    if len(text) > longest:
        raise ValueSyntaxError(f"value longer than {longest} characters")
    tree = _Parser(text, profile).parse()
    _check_depth(tree)
    return tree
