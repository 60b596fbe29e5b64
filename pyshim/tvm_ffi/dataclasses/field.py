"""``field()``, :class:`Field`, ``KW_ONLY`` and ``MISSING`` for FFI dataclasses."""
from __future__ import annotations

from .. import core

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Mapping


# The FFI's MISSING object: a field without a default, an absent argument.
MISSING = core.MISSING


class _KwOnlyType:
    """Annotate a pseudo-field with ``KW_ONLY`` (``_: KW_ONLY``): the fields
    after it are keyword-only in ``__init__``."""

    __slots__ = ()

    def __repr__(self):
        return "KW_ONLY"


KW_ONLY = _KwOnlyType

_STRUCTURAL_EQ_FIELD = (None, "ignore", "def", "def-pattern", "def-simple")


def _field_converter(value):
    """The converter a field records when none is given: the identity."""
    return value


class Field:
    """Options of one field of a ``py_class`` (or the description of a
    ``c_class`` field), as :func:`fields` returns them.

    ``name`` and ``type`` are filled in by the decorator; ``type`` is the
    annotation as written (a string for a forward reference until it is
    resolved).  Made directly (the low-level ``TypeInfo._register_fields``
    path, as upstream), a Field is left out of comparisons
    (``compare=False``), hashed when compared, and positional; :func:`field`
    has the :mod:`dataclasses` defaults instead.  ``converter`` is recorded
    for type checkers (``py_class.__dataclass_transform__``) and not applied:
    values are converted by the field's type.
    """

    __slots__ = (
        "name",
        "_ty_schema",
        "type",
        "default",
        "default_factory",
        "frozen",
        "init",
        "repr",
        "hash",
        "compare",
        "kw_only",
        "metadata",
        "structural_eq",
        "doc",
        "converter",
        "extra_kwargs",
    )

    def __init__(
        self,
        name: str | None = None,
        _ty_schema: Any = None,
        *,
        type: Any = None,
        default: Any = MISSING,
        default_factory: Callable[[], Any] | Any = MISSING,
        frozen: bool = False,
        init: bool = True,
        repr: bool = True,
        hash: bool | None = True,
        compare: bool = False,
        kw_only: bool | None = False,
        metadata: Mapping[str, Any] | None = None,
        structural_eq: str | None = None,
        doc: str | None = None,
        converter: Callable[[Any], Any] = None,
        **extra_kwargs: Any,
    ) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        if default_factory is not MISSING and not callable(default_factory):
            raise TypeError(f"default_factory must be a callable, got {default_factory!r}")
        if structural_eq not in _STRUCTURAL_EQ_FIELD:
            raise ValueError(
                "field structural_eq must be None, 'ignore', 'def', 'def-pattern' or "
                f"'def-simple', got {structural_eq!r}"
            )
        if doc is not None and not isinstance(doc, str):
            raise TypeError(f"field doc must be a str or None, got {doc!r}")
        self.name = name
        self._ty_schema = _ty_schema
        self.type = type
        self.default = default
        self.default_factory = default_factory
        self.frozen = frozen
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.kw_only = kw_only
        self.metadata = dict(metadata) if metadata is not None else {}
        self.structural_eq = "def" if structural_eq == "def-pattern" else structural_eq
        self.doc = doc
        self.converter = _field_converter if converter is None else converter
        self.extra_kwargs = extra_kwargs

    def __copy__(self):
        """A Field with the same options and its own ``metadata`` and
        ``extra_kwargs`` dicts (their values are shared)."""
        out = Field.__new__(Field)
        for name in Field.__slots__:
            setattr(out, name, getattr(self, name))
        out.metadata = dict(self.metadata)
        out.extra_kwargs = dict(self.extra_kwargs)
        return out

    def has_default(self) -> bool:
        return self.default is not MISSING or self.default_factory is not MISSING

    def __repr__(self):
        parts = [f"name={self.name!r}", f"type={self.type!r}"]
        if self.default is not MISSING:
            parts.append(f"default={self.default!r}")
        if self.default_factory is not MISSING:
            parts.append(f"default_factory={self.default_factory!r}")
        for key in ("frozen", "init", "repr", "hash", "compare", "kw_only"):
            parts.append(f"{key}={getattr(self, key)!r}")
        return f"Field({', '.join(parts)})"


class init_property:
    """A field computed once, right after construction, by the decorated
    method::

        @py_class("mylib.Box")
        class Box(Object):
            w: int
            h: int

            @init_property
            def area(self) -> int:
                return self.w * self.h

    ``py_class`` makes ``area`` a field of the type (``init=False``,
    ``structural_eq="ignore"``, typed by the return annotation, ``Any``
    without one), so the value lives in the FFI object and C++ reads it
    like any field.  After the object is made (and before
    ``__post_init__``), each init_property of the class and its py_class
    ancestors is computed, root class first; a subclass's init_property
    of the same name replaces its parent's function.
    """

    __slots__ = ("func", "name", "return_annotation", "doc")

    def __init__(self, func):
        if not callable(func):
            raise TypeError(f"init_property needs a function, got {func!r}")
        self.func = func
        self.name = None
        self.return_annotation = getattr(func, "__annotations__", {}).get("return")
        self.doc = getattr(func, "__doc__", None)

    def __get__(self, obj, objtype=None):
        return self

    def __set_name__(self, owner, name):
        self.name = name
        ann = self.return_annotation
        if ann is None:
            ann = _any()
        own = owner.__dict__.get("__annotations__")
        if own is None:
            own = {}
            owner.__annotations__ = own
        own[name] = ann


def _any():
    import typing

    return typing.Any


def field(
    *,
    default: Any = MISSING,
    default_factory: Callable[[], Any] | Any = MISSING,
    frozen: bool = False,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    kw_only: bool | None = None,
    metadata: Mapping[str, Any] | None = None,
    structural_eq: str | None = None,
    doc: str | None = None,
    converter: Callable[[Any], Any] = _field_converter,
    **extra_kwargs: Any,
) -> Any:
    """Options of one ``py_class`` field, given as its class-body value::

        @py_class("mylib.Node")
        class Node(Object):
            name: str
            children: list[Node] = field(default_factory=list)
            span: Object | None = field(default=None, compare=False, structural_eq="ignore")

    ``default`` / ``default_factory`` (exclusive): the value of an omitted
    argument, or a 0-argument callable making it (called by C++ creators
    too).  ``frozen``: no assignment after construction (the descriptor's
    ``.set(obj, value)`` still works).  ``init``: a parameter of
    ``__init__``.  ``repr``, ``compare``, ``hash`` (None: as ``compare``):
    whether repr, ``==``/ordering and hashing look at it.  ``kw_only``
    (None: the class's setting).  ``structural_eq``: None, ``"ignore"``
    (skipped by structural equality and hashing) or ``"def"`` (a definition
    region).  ``doc``: the field's documentation.
    """
    return Field(
        default=default,
        default_factory=default_factory,
        frozen=frozen,
        init=init,
        repr=repr,
        hash=hash,
        compare=compare,
        kw_only=kw_only,
        metadata=metadata,
        structural_eq=structural_eq,
        doc=doc,
        converter=converter,
        **extra_kwargs,
    )
