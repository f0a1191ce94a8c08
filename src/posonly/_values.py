"""Layout's methods on a call's values, in Python: ``arguments``,
``values``, ``replace``, ``key`` and ``instance``, which :class:`Layout`
takes as its own.  The twin of ``_values.pxi``: where the compiled binder is
used, the selector puts the compiled ones on Layout in their place, with
the same behaviour, messages and docstrings.

Each takes the values of a call, the locals tuple a binder returns and a
wrapper's handler gets (frame order, ``Layout.names``), and reads what it
needs of the layout from an ``_Access`` made once per layout."""

from __future__ import annotations

import operator
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Hashable,
    Iterable,
    List,
    Mapping,
    Optional,
    Tuple,
)

if TYPE_CHECKING:
    from ._layout import Layout

__all__ = ["LAYOUT_METHODS", "PURE_VALUE_METHODS", "arguments", "instance", "key", "replace", "values"]

_ABSENT: Any = object()  # values(): not in the mapping given


def _access_of(self: "Layout") -> "_Access":
    """``self``'s access, made on first use and kept in its ``_access`` slot."""
    try:
        return self._access
    except AttributeError:
        access = _Access(self)
        object.__setattr__(self, "_access", access)
        return access

def arguments(self: "Layout", values: Tuple[Any, ...], /) -> Dict[str, Any]:
    """The values of a call by parameter name, in signature order.

    ``values`` is a locals tuple of this layout (frame order, as a binder
    returns it and a :func:`~posonly.wrap` handler gets it).  The dict
    has every parameter, in the order of the signature (``*args`` before
    the keyword-only parameters): what
    :attr:`inspect.BoundArguments.arguments` holds after
    ``apply_defaults()``.  The values themselves are not copied (the
    ``**kwargs`` slot is the same dict).  :meth:`values` is the way back.
    Raises :class:`TypeError` unless ``values`` is a tuple of
    ``len(names)`` items.
    """
    try:
        access = self._access
    except AttributeError:
        access = _access_of(self)
    if type(values) is not tuple or len(values) != access.size:
        raise _bad_values("arguments", values, access.size, self.name)
    if access.pick is None:
        return dict(zip(access.order, values))
    return dict(zip(access.order, access.pick(values)))

def values(self: "Layout", arguments: Mapping[str, Any], /) -> Tuple[Any, ...]:
    """The locals tuple (frame order) of values given by parameter name.

    The way back from :meth:`arguments`, or from a mapping made by hand
    (``BoundArguments.arguments`` too): a parameter not in ``arguments``
    takes its default, ``*args`` an empty tuple and ``**kwargs`` a new
    empty dict.  Raises :class:`TypeError` for a parameter without a
    default that is not given, and for a name that is not a parameter.
    """
    try:
        access = self._access
    except AttributeError:
        access = _access_of(self)
    if type(arguments) is not dict:
        arguments = dict(arguments)
    get = arguments.get
    result = []
    given = 0
    for name, default in access.fill:
        value = get(name, _ABSENT)
        if value is _ABSENT:
            if default is _REQUIRED:
                raise TypeError(f"values() needs a value for {self.name}()'s parameter {name!r}")
            value = {} if default is _NEW_DICT else default
        else:
            given += 1
        result.append(value)
    if given != len(arguments):
        for name in arguments:
            if name not in access.index:
                raise TypeError(f"{self.name}() has no parameter {name!r}")
    return tuple(result)

def replace(self: "Layout", values: Tuple[Any, ...], /, **changes: Any) -> Tuple[Any, ...]:
    """A copy of ``values`` with the named parameters' values replaced.

    ``layout.replace(values, amount=0)`` is the locals tuple of the same
    call with ``amount=0``: what an ``around=`` handler passes to
    ``proceed`` to change an argument.  ``values`` is not changed (a
    ``**kwargs`` dict is shared with it, not copied).  Raises
    :class:`TypeError` unless ``values`` is a tuple of ``len(names)``
    items, and for a name that is not a parameter.
    """
    try:
        access = self._access
    except AttributeError:
        access = _access_of(self)
    if type(values) is not tuple or len(values) != access.size:
        raise _bad_values("replace", values, access.size, self.name)
    items = list(values)
    index = access.index
    for name, value in changes.items():
        slot = index.get(name)
        if slot is None:
            raise TypeError(f"{self.name}() has no parameter {name!r}")
        items[slot] = value
    return tuple(items)

def key(self: "Layout", values: Tuple[Any, ...], /, ignore: Iterable[str] = ()) -> Hashable:
    """A hashable key of a call, the same however its arguments were passed.

    The values are the call's normalized form (every parameter, defaults
    filled in), so ``f(1, 2)``, ``f(1, b=2)`` and ``f(1)`` where ``b``
    defaults to 2 have equal keys: a memoizer's cache key.  The key is a
    tuple of the values in frame order, with the ``**kwargs`` dict as a
    ``frozenset`` of its items (the order keywords came in does not
    matter), without the parameters named in ``ignore`` (a method's
    ``self``, a logger); with no ``**kwargs`` and nothing ignored it is
    ``values`` itself.  As for :func:`functools.lru_cache`, equal values
    make equal keys (``1`` and ``1.0`` too), and hashing the key hashes
    the values, which must be hashable.  Raises :class:`TypeError` unless
    ``values`` is a tuple of ``len(names)`` items, and for a name in
    ``ignore`` that is not a parameter.
    """
    try:
        access = self._access
    except AttributeError:
        access = _access_of(self)
    if type(values) is not tuple or len(values) != access.size:
        raise _bad_values("key", values, access.size, self.name)
    if not ignore:
        key = values
        varkw = access.varkw >= 0
    else:
        keys = access.keys
        try:
            pick, varkw = keys[ignore]
        except (KeyError, TypeError):
            pick, varkw = plan = access.key_plan(self, ignore)
            try:
                if len(keys) >= 16:
                    keys.clear()
                keys[ignore] = plan
            except TypeError:  # an unhashable iterable of names
                pass
        key = values if pick is None else pick(values)
    if varkw:
        return key[:-1] + (frozenset(key[-1].items()),)
    return key

def instance(self: "Layout", values: Tuple[Any, ...], /) -> Any:
    """The first positional value of a call: a method call's instance.

    For a function defined in a class and called as a method
    (``obj.method(...)``, or wrapped by :func:`~posonly.wrap` and looked
    up on an instance), the value of its first parameter, ``self``; the
    class for a ``classmethod``.  Taken from ``*args`` when the layout
    has no positional parameter (``def method(*args)``).  Raises
    :class:`TypeError` unless ``values`` is a tuple of ``len(names)``
    items, and when the call has no positional value.
    """
    try:
        access = self._access
    except AttributeError:
        access = _access_of(self)
    if type(values) is not tuple or len(values) != access.size:
        raise _bad_values("instance", values, access.size, self.name)
    if access.first >= 0:
        return values[access.first]
    if access.varargs >= 0 and values[access.varargs]:
        return values[access.varargs][0]
    raise TypeError(f"{self.name}() was called with no positional value: no instance")


_REQUIRED: Any = object()  # values(): a parameter without a default
_NEW_DICT: Any = object()  # values(): **kwargs, a new empty dict


def _bad_values(method: str, values: Any, size: int, name: str) -> TypeError:
    if type(values) is not tuple:
        return TypeError(f"{method}() needs a tuple of values, not {type(values).__name__}")
    return TypeError(f"{method}() needs {size} values for {name}(), got {len(values)}")


_Picker = Callable[[Tuple[Any, ...]], Tuple[Any, ...]]


def _picker(slots: List[int]) -> _Picker:
    """A function of a tuple that returns the tuple of its items at ``slots``."""
    if len(slots) >= 2:
        return operator.itemgetter(*slots)
    if slots:
        (slot,) = slots
        return lambda values: (values[slot],)
    return lambda values: ()


class _Access:
    """What :class:`Layout`'s methods on values need, made once per layout."""

    __slots__ = ("size", "order", "pick", "index", "fill", "first", "varargs", "varkw", "keys")

    def __init__(self, layout: "Layout") -> None:
        names = layout.names
        size = len(names)
        argcount = layout.argcount
        total = argcount + len(layout.kwonly)
        order = list(range(argcount))
        if layout.varargs is not None:
            order.append(total)
        order += range(argcount, total)
        if layout.varkw is not None:
            order.append(size - 1)
        self.size = size
        self.order = tuple(names[i] for i in order)  # names in signature order
        # The values in signature order: None when it is frame order.
        self.pick = None if order == list(range(size)) else _picker(order)
        self.index = {name: i for i, name in enumerate(names)}
        first_default = argcount - len(layout.defaults)
        kwdefaults = dict(layout._kwdefaults)
        fill: List[Tuple[str, Any]] = []
        for i, name in enumerate(names[:argcount]):
            fill.append((name, layout.defaults[i - first_default] if i >= first_default else _REQUIRED))
        fill += [(name, kwdefaults.get(name, _REQUIRED)) for name in layout.kwonly]
        if layout.varargs is not None:
            fill.append((layout.varargs, ()))
        if layout.varkw is not None:
            fill.append((layout.varkw, _NEW_DICT))
        self.fill = tuple(fill)  # (name, default) in frame order
        self.first = 0 if argcount else -1
        self.varargs = total if layout.varargs is not None else -1
        self.varkw = size - 1 if layout.varkw is not None else -1
        self.keys: Dict[Any, Tuple[Optional[_Picker], bool]] = {}

    def key_plan(self, layout: "Layout", ignore: Iterable[str]) -> Tuple[Optional[_Picker], bool]:
        """For :meth:`Layout.key`: what picks the values kept (None for
        all) and whether the last is a ``**kwargs`` dict."""
        ignored = set()
        for name in ignore:
            slot = self.index.get(name)
            if slot is None:
                raise TypeError(f"{layout.name}() has no parameter {name!r}")
            ignored.add(slot)
        kept = [i for i in range(self.size) if i not in ignored]
        varkw = layout.varkw is not None and (self.size - 1) not in ignored
        return (None if len(kept) == self.size else _picker(kept)), varkw


PURE_VALUE_METHODS: Dict[str, Callable[..., Any]] = {
    "arguments": arguments, "values": values, "replace": replace, "key": key, "instance": instance,
}
"""Layout's methods on values as written here: the compiled ones take their
names, docstrings and signatures."""
for _name, _method in PURE_VALUE_METHODS.items():
    _method.__qualname__ = "Layout." + _name  # as a method of Layout reads
del _name, _method

LAYOUT_METHODS: Dict[str, Callable[..., Any]] = dict(PURE_VALUE_METHODS)
"""Layout's methods on a call's values, as this implementation makes them
(the pure ones are Layout's own; ``_values.pxi`` has the compiled twins)."""
