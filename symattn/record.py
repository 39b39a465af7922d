"""``Record``: the frozen dataclass of every value symattn keeps, made without ``exec``.

``@dataclass(frozen=True)`` writes each class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` as source text and compiles it with
``exec`` when the module is imported: about 0.45 ms a class on Python 3.11, compiled anew
on every start (the byte-code cache holds the module, not what it ``exec``\\s).  With the
≈90 classes that ``derive`` loads that was 38 ms of a 200 ms start.

A ``Record`` subclass is still a real dataclass (``dataclasses.fields``, ``replace``,
``is_dataclass``, ``__match_args__`` and ``field(default_factory=…, compare=False, …)`` all
work, and type checkers see a frozen dataclass through :pep:`681`), but the six methods are
written once, here, and read the class's fields from a small table made when the class is
made.  The fields themselves are read from the class's annotations here too, as
``@dataclass`` reads them but without what a Record never needs (``InitVar``, ``KW_ONLY``,
a generated ``__doc__``, the abstract-method update): ``dataclasses.dataclass`` took
50 µs a class, 4.4 ms of each start (issue 24).


- ``__init__`` takes the fields positionally in order (keyword-only ones by keyword),
  fills defaults and factories, then calls ``__post_init__`` when the class has one;
- ``__eq__`` and ``__hash__`` compare the fields that ``compare`` (``hash``) keeps, and only
  between instances of the same class; a ``__hash__`` or ``__eq__`` of the class's own wins;
- ``__repr__`` shows the fields that ``repr`` keeps; a class's own ``__repr__`` wins;
- setting or deleting an attribute raises :class:`dataclasses.FrozenInstanceError`; a
  ``__post_init__`` that derives a field sets it with ``object.__setattr__`` as usual.

``class Step(Record, kw_only=True)`` makes every field keyword-only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, get_origin

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> Callable[[type], type]:
        return lambda cls: cls


__all__ = ["Record"]

_MISSING = dataclasses.MISSING


class _Fields:
    """What the shared methods need of one record class, worked out once."""

    __slots__ = (
        "eq_key",
        "hash_key",
        "init_names",
        "init_order",
        "later",
        "needed",
        "optional",
        "positional",
        "post_init",
        "repr_names",
    )

    def __init__(self, cls: type) -> None:
        fields = dataclasses.fields(cls)
        init = [f for f in fields if f.init]
        self.positional = tuple(f.name for f in init if not f.kw_only)
        self.init_order = tuple(f.name for f in init)
        self.init_names = frozenset(self.init_order)
        self.needed = len(init)
        self.optional = tuple(
            (f.name, f.default, f.default_factory)
            for f in init
            if f.default is not _MISSING or f.default_factory is not _MISSING
        )
        # init=False fields get their default (or factory's value) before __post_init__
        self.later = tuple(
            (f.name, f.default, f.default_factory)
            for f in fields
            if not f.init and (f.default is not _MISSING or f.default_factory is not _MISSING)
        )
        self.repr_names = tuple(f.name for f in fields if f.repr)
        self.eq_key = _key([f.name for f in fields if f.compare])
        self.hash_key = _key([f.name for f in fields if (f.compare if f.hash is None else f.hash)])
        self.post_init = hasattr(cls, "__post_init__")


#: What :func:`dataclasses.fields` keeps of a class's table: its fields, not its ClassVars.
_FIELD = vars(dataclasses)["_FIELD"]
_CLASSVAR = ("ClassVar", "typing.ClassVar")
_UNSUPPORTED = ("InitVar", "dataclasses.InitVar", "KW_ONLY", "dataclasses.KW_ONLY")


def _fields_of(cls: type, kw_only: bool) -> dict[str, dataclasses.Field[Any]]:
    """The dataclass fields of ``cls``: its bases' in order, then its own annotations'
    (``from __future__ import annotations``: each a string), as ``@dataclass`` makes them."""
    fields: dict[str, dataclasses.Field[Any]] = {}
    for base in cls.__mro__[-1:0:-1]:
        fields.update(base.__dict__.get("__dataclass_fields__", {}))
    own = cls.__dict__
    for name, kind in getattr(cls, "__annotations__", {}).items():
        text = kind if isinstance(kind, str) else getattr(kind, "__name__", repr(kind))
        if text.startswith(_CLASSVAR) or kind is ClassVar or get_origin(kind) is ClassVar:
            continue
        if text.startswith(_UNSUPPORTED):
            raise TypeError(f"{cls.__qualname__}.{name}: a Record has no {text}")
        value = own.get(name, _MISSING)
        if isinstance(value, dataclasses.Field):
            made = value
            if made.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, made.default)
        else:
            made = dataclasses.field(default=value)
        if made.default is not _MISSING and made.default.__class__.__hash__ is None:
            raise ValueError(
                f"mutable default {type(made.default)} for field {name} "
                "is not allowed: use default_factory"
            )
        made.name = name
        made.type = kind
        made._field_type = _FIELD  # type: ignore[attr-defined]
        if made.kw_only is _MISSING:
            made.kw_only = kw_only
        fields[name] = made
    return fields


def _key(names: list[str]) -> Callable[[object], tuple[Any, ...]]:
    if not names:
        return lambda _: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    getter: Callable[[object], tuple[Any, ...]] = attrgetter(*names)
    return getter


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
class Record:
    """A frozen dataclass whose methods are shared (see the module's note)."""

    __slots__ = ()
    __record__: ClassVar[_Fields]
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __init_subclass__(cls, *, kw_only: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        for name in ("__setattr__", "__delattr__"):
            if name in own:
                raise TypeError(f"{cls.__qualname__}: a Record is frozen; it cannot define {name}")
        eq_only = "__eq__" in own and own.get("__hash__") is None
        fields = _fields_of(cls, kw_only)  # what fields() and replace() read
        cls.__dataclass_fields__ = fields
        if "__match_args__" not in own:
            matched = tuple(name for name, f in fields.items() if f.init and not f.kw_only)
            type.__setattr__(cls, "__match_args__", matched)
        if eq_only:  # a class's own __eq__ keeps the fields' hash, as with @dataclass
            cls.__hash__ = Record.__hash__  # type: ignore[method-assign]
        cls.__record__ = _Fields(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        spec = self.__record__
        values = self.__dict__
        if args:
            if len(args) > len(spec.positional):
                raise TypeError(
                    f"{type(self).__qualname__}() takes {len(spec.positional)} positional "
                    f"arguments but {len(args)} were given"
                )
            values.update(zip(spec.positional, args))
        if kwargs:
            for name in kwargs:
                if name not in spec.init_names:
                    raise TypeError(
                        f"{type(self).__qualname__}() got an unexpected keyword argument {name!r}"
                    )
                if name in values:
                    raise TypeError(
                        f"{type(self).__qualname__}() got multiple values for argument {name!r}"
                    )
            values.update(kwargs)
        if len(values) < spec.needed:
            for name, default, factory in spec.optional:
                if name not in values:
                    values[name] = default if factory is _MISSING else factory()
            if len(values) < spec.needed:
                _missing(self, spec)
        for name, default, factory in spec.later:
            values[name] = default if factory is _MISSING else factory()
        if spec.post_init:
            self.__post_init__()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record__.repr_names)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        key = self.__record__.eq_key
        return key(self) == key(other)

    def __hash__(self) -> int:
        return hash(self.__record__.hash_key(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _missing(record: Record, spec: _Fields) -> None:
    """The error for fields given no value that have no default either."""
    names = ", ".join(repr(name) for name in spec.init_order if name not in record.__dict__)
    raise TypeError(f"{type(record).__qualname__}() missing required arguments: {names}")
