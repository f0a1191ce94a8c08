"""What the suites time: the implementation under test and its baselines.

The implementation under test is ``posonly``'s own (``posonly.binder``,
``posonly.wrap``), whichever ``posonly.IMPLEMENTATION`` says it is; the pure
twin is timed beside it only when the compiled one is under test, and the C
copy only when the compiled module is in use.
"""

from __future__ import annotations

import contextlib
import inspect
import types
from typing import Any, Iterator, Optional

import posonly
from posonly import _impl


def compiled_module() -> Optional[Any]:
    """The compiled module when it is the implementation under test."""
    return _impl.extension


def tuple_floor() -> Optional[Any]:
    """The bench's C floor (``bench/_floor.pyx``), built with the compiled
    module and timed only beside it."""
    if _impl.extension is None:
        return None
    try:
        from posonly.bench._floor import TupleFloor  # type: ignore[import-not-found]
    except ImportError:
        return None
    return TupleFloor


def pure_binder(f: Any) -> Any:
    from posonly._bind_py import binder

    return binder(f)


def pure_wrap(f: Any, **handler: Any) -> Any:
    from posonly._wrapper import wrap

    return wrap(f, **handler)


@contextlib.contextmanager
def patched() -> Iterator[None]:
    """``posonly.patch_inspect()`` for the duration, undone after."""
    posonly.patch_inspect()
    try:
        yield
    finally:
        posonly.unpatch_inspect()


def require_patch(n: int = 0) -> None:
    """A patched cell's setup: the table is measured with the patch on."""
    if not is_patched():
        raise RuntimeError("a patched cell sampled without patch_inspect() in place")


def is_patched() -> bool:
    return inspect.BoundArguments.__dict__["args"] is not _inspect_own(inspect.BoundArguments, "args")


# -- plain inspect, beside the patch ---------------------------------------------
#
# A table with patched cells is measured with the patch in place from its
# first sample to its last: switching it on and off around every sample would
# throw away what PyPy's JIT compiled for either (each switch writes to the
# classes it traces through), and would make a patched cell's signature anew
# each time, timing its first binds rather than the steady state.  The plain
# cells then bind through subclasses of inspect's classes whose methods are
# inspect's own functions, and make signatures with a copy of
# ``inspect.signature`` that makes those: inspect's code, run as it runs
# unpatched.


def _inspect_own(owner: Any, name: str) -> Any:
    """inspect's own ``owner.name``, as before any patch."""
    from posonly import _inspect

    for patched_owner, patched_name, original, _ in _inspect._installed:
        if patched_owner is owner and patched_name == name:
            return original
    return owner.__dict__[name]


class PlainBoundArguments(inspect.BoundArguments):
    """``inspect.BoundArguments`` with inspect's own ``args``, ``kwargs`` and
    ``apply_defaults()``, whether the patch is in place or not."""

    __slots__ = ()
    args = _inspect_own(inspect.BoundArguments, "args")
    kwargs = _inspect_own(inspect.BoundArguments, "kwargs")
    apply_defaults = _inspect_own(inspect.BoundArguments, "apply_defaults")


class PlainSignature(inspect.Signature):
    """``inspect.Signature`` with inspect's own ``bind``, ``bind_partial`` and
    ``from_callable``, binding to :class:`PlainBoundArguments`."""

    __slots__ = ()
    _bound_arguments_cls = PlainBoundArguments
    bind = _inspect_own(inspect.Signature, "bind")
    bind_partial = _inspect_own(inspect.Signature, "bind_partial")
    from_callable = _inspect_own(inspect.Signature, "from_callable")


def _plain_signature_function() -> Any:
    """inspect's own ``signature`` function, its code run in a copy of its
    module's globals where ``Signature`` is :class:`PlainSignature`."""
    own = _inspect_own(inspect, "signature")
    function = types.FunctionType(own.__code__, {**vars(inspect), "Signature": PlainSignature},
                                  own.__name__, own.__defaults__, own.__closure__)
    function.__kwdefaults__ = own.__kwdefaults__
    return function


def _plain_getcallargs_function() -> Any:
    """inspect's own ``getcallargs``, its code run in a copy of its module's
    globals where ``getfullargspec`` is inspect's own (the patched module's
    would be the patch's)."""
    own = _inspect_own(inspect, "getcallargs")
    function = types.FunctionType(
        own.__code__, {**vars(inspect), "getfullargspec": _inspect_own(inspect, "getfullargspec")},
        own.__name__, own.__defaults__, own.__closure__)
    function.__kwdefaults__ = own.__kwdefaults__
    return function


#: What a plain cell reads where a client reads the ``inspect`` module.
plain_inspect = types.SimpleNamespace(
    signature=_plain_signature_function(),
    getfullargspec=_inspect_own(inspect, "getfullargspec"),
    getcallargs=_plain_getcallargs_function(),
)
