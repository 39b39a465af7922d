"""The topics of docs/topics.md: one module each, in one registry.

Each topic is a :class:`~symattn.topics.base.Topic` (its keys, config, plan hooks, kinds,
mistakes, names, words of its Given section, exercise draw); the core loops over the
registry in the order of :data:`MODULES`, which is the order of the steps they add
(positions before RoPE, a bias before a mask, a decode step before a block).  Adding a
topic is one module, its NumPy sibling, its words and one entry here (docs/architecture.md).

A topic's module is imported when it is first needed (issue 24: ``derive`` of a problem
without topics loads none of them): :func:`everything` imports them all, :func:`loaded`
gives those imported so far.  A problem that has a topic holds its config, an object of
the topic's module, so every question about a problem's own topics (its kinds, symbols,
names) is answered by the topics loaded; a kind of step not found among them loads the
rest before it is called unknown (:class:`TopicTable`).

>>> [t.name for t in everything()][:3]
['memory', 'positions', 'rope']
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from ..printing import add_names
from ..problem import KeysSource, Problem
from ..steps import Kind, Plan
from .base import Builder, KindRules, LoadContext, Mistake, Run, Topic

__all__ = [
    "CORE_KINDS",
    "EXCLUDES",
    "MODULES",
    "Builder",
    "KindRules",
    "LoadContext",
    "Mistake",
    "Topic",
    "TopicTable",
    "active",
    "by_name",
    "drawn",
    "everything",
    "fixed",
    "keys_sources",
    "kind_rules",
    "kv_group",
    "laid_out",
    "loaded",
    "mistakes",
    "numpy_paths",
    "score_divisor",
    "source_widths",
    "symbols",
]

#: The registry: the topics' modules, in the order of the steps they add.
MODULES = (
    "memory",
    "positions",
    "rope",
    "additive",
    "temperature",
    "gqa",
    "alibi",
    "masks",
    "window",
    "decode",
    "block",
)

_named: set[str] = set()  # the topics whose names printing knows


def _module_topic(name: str) -> Topic:
    topic: Topic = sys.modules[f"{__name__}.{name}"].TOPIC
    if name not in _named:  # printing learns a topic's names when it is first loaded
        source = topic.keys_source  # its rows are tokens' vectors, as X's are
        add_names(topic.names, () if source is None else (source.given,))
        _named.add(name)
    return topic


def loaded() -> tuple[Topic, ...]:
    """The topics whose modules are imported so far, in the registry's order."""
    return tuple(
        _module_topic(name)
        for name in MODULES
        if hasattr(sys.modules.get(f"{__name__}.{name}"), "TOPIC")
    )


def everything() -> tuple[Topic, ...]:
    """Every topic of the registry, in its order (importing those not loaded yet)."""
    for name in MODULES:
        importlib.import_module(f".{name}", __name__)
    return loaded()


K = TypeVar("K")
V = TypeVar("V")


class TopicTable(Mapping[K, V], Generic[K, V]):
    """``core``'s entries, then those each loaded topic adds (``part(topic)``).

    A key found in neither loads every topic before it is called missing when
    ``complete`` and the key is not one of ``theirs`` (the core's own kinds, which no
    topic adds): a topic's kind of step is then always found, so that loading topics
    lazily never changes an answer.  A table of symbols is not complete (a symbol of no
    topic is common) and answers from the topics loaded."""

    def __init__(
        self,
        core: Mapping[K, V],
        part: Callable[[Topic], Mapping[K, V]],
        complete: bool = True,
        theirs: frozenset[K] = frozenset(),
    ) -> None:
        self._core = core
        self._part = part
        self._complete = complete
        self._theirs = theirs
        self._seen: tuple[Topic, ...] = ()
        self._added: dict[K, V] = {}

    def _topics(self, every: bool = False) -> dict[K, V]:
        topics = everything() if every else loaded()
        if topics != self._seen:
            self._added = {k: v for topic in topics for k, v in self._part(topic).items()}
            self._seen = topics
        return self._added

    def __contains__(self, key: object) -> bool:
        try:
            self[key]  # type: ignore[index]
        except KeyError:
            return False
        return True

    def __getitem__(self, key: K) -> V:
        if key in self._core:
            return self._core[key]
        added = self._topics()
        if key not in added and self._complete and key not in self._theirs:
            added = self._topics(every=True)
        return added[key]

    def __iter__(self) -> Iterator[K]:
        return iter({**self._core, **self._topics(every=True)})

    def __len__(self) -> int:
        return len({**self._core, **self._topics(every=True)})


def __getattr__(name: str) -> Any:
    if name == "TOPICS":  # the whole registry, as a tuple (imports every topic)
        return everything()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The pairs of topics that do not combine yet: (topic, other, the reason).  The loader
#: refuses such a problem in one line, at the first topic's key.
EXCLUDES: tuple[tuple[str, str, str], ...] = (
    ("decode", "additive", "a decode step scores by the dot product"),
    ("decode", "masks", "a decode step is causal; its keys are the cached ones and its own"),
    ("decode", "window", "a decode step sees its whole cache"),
    ("decode", "alibi", "a decode step adds no bias to its cached scores"),
    ("alibi", "additive", "ALiBi biases dot-product scores"),
)


def by_name(name: str) -> Topic:
    if name not in MODULES:
        raise KeyError(name)
    importlib.import_module(f".{name}", __name__)
    return _module_topic(name)


def active(problem: Problem) -> Iterator[tuple[Topic, Any]]:
    """The topics this problem has, in the registry's order, with their configs."""
    configs = dict(problem.topics)
    for name in MODULES:
        if name in configs:
            yield by_name(name), configs[name]


def keys() -> tuple[str, ...]:
    """Every problem-file key the topics read."""
    return tuple(key for topic in everything() for key in topic.keys)


def keys_sources() -> tuple[KeysSource, ...]:
    """Every topic's matrix that K and V may be projected from instead of X (a memory)."""
    return tuple(t.keys_source for t in everything() if t.keys_source is not None)


def source_widths() -> tuple[str, ...]:
    """The names of their widths (d_mem), as the limits name the sizes."""
    return tuple(source.width for source in keys_sources())


#: The core's own kinds of step (class attributes of Kind): no topic's.
CORE_KINDS = frozenset(k for k in vars(Kind).values() if isinstance(k, Kind))

_KIND_RULES: TopicTable[Kind, KindRules] = TopicTable(
    {}, lambda topic: {rules.kind: rules for rules in topic.kinds}, theirs=CORE_KINDS
)


def kind_rules() -> TopicTable[Kind, KindRules]:
    """Every topic's kinds of step (a kind asked for loads its topic's module)."""
    return _KIND_RULES


def _only_with(topic: Topic, mistake: Mistake) -> Mistake:
    """``mistake`` of ``topic``: computed only for problems that have the topic."""
    compute = mistake.compute

    def guarded(problem: Problem, plan: Plan) -> list[Run]:
        return compute(problem, plan) if problem.topic(topic.name) is not None else []

    return dataclasses.replace(mistake, compute=guarded)


def mistakes() -> tuple[Mistake, ...]:
    """Every topic's mistake models (each computed only for the problems with its topic)."""
    return tuple(_only_with(topic, m) for topic in everything() for m in topic.mistakes)


def symbols() -> TopicTable[str, tuple[str, str]]:
    """The loaded topics' symbols: name → (LaTeX, Unicode)."""
    return TopicTable({}, lambda topic: topic.symbols, complete=False)


def laid_out() -> tuple[str, ...]:
    """The loaded topics' problem-file matrices that the column layout writes transposed
    (a problem's own topics are loaded)."""
    return tuple(key for topic in loaded() for key in topic.laid_out)


def drawn() -> tuple[str, ...]:
    """The topics an exercise can be drawn with (``exercises --with``): those with a draw of
    their own."""
    return tuple(t.name for t in everything() if type(t).draw is not Topic.draw)


def fixed() -> tuple[str, ...]:
    """The loaded topics' names written the same in both layouts (vectors, angles)."""
    return tuple(name for topic in loaded() for name in topic.fixed)


def numpy_paths(problem: Problem) -> list[tuple[Any, Any]]:
    """The NumPy siblings of the problem's topics, with their configs."""
    return [(topic.numpy, config) for topic, config in active(problem) if topic.numpy is not None]


def score_divisor(problem: Problem, scale: Any = None) -> Any:
    """What the scores are divided by: the scale (``scale`` in its place when given, as a
    mistake model divides by another number), times each topic's factor (the temperature);
    None when nothing divides them."""
    value = problem.scale if scale is None else scale
    for topic, config in active(problem):
        factor = topic.divisor(problem, config)
        if factor is not None:
            value = factor[0] if value is None else value * factor[0]
    return value


def divisor_label(problem: Problem) -> tuple[str, str]:
    """The divisor's label ("sqrt(d_k)", "c", with "*tau" …) and how a formula writes it
    ("√d_k", "(√d_k · τ)", the scale as the problem wrote it)."""
    root = problem.scale_label == "sqrt(d_k)"
    label, written = ("sqrt(d_k)", "√d_k") if root else ("c", problem.scale_label)
    scaled = problem.scale is not None
    for topic, config in active(problem):
        factor = topic.divisor(problem, config)
        if factor is not None:
            _, part, symbol = factor
            label, written = (
                (f"{label}*{part}", f"({written} · {symbol})") if scaled else (part, symbol)
            )
            scaled = True
    return label, written


def kv_group(problem: Problem, head: int) -> int:
    """The K/V head of query head ``head`` (0-based): its own, unless a topic groups them."""
    for topic, config in active(problem):
        group = topic.kv_group(problem, config, head)
        if group is not None:
            return group
    return head
