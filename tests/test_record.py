"""``Record`` behaves as ``@dataclass(frozen=True)`` does, with methods that are not ``exec``'d."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

import pytest

import symattn
from symattn.record import Record

T = TypeVar("T")


class Point(Record):
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list, compare=False, repr=False)


@dataclass(frozen=True)
class PointDC:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list, compare=False, repr=False)


class Later(Record):
    a: int
    b: int = field(default=0, init=False)
    c: dict[str, int] = field(default_factory=dict, init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "b", self.a * 2)


class Keyed(Record, kw_only=True):
    a: int
    b: str = "b"


class Box(Record, Generic[T]):
    item: T


class Own(Record):
    a: int
    b: int

    def __repr__(self) -> str:
        return f"Own<{self.a}>"

    def __hash__(self) -> int:
        return 7


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1, 2), {}),
    ((1, 2, ("t",)), {}),
    ((), {"x": 1}),
    ((1,), {"tags": ("u",), "y": 3}),
    ((1,), {"notes": ["n"]}),
    ((), {"y": 1, "x": 2}),
]
BAD_CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}),
    ((1, 2, (), [], 5), {}),
    ((1,), {"x": 2}),
    ((1,), {"z": 2}),
    ((), {"y": 2}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_record_is_made_equal_compared_hashed_and_shown_as_a_dataclass(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    ours, theirs = Point(*args, **kwargs), PointDC(*args, **kwargs)
    assert repr(ours) == repr(theirs).replace("PointDC", "Point")
    assert dataclasses.astuple(ours) == dataclasses.astuple(theirs)
    assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
    same = Point(*args, **kwargs)
    assert ours == same and hash(ours) == hash(same)
    assert not ours.__ne__(same)
    assert ours != PointDC(*args, **kwargs)  # another class is never equal
    assert (ours == Point(99)) == (theirs == PointDC(99))
    assert ours.__match_args__ == theirs.__match_args__


@pytest.mark.parametrize(("args", "kwargs"), BAD_CALLS)
def test_a_wrong_call_is_a_type_error_as_for_a_dataclass(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    with pytest.raises(TypeError):
        PointDC(*args, **kwargs)
    with pytest.raises(TypeError, match="Point"):
        Point(*args, **kwargs)


def test_a_missing_field_is_named() -> None:
    with pytest.raises(TypeError, match="missing required arguments: 'a'"):
        Later()  # type: ignore[call-arg]


def test_a_record_is_frozen() -> None:
    point = Point(1)
    with pytest.raises(FrozenInstanceError):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del point.x
    with pytest.raises(FrozenInstanceError):
        point.other = 1  # type: ignore[attr-defined,unused-ignore]


def test_a_field_that_compares_not_is_left_out_of_equality_and_hash() -> None:
    assert Point(1, notes=["a"]) == Point(1, notes=["b"])
    assert hash(Point(1, notes=["a"])) == hash(Point(1, notes=["b"]))
    assert Point(1).notes is not Point(1).notes  # a factory per instance


def test_init_false_fields_and_post_init() -> None:
    later = Later(3)
    assert (later.a, later.b, later.c) == (3, 6, {})
    assert later == Later(3) and later != Later(4)
    with pytest.raises(TypeError):
        Later(3, 4)  # type: ignore[call-arg]


def test_keyword_only_fields() -> None:
    assert Keyed(a=1) == Keyed(a=1, b="b")
    with pytest.raises(TypeError):
        Keyed(1)  # type: ignore[call-arg]


def test_dataclass_functions_and_copies_work() -> None:
    point = Point(1, 2, ("t",), ["n"])
    assert dataclasses.is_dataclass(point)
    assert [f.name for f in dataclasses.fields(point)] == ["x", "y", "tags", "notes"]
    moved = dataclasses.replace(point, y=5)
    assert moved == dataclasses.replace(point, y=5) and moved.notes == ["n"]
    assert dataclasses.replace(PointDC(1, 2, ("t",), ["n"]), y=5).notes == ["n"]
    for twin in (copy.copy(point), copy.deepcopy(point), pickle.loads(pickle.dumps(point))):
        assert twin == point and twin.notes == ["n"]
    assert Box(point).item is point and Box(1) == Box(1) and Box(1) != Box(2)


def test_a_class_keeps_its_own_methods() -> None:
    assert repr(Own(1, 2)) == "Own<1>" and hash(Own(1, 2)) == 7
    assert Own(1, 2) == Own(1, 2) and Own(1, 2) != Own(1, 3)


def test_a_record_may_not_define_setattr() -> None:
    with pytest.raises(TypeError, match="frozen"):

        class Loose(Record):
            a: int

            def __setattr__(self, name: str, value: object) -> None: ...


def test_subclasses_add_fields() -> None:
    class Base(Record):
        a: int

    class Child(Base):
        b: int = 1

    assert Child(1) == Child(1, 1) and Child(1) != Base(1)
    assert repr(Child(2)) == "test_subclasses_add_fields.<locals>.Child(a=2, b=1)"


def _table(cls: type) -> list[tuple[Any, ...]]:
    return [
        (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare, f.kw_only)
        for f in dataclasses.fields(cls)
    ]


class Counted(Record):
    limit: ClassVar[int] = 3
    a: int
    b: str = field(default="b", metadata={"unit": "s"})


@dataclass(frozen=True)
class CountedDC:
    limit: ClassVar[int] = 3
    a: int
    b: str = field(default="b", metadata={"unit": "s"})


@dataclass(frozen=True)
class LaterDC:
    a: int
    b: int = field(default=0, init=False)
    c: dict[str, int] = field(default_factory=dict, init=False, compare=False)


@dataclass(frozen=True, kw_only=True)
class KeyedDC:
    a: int
    b: str = "b"


@pytest.mark.parametrize(
    ("record", "twin"),
    [(Point, PointDC), (Later, LaterDC), (Keyed, KeyedDC), (Counted, CountedDC)],
)
def test_the_fields_are_those_dataclass_makes(record: type, twin: type) -> None:
    """The table of fields (ClassVars kept out, as in ``@dataclass``), the class
    attributes left for defaults and ``__match_args__`` are ``@dataclass``'s."""
    assert _table(record) == _table(twin)
    assert record.__match_args__ == twin.__match_args__  # type: ignore[attr-defined]
    for name in ("x", "y", "tags", "notes", "a", "b", "c", "limit"):
        assert getattr(record, name, None) == getattr(twin, name, None), name


def test_a_mutable_default_is_refused_as_by_dataclass() -> None:
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field a"):

        class Mutable(Record):
            a: list[int] = []  # noqa: RUF012


def test_every_record_of_symattn_has_its_annotated_fields_in_order() -> None:
    """Over every Record class the package defines: fields() lists the annotations of the
    class and its bases, base first, less the ClassVars."""

    def subclasses(cls: type) -> list[type]:
        found: list[type] = []
        sub: type
        for sub in type.__subclasses__(cls):
            found += [sub, *subclasses(sub)]
        return found

    for name in sorted(symattn_modules()):
        importlib.import_module(name)
    records = [c for c in subclasses(Record) if c.__module__.startswith("symattn.")]
    assert len(records) > 150
    for cls in records:
        names: list[str] = []
        for base in reversed(cls.__mro__):
            for field_name, kind in inspect.get_annotations(base).items():
                if not str(kind).startswith("ClassVar") and field_name not in names:
                    names.append(field_name)
        assert [f.name for f in dataclasses.fields(cls)] == names, cls


def symattn_modules() -> list[str]:
    return [
        m.name
        for m in pkgutil.walk_packages(symattn.__path__, "symattn.")
        if not m.name.endswith("__main__")
    ]
