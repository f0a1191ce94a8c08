"""A drop-in for :mod:`inspect`'s signatures and binding: the same answers, faster.

``signature(obj)`` returns a :class:`Signature`, a subclass of
:class:`inspect.Signature` whose ``bind`` and ``bind_partial`` return real
:class:`inspect.BoundArguments` equal to inspect's own, and raise inspect's
own errors.  ``patch_inspect()`` gives every :class:`inspect.Signature` and
:class:`inspect.BoundArguments` in the process the same speed;
``unpatch_inspect()`` undoes it.

The work is done by the drop-in's core, compiled (``_dropin.pxi``) or pure
(``_dropin_py``), chosen by ``_impl``: each core function does what one
piece of inspect does, step for step, reading the parameters' slots instead
of their properties, and makes signatures of plain functions without
re-validating what the compiler guarantees.  The methods here are plain
Python functions with inspect's own signatures and names, so that
introspection (``inspect.signature``, ``mock.create_autospec``, ``help``)
sees them as it sees inspect's.  The compiled core caches nothing; the pure
core keeps, for at most ``maxsize`` signatures, a plan of names made from
per-shape code (see ``_dropin_py``), dropped with the signature's parameter
mapping, and for at most ``maxsize`` code objects their parameters' names,
with which a signature made afresh for every call is handed its plan.
Either way a signature made afresh for every call costs what making and
binding it costs, and no signature, function or default value outlives its
last user because it was bound.
"""

from __future__ import annotations

import inspect
import threading
from typing import Any, Callable, Dict, List, Tuple

from . import _impl
from ._dropin_common import DIALECT, FUNCTION_TYPE

__all__ = ["Signature", "signature", "patch_inspect", "unpatch_inspect"]

_core: Any = _impl.dropin
"""The drop-in's core: the compiled module or ``_dropin_py``."""

_INSPECT_FROM_CALLABLE: Callable[..., Any] = inspect.Signature.__dict__["from_callable"].__func__
_INSPECT_SIGNATURE: Callable[..., Any] = inspect.signature


def _like(function: Any, original: Any, qualname: str) -> Any:
    """``function`` named and documented as inspect's ``original``."""
    function.__module__ = original.__module__
    function.__qualname__ = qualname
    function.__name__ = qualname.rpartition(".")[2]
    function.__doc__ = original.__doc__
    return function


_observer: Any = None
"""Told ``(entry, reason)`` of every call, when set (see ``_options.set_observer``)."""


def bind(self, /, *args, **kwargs):  # type: ignore[no-untyped-def]
    if _observer is not None:
        _observer("Signature.bind", _options.bind_reason(self))
    bound = _core.bind_signature(self, args, kwargs, False)
    if type(bound) is TypeError:  # the core returns inspect's error
        # Raised with the local cleared, or the traceback's frame would hold
        # the error that holds the traceback: a cycle for the collector.
        if bound.__context__ is None:
            raise (bound, bound := None)[0]
        # An error inspect raises while handling a StopIteration of its own
        # (the core made that its context): raised there too, so that its
        # context, and the context's, are inspect's.
        try:
            raise bound.__context__
        except StopIteration:
            raise (bound, bound := None)[0]
    return bound


def bind_partial(self, /, *args, **kwargs):  # type: ignore[no-untyped-def]
    if _observer is not None:
        _observer("Signature.bind_partial", _options.bind_reason(self))
    bound = _core.bind_signature(self, args, kwargs, True)
    if type(bound) is TypeError:
        if bound.__context__ is None:
            raise (bound, bound := None)[0]
        try:
            raise bound.__context__
        except StopIteration:
            raise (bound, bound := None)[0]
    return bound


def from_callable(cls, /, obj, *, follow_wrapped=True, **options):  # type: ignore[no-untyped-def]
    if type(obj) is FUNCTION_TYPE and not options:
        sig = _core.function_signature(cls, obj)
        if sig is not None:
            if _observer is not None:
                _observer("Signature.from_callable", None)
            return sig
    return _signature_fallback("Signature.from_callable", cls, obj, follow_wrapped, options)


def inspect_signature(obj, *, follow_wrapped=True, **options):  # type: ignore[no-untyped-def]
    if type(obj) is FUNCTION_TYPE and not options:
        # inspect.signature looks its Signature class up when called.
        sig = _core.function_signature(inspect.Signature, obj)
        if sig is not None:
            if _observer is not None:
                _observer("inspect.signature", None)
            return sig
    return _signature_fallback("inspect.signature", inspect.Signature, obj, follow_wrapped, options)


def apply_defaults(self):  # type: ignore[no-untyped-def]
    if _observer is not None:
        _observer("BoundArguments.apply_defaults", _options.bound_reason(self))
    _core.apply_defaults(self)


_like(bind, inspect.Signature.bind, "Signature.bind")
_like(bind_partial, inspect.Signature.bind_partial, "Signature.bind_partial")
_like(from_callable, _INSPECT_FROM_CALLABLE, "Signature.from_callable")
# Its own parameters stand for inspect's, which differ between versions.
from_callable.__wrapped__ = _INSPECT_FROM_CALLABLE  # type: ignore[attr-defined]
_like(inspect_signature, _INSPECT_SIGNATURE, "signature")
inspect_signature.__wrapped__ = _INSPECT_SIGNATURE  # type: ignore[attr-defined]
_like(apply_defaults, inspect.BoundArguments.apply_defaults, "BoundArguments.apply_defaults")


class Signature(inspect.Signature):
    """An :class:`inspect.Signature` that is made and binds calls fast.

    ``bind`` and ``bind_partial`` return real :class:`inspect.BoundArguments`
    equal to the running inspect's, and raise its errors word for word.
    Build one with :func:`signature` (or ``Signature.from_callable``).
    """

    __slots__ = ()

    bind = bind
    bind_partial = bind_partial
    from_callable = classmethod(from_callable)


def signature(obj: Callable[..., Any], *, follow_wrapped: bool = True, **options: Any) -> Signature:
    """The signature of ``obj``, as :func:`inspect.signature` gives it, as a
    :class:`Signature` that binds fast.

    Takes what :func:`inspect.signature` takes (``globals``, ``locals``,
    ``eval_str`` and ``annotation_format`` where the running inspect has them)
    and raises what it raises.
    """
    if type(obj) is FUNCTION_TYPE and not options:
        sig = _core.function_signature(Signature, obj)
        if sig is not None:
            if _observer is not None:
                _observer("posonly.signature", None)
            return sig  # type: ignore[no-any-return]
    return _signature_fallback("posonly.signature", Signature, obj, follow_wrapped, options)  # type: ignore[no-any-return]


# -- patching inspect ----------------------------------------------------------

_patch_lock = threading.Lock()
_installed: List[Tuple[Any, str, Any, Any]] = []
"""What the patch replaced: (module or class, attribute, inspect's object, ours)."""


def _property_like(getter: Callable[[Any], Any], original: Any) -> property:
    """A property of ``getter``, documented as inspect's ``original``."""
    made = property(getter)
    made.__doc__ = original.__doc__  # property() would take the getter's
    return made


def _replacements() -> List[Tuple[Any, str, Any]]:
    bound_arguments = inspect.BoundArguments
    return [
        (inspect, "signature", inspect_signature),
        (inspect.Signature, "bind", bind),
        (inspect.Signature, "bind_partial", bind_partial),
        (inspect.Signature, "from_callable", classmethod(from_callable)),
        (bound_arguments, "args", _property_like(_core.bound_args, bound_arguments.args)),
        (bound_arguments, "kwargs", _property_like(_core.bound_kwargs, bound_arguments.kwargs)),
        (bound_arguments, "apply_defaults", apply_defaults),
        (inspect, "getfullargspec", _options.getfullargspec),
        (inspect, "getcallargs", _options.getcallargs),
    ]


def patch_inspect(maxsize: int = 4096) -> None:
    """Make :mod:`inspect`'s signatures of plain functions, and every
    signature's binding, go through posonly, with the same answers and errors.

    Replaces ``inspect.signature``, ``inspect.getfullargspec``,
    ``inspect.getcallargs``, ``inspect.Signature.bind``, ``bind_partial``
    and ``from_callable``, and
    ``inspect.BoundArguments.args``, ``kwargs`` and ``apply_defaults`` (code
    that took ``inspect.signature`` by ``from inspect import signature``
    before the patch keeps inspect's, which calls the patched
    ``from_callable``).
    Patching again changes nothing.  ``maxsize`` bounds how many signatures
    the pure core keeps plans for, and how many code objects it keeps the
    parameters' names of (0: none); the compiled core keeps no
    per-signature state, and checks ``maxsize`` only.
    """
    if not isinstance(maxsize, int) or isinstance(maxsize, bool):
        raise TypeError(f"maxsize must be an int, not {type(maxsize).__name__}")
    if maxsize < 0:
        raise ValueError(f"maxsize must be at least 0, not {maxsize}")
    set_maxsize = getattr(_core, "set_maxsize", None)
    if set_maxsize is not None:
        set_maxsize(maxsize)
    with _patch_lock:
        if _installed:
            return
        for owner, name, ours in _replacements():
            _installed.append((owner, name, owner.__dict__[name], ours))
            setattr(owner, name, ours)


def unpatch_inspect() -> None:
    """Undo :func:`patch_inspect`: put inspect's own objects back (the very
    same objects), each where posonly's is still in place.  An attribute
    that something else replaced after :func:`patch_inspect` is left as that
    later patch made it.  Harmless when inspect is not patched."""
    with _patch_lock:
        for owner, name, original, ours in reversed(_installed):
            if owner.__dict__.get(name) is ours:
                setattr(owner, name, original)
        _installed.clear()


from . import _options  # noqa: E402 - it reads this module's names
from ._options import signature_fallback as _signature_fallback  # noqa: E402
