"""The interpreter as the oracle: real functions with a layout's signature.

The oracle is whichever interpreter runs the tests: on PyPy, PyPy's own
functions, whose messages differ from CPython's in places ("got 2 unexpected
keyword arguments", "got a positional-only argument passed as keyword
argument"); nothing here knows what any interpreter answers."""

import sys
from typing import Any, Callable, Optional, Sequence, Tuple

import pytest

from posonly import Layout

if sys.implementation.name == "cpython":
    from _testcapi import pyobject_vectorcall  # type: ignore[import-not-found]

    _pyobject_vectorcall: Optional[Callable[..., Any]] = pyobject_vectorcall
else:  # PyPy has no vectorcall (and ships _testcapi unbuilt)
    _pyobject_vectorcall = None

HAS_VECTORCALL = _pyobject_vectorcall is not None
"""Whether the interpreter can make a raw vectorcall for the tests (CPython)."""

requires_vectorcall = pytest.mark.skipif(
    not HAS_VECTORCALL,
    reason="no vectorcall to compare with (PyPy): keyword names that repeat or are "
    "not strings cannot be passed by any call Python can express",
)


def interpreter_vectorcall(func: Callable[..., Any], stack: Sequence[Any],
                           kwnames: Optional[Tuple[Any, ...]]) -> Any:
    """The interpreter's own vectorcall of ``func`` with ``stack`` and
    ``kwnames``.  Where there is no vectorcall (PyPy), the call it stands
    for, which exists only when the keyword names are distinct strings."""
    if _pyobject_vectorcall is not None:
        return _pyobject_vectorcall(func, stack, kwnames or None)
    kwnames = kwnames or ()
    nargs = len(stack) - len(kwnames)
    kwargs = dict(zip(kwnames, stack[nargs:]))
    assert len(kwargs) == len(kwnames) and all(isinstance(k, str) for k in kwnames), (
        "a call with these keyword names has no equivalent without vectorcall"
    )
    return func(*stack[:nargs], **kwargs)


class Value:
    """A distinct argument or default; identity is what the tests compare."""

    def __init__(self, label: str) -> None:
        self.label = label

    def __repr__(self) -> str:
        return f"<{self.label}>"


class Str(str):
    """A str subclass used as a keyword name."""


class NosyName(str):
    """A name whose ``__eq__`` is Python code that reads every tuple the
    collector tracks: a dict lookup that meets it (a key of a function's
    ``__kwdefaults__``, say) runs that code, which must find nothing
    half-built."""

    __hash__ = str.__hash__
    walks = True
    """Set to False on an instance for loops of many calls: its ``__eq__``
    stays Python code but skips the walk, which costs a pass over every
    object the collector tracks."""

    def __eq__(self, other: object) -> bool:
        import gc

        if self.walks:
            for obj in gc.get_objects():
                if type(obj) is tuple and obj:
                    obj[0]
        return str.__eq__(self, other)


def make_function(layout: Layout) -> Callable[..., Tuple[Any, ...]]:
    """A real ``def`` with ``layout``'s signature, named as the layout is, that
    returns its locals in frame order."""
    params = []
    defaults = list(layout.defaults)
    first_default = layout.argcount - len(defaults)
    for i, name in enumerate(layout.posonly + layout.positional):
        params.append(f"{name}=_D[{i - first_default}]" if i >= first_default else name)
        if i == len(layout.posonly) - 1:
            params.append("/")
    if layout.varargs is not None:
        params.append("*" + layout.varargs)
    elif layout.kwonly:
        params.append("*")
    kwdefaults = dict(layout.kwdefaults)
    for name in layout.kwonly:
        params.append(f"{name}=_K[{name!r}]" if name in kwdefaults else name)
    if layout.varkw is not None:
        params.append("**" + layout.varkw)
    body = "".join(n + ", " for n in layout.names)
    namespace: dict[str, Any] = {"_D": defaults, "_K": kwdefaults}
    exec(f"def oracle({', '.join(params)}):\n    return ({body})\n", namespace)
    func: Callable[..., Tuple[Any, ...]] = namespace["oracle"]
    func.__qualname__ = layout.name
    if sys.version_info < (3, 10):  # named by co_name (CPython) or __name__ (PyPy)
        func.__code__ = func.__code__.replace(co_name=layout.name)
        func.__name__ = layout.name
    return func


def outcome(call: Callable[[], Any]) -> Tuple[Any, ...]:
    """What a call gives: ("ok", value) or ("error", type, message)."""
    try:
        return ("ok", call())
    except Exception as exc:  # noqa: BLE001 - any exception is an outcome
        return ("error", type(exc), str(exc))


def same_object_tree(a: Any, b: Any) -> bool:
    """Equal as locals tuples are: the same objects, the same exact container
    types, dict keys in the same order."""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(same_object_tree(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return list(a) == list(b) and all(
            k1 is k2 or (type(k1) is type(k2) and k1 == k2) for k1, k2 in zip(a, b)
        ) and all(a[k] is b[k] for k in a)
    return a is b


def assert_same_outcome(got: Tuple[Any, ...], expected: Tuple[Any, ...]) -> None:
    if expected[0] == "ok":
        assert got[0] == "ok", f"expected {expected[1]!r}, got {got}"
        assert same_object_tree(got[1], expected[1]), f"{got[1]!r} != {expected[1]!r}"
    else:
        assert got == expected
