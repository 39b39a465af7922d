"""The self-check page reads and marks answers exactly as ``symattn check`` does.

Its JavaScript (symattn/exercises/self_check_reader.js, the reader; self_check.js, the
marking rules) runs under Node (tests/self_check_node.js, one process for the module)
and is compared with symattn's Python reader of answers over a corpus: every written
form of docs/check.md and tests/test_check_forms.py, edge cases, and strings Hypothesis
makes (character soup, token soup, and well-formed expressions).  A reading is the same
when both say "nothing written", both say "unreadable", or both read a value and a
radius equal to 20 significant digits and the same number of places.  The statuses the
page gives (ok, wrong, too_coarse, invalid) and the mistakes it names are compared with
what ``check`` says about the same answers.  Skipped when node is not installed.
"""

from __future__ import annotations

import json
import re
import select
import shutil
import subprocess
from collections.abc import Iterator
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symattn
from symattn.check import check
from symattn.check.answers import Given, read_entry
from symattn.check.compare import close
from symattn.exercises.self_check import render_self_check
from symattn.load.readings import read_answer
from symattn.numbers import round_half_away

from .helpers import ROOT
from .reference import attention
from .test_check_forms import A11, KEY, WRITTEN

SCRIPT = ROOT / "tests" / "self_check_node.js"


class Node:
    """One Node process answering one JSON request per line."""

    def __init__(self, executable: str) -> None:
        self.process = subprocess.Popen(
            [executable, str(SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def ask(self, request: dict[str, Any]) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], 20)
        assert ready, f"node did not answer {request!r} within 20 s"
        answer = json.loads(self.process.stdout.readline())
        assert not (isinstance(answer, dict) and "error" in answer), answer
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)
        self.process.stdout.close()


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    executable = shutil.which("node")
    if executable is None:
        pytest.skip("node is not installed; the page's reader is tested under Node.js")
    process = Node(executable)
    yield process
    process.close()


def python_reading(text: str) -> dict[str, Any]:
    """What symattn's reader of answers makes of ``text``."""
    try:
        entry = read_entry(text)
    except ArithmeticError:  # e.g. "2⁻": the grammar lets decimal's own error through
        return {"ok": False}
    if entry is None:
        return {"empty": True}
    if entry.reading is None:
        return {"ok": False}
    r = entry.reading
    return {"ok": True, "value": r.value, "radius": r.radius, "places": r.places}


def _same(a: Decimal, b: Decimal) -> bool:
    """Equal to 20 significant digits."""
    if not (a.is_finite() and b.is_finite()):
        return a == b
    with localcontext() as context:
        context.prec = 100
        return abs(a - b) <= max(abs(a), abs(b)) * Decimal("1e-20")


def assert_same_reading(node: Node, text: str) -> None:
    js = node.ask({"read": text})
    py = python_reading(text)
    assert js.get("ok") == py.get("ok") and js.get("empty") == py.get("empty"), (text, js, py)
    if py.get("ok"):
        value, radius = Decimal(js["value"]), Decimal(js["radius"])
        assert _same(value, py["value"]), (text, js["value"], str(py["value"]))
        assert _same(radius, py["radius"]), (text, js["radius"], str(py["radius"]))
        assert js["places"] == py["places"], (text, js, py)


def _documented_forms() -> list[str]:
    """Every form in the table "What you can write" of docs/check.md."""
    text = (ROOT / "docs" / "check.md").read_text(encoding="utf-8")
    section = text.split("## What you can write", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ")[0] for line in section.splitlines() if line.startswith("| `")]
    return [form for row in rows for form in re.findall(r"`([^`]+)`", row)]


EDGES = [
    "", "   ", "\u3000", "1\u00a0", "-0", "+2", "1.", ".5", "0.0010", "00.50", "1e5", "1E+05",
    "1e100", "1e101", "1e-100", "1e-131", "0e-200", "10^100", "10^64", "2^65", "2^-64",
    "(9999999999^64)^10", "(10^10)^11", "2^2^2^2", "2^0.5", "1.5^0.5", "(1.41)^(1/3)",
    "0.5^(-2)", "(-2)^2", "(-2)^0.5", "0^0.5", "0^-1", "e^1000", "e^1001", "e^-999",
    "e^(e^(e))", "exp(0)", "e^0.001", "(1+1e-50)^0.5", "1.0000000000000001^(1/3)", "√0",
    "√(-1)", "√0.01", "√1e-100", "2⁻", "2⁺", "2⁻¹", "2⁺²", "x²", "10⁻²", "1,5", "1,5,3",
    "1,5e3", "1,50", "12,345", "≈≈1", "~0.5", "1≈", "ln(2)", "inf", "+inf", "--inf",
    "-∞", "-\\infty", "\\infty", "∞", "-oo", "-Infinity", "5%%", "%5", "50 %", "2 3",
    "2(3)", "2e", "2e^2", "2 e", "e2", "3\\sqrt2", "\\sqrt{2}\\sqrt{8}", "\\frac12",
    "\\frac{1}{0}", "\\dfrac{1}{3}", "\\tfrac{1}{3}", "\\left(1\\right)", "1\\,000",
    "\\exp{1}", "2\\exp{1}", "\\mathrm{e}^{2}", "\\operatorname{exp}(1)", "\\foo",
    "\\", "1**2", "2*-3", "2^-(1/2)", "-2^2", "(((((1)))))", "1/3/3", "6÷2", "2×3·4⋅5",
    "e^1001/e^1001", "e^(-1001)", "e^(1000.5)/e^(999.5)",
    "1" * 201, "0." + "0" * 60 + "1", "1" * 70, "√2" * 60, "½", "٣", "１", "😀",
    "1" * 60 + "5", "1" * 59 + "25", "0." + "3" * 60 + "5", "1" * 60 + "5.000001",
    "1" * 60 + "5-" + "1" * 60 + "4", "1" * 59 + "25-" + "1" * 59 + "24",  # ties, half to even
    "E", "2E", "E^2", "sin(1e-30)", "sin(0.10)", "cos(999.9)", "sin(-7)", "tanh(150)",
    "tanh(1e-40)", "-tanh(2000)", "sin", "sin 1", "\\sin 1", "\\cos{2}^2", "sin(1)^2+cos(1)^2",
    "(" * 101 + "1" + ")" * 101, "(" * 99 + "1" + ")" * 99, "-" * 150 + "1", "2^" * 101 + "2",
    "+".join(["1"] * 101), "+".join(["1"] * 99), "x" * 4001, "cos(1/10)+" * 399 + "1",
]  # fmt: skip


@pytest.mark.parametrize("text", [w for _, w, _ in WRITTEN] + _documented_forms() + EDGES, ids=repr)
def test_the_page_reads_every_written_form_as_symattn_does(node: Node, text: str) -> None:
    assert_same_reading(node, text)


@pytest.mark.parametrize("name", ["positions", "rope", "additive"])
def test_the_page_reads_every_exact_form_symattn_prints(node: Node, name: str) -> None:
    """sin, cos, tanh (text and LaTeX) as ``derive`` prints them: the same readings."""
    from .test_answer_functions import _entries

    for _, text, tex in _entries(name):
        assert_same_reading(node, text)
        assert_same_reading(node, tex)


def test_the_documented_forms_are_found() -> None:
    forms = _documented_forms()
    assert {"0,107", "6.3379·10⁻²", "10.7%", "5√2/2", "\\sqrt{2}", "-inf", "−∞"} <= set(forms)


SOUP = "0123456789.,eE+-−*/·×÷^()%{}√ ≈~∞⁰¹²³⁻⁺\\abfiloqrstx"
TOKENS = [
    "1", "2", "0.5", "1.414", "2,5", ".25", "1e-3", "6.3E2", "e", "√", "(", ")", "{", "}",
    "^", "-", "−", "+", "/", "*", "·", "%", "\\frac", "\\sqrt", "\\cdot", "\\infty", "sqrt",
    "exp", "inf", " ", "⁻", "²", "≈",
]  # fmt: skip


def _expressions() -> st.SearchStrategy[str]:
    decimal = st.builds(
        lambda whole, frac, comma: f"{whole}{',' if comma else '.'}{frac}",
        st.integers(0, 999),
        st.text("0123456789", min_size=1, max_size=8),
        st.booleans(),
    )
    scientific = st.builds(
        lambda m, e, form: form.format(m=m, e=e),
        st.sampled_from(["1.07", "6.3379", "2", "9.999"]),
        st.integers(-12, 12),
        st.sampled_from(["{m}e{e}", "{m}E{e}", "{m}×10^{e}", "{m}·10^({e})"]),
    )
    leaves = st.one_of(
        st.integers(0, 100).map(str), decimal, scientific,
        st.sampled_from(["e", "√2", "\\sqrt{3}", "sqrt(5)", "1/3", "-inf", "10.7%"]),
    )  # fmt: skip
    forms = ["{a}+{b}", "{a} - {b}", "{a}·{b}", "{a}*{b}", "{a}/{b}", "({a})",
             "\\frac{{{a}}}{{{b}}}", "({a})^({b})", "e^({a})", "exp({a})", "sqrt({a})",
             "√({a})", "−({a})", "({a})%", "2√({a})", "({a})²", "({a})⁻¹",
             "\\dfrac{{{a}}}{{{b}}}"]  # fmt: skip

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.builds(lambda f, a, b: f.format(a=a, b=b), st.sampled_from(forms), inner, inner)

    return st.recursive(leaves, extend, max_leaves=5)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(SOUP, max_size=16), st.lists(st.sampled_from(TOKENS), max_size=10).map("".join)
    )
)
def test_any_string_is_read_as_symattn_reads_it(node: Node, text: str) -> None:
    assert_same_reading(node, text)


@settings(max_examples=300, deadline=None)
@given(_expressions())
def test_any_expression_is_read_as_symattn_reads_it(node: Node, text: str) -> None:
    assert_same_reading(node, text)


# -- marking: the page's statuses are check's ------------------------------------------------
def _check_status(step: str, text: str, places: int | None = None) -> str:
    result = check(KEY, {f"{step}[1,1]": text}, places=places)
    (entry,) = result.steps[0].entries
    return entry.status


@pytest.mark.parametrize(("step", "written", "status"), WRITTEN)
def test_the_page_marks_every_form_as_check_does(
    node: Node, step: str, written: str, status: str
) -> None:
    expected = str(KEY.step(step).values[0][0])
    answer = node.ask({"mark": written, "expected": expected, "places": None})
    assert answer["status"] == status == _check_status(step, written)


@pytest.mark.parametrize("places", [2, 4])
@pytest.mark.parametrize(
    "written", ["0.1", "0.107", "0.1070", "0.10704", "10.7%", "1.0704e-1", "0.5", "3/28",
                "e^(√2)/(e^(√2)+e^(5√2/2))", "oops"],
)  # fmt: skip
def test_the_page_asks_for_places_as_check_does(node: Node, written: str, places: int) -> None:
    answer = node.ask({"mark": written, "expected": str(A11), "places": places})
    assert answer["status"] == _check_status("weights", written, places)
    notes = {"too_coarse": "too_coarse", "invalid": "invalid"}
    assert answer["note"] == notes.get(answer["status"], "exact_close" if written == "3/28" else "")


@settings(max_examples=150, deadline=None)
@given(places=st.integers(0, 8), offset=st.integers(-30, 30), asked=st.sampled_from([None, 2, 4]))
def test_the_tolerance_is_check_s(node: Node, places: int, offset: int, asked: int | None) -> None:
    """A decimal near a₁,₁, moved by tenths of a unit: the page agrees with check."""
    unit = Fraction(1, 10**places)
    text = round_half_away(Fraction(A11) + unit * offset / 10, places)
    answer = node.ask({"mark": text, "expected": str(A11), "places": asked})
    assert answer["status"] == _check_status("weights", text, asked), text


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("0.1070", "0.1068999999999999999999999999999999999999999"),  # 1e-4 + 1e-40 away
        ("0.1070", "0.1070999999999999999999999999999999999999999"),
        ("0.1070", "0.1071000000000000000000000000000000000000001"),
        ("0.1070", "0.10690000000000000000000000000001"),
        ("1/3", "0.33333333333333333333333333333333333333333333333"),  # exact: within 1e-30
        ("1/3", "0.3333333333333333333333333333"),
        ("-inf", "-Infinity"),
        ("-inf", "0"),
    ],
)
def test_the_comparison_is_check_s_to_the_digit(node: Node, written: str, expected: str) -> None:
    """check subtracts in Python's default decimal context (28 digits): so does the page."""
    python = close(Given(written, read_answer(written)), Decimal(expected), None)
    answer = node.ask({"mark": written, "expected": expected, "places": None})
    assert answer["status"] == ("ok" if python else "wrong")


PROBLEM = {
    "X": [[1, 0, 2], [0, 1, 1], [2, 1, 0]],
    "W_Q": [[1, 0], [0, 2], [1, 1]],
    "W_K": [[0, 1], [1, 0], [2, 1]],
    "W_V": [[1, 2], [0, 1], [1, 0]],
}


def _page_data(key: symattn.Derivation) -> dict[str, Any]:
    text = render_self_check(key, places=4)
    found = re.search(r'id="symattn-self-check">(.*?)</script>', text)
    assert found is not None
    return dict(json.loads(found.group(1)))


@pytest.mark.parametrize(
    "mistake",
    ["no_scaling", "scaled_by_dk", "scale_multiplied", "softmax_wrong_axis", "no_softmax",
     "weights_transposed", "scores_transposed", "weighted_sum_of_keys"],
)  # fmt: skip
def test_the_page_names_the_mistake_check_names(node: Node, mistake: str) -> None:
    """A student's numbers made with a mistake (by the independent reference), typed into
    a step of the page: the page names what check names."""
    key = symattn.derive(dict(PROBLEM))
    data = {s["id"]: s for s in _page_data(key)["steps"]}
    made = attention(PROBLEM, mistake)
    named = set()
    for step_id in ("scaled_scores", "weights", "output"):
        typed = [[round_half_away(v, 4) for v in row] for row in made[step_id]]
        if typed == [[round_half_away(v, 4) for v in row] for row in attention(PROBLEM)[step_id]]:
            continue
        cells = [[i, j, t] for i, row in enumerate(typed) for j, t in enumerate(row)]
        step = data[step_id]
        js = node.ask(
            {"diagnose": cells, "key": step["key"], "mistakes": step["mistakes"], "places": 4}
        )
        result = check(key, {step_id: typed}, places=4)
        python = [d.id for s in result.steps for d in s.diagnosis]
        assert js == python, (step_id, js, python)
        named.update(js)
    assert mistake in named


def test_a_weaker_mistake_only_when_no_other_fits(node: Node) -> None:
    """The order of diagnose.Diagnoser: weaker models (premature rounding) only when no
    other model fits; each id once; a model must fit every entry typed."""
    key = [["1", "1"]]
    mistakes = [
        {"id": "premature_rounding", "weaker": True, "values": [["2", "3"]]},
        {"id": "no_scaling", "weaker": False, "values": [["2", "3"]]},
        {"id": "no_scaling", "weaker": False, "values": [["2", "3"]]},
        {"id": "no_softmax", "weaker": False, "values": [["2", "4"]]},
    ]

    def named(*typed: str) -> list[str]:
        cells = [[0, j, t] for j, t in enumerate(typed)]
        request = {"diagnose": cells, "key": key, "mistakes": mistakes, "places": None}
        return list(node.ask(request))

    assert named("2", "3") == ["no_scaling"]
    assert named("2") == ["no_scaling", "no_softmax"]
    assert named("2", "4") == ["no_softmax"]
    assert named("2", "5") == []
    assert named("1", "1") == []  # nothing wrong: nothing to explain
    mistakes.pop(1), mistakes.pop(1)
    assert named("2", "3") == ["premature_rounding"]


@pytest.mark.parametrize("asked", [2, 3, 4])
@pytest.mark.parametrize("places", [2, 3, 4, 5, 6, 8])
@pytest.mark.parametrize("units", [-15, -10, -9, -1, 0, 1, 9, 10, 11, 15])
def test_more_places_than_asked_are_held_to_the_asked_place(
    node: Node, asked: int, places: int, units: int
) -> None:
    """SPEC §13: with places = N, a decimal of N or more places is right within one unit of
    the N-th place (tenths of that unit here), on the page as in check."""
    moved = Fraction(A11) + Fraction(units, 10 ** (asked + 1))
    text = round_half_away(moved, places)
    answer = node.ask({"mark": text, "expected": str(A11), "places": asked})
    status = _check_status("weights", text, asked)
    assert answer["status"] == status, text
    if places >= asked:
        within = abs(Decimal(text) - Decimal(str(A11))) <= Decimal(1).scaleb(-asked)
        assert (status == "ok") == within, text
