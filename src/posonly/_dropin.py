"""The drop-in for ``inspect``, in pure Python: the twin of ``_dropin.pxi``.

Each function here does what one piece of ``inspect`` does, step for step in
the same order, so that every answer and every message is ``inspect``'s; it
is faster because it reads the parameters' slots instead of their
properties and makes its objects without re-validating them:

- ``bind_signature(sig, args, kwargs, partial)``: ``Signature._bind``
  (``kwargs`` is the caller's own new dict, consumed as ``_bind`` consumes
  it);
- ``bound_args(ba)``, ``bound_kwargs(ba)``, ``apply_defaults(ba)``: the
  ``BoundArguments`` members of those names (``bound_args`` is inspect's
  own getter: see there);
- ``function_signature(cls, func)``: ``cls.from_callable(func)`` for a plain
  Python function, or ``None`` where ``inspect`` must answer
  (``_dropin_signature``);
- ``set_maxsize``, ``cache_info``, ``clear_cache``: the cache of plans and
  layouts (``_dropin_cache``); ``set_observer``, ``get_observer``: who is
  told of each call.

Each entry point runs the signature's plan (``_dropin_plans``) where the
cache has one, and inspect's generic steps (``_dropin_generic``) where it
has none or the plan leaves the call to them.  Anything these cannot read as
``inspect`` itself would (a ``Signature`` subclass overriding ``_bind`` or
``parameters``, a ``Parameter`` subclass) is handed to ``inspect``'s own
code.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from . import _dropin_cache
from ._dropin_cache import (
    ENTRY_PLAN,
    ENTRY_REF,
    ENTRY_USED,
    SAMPLE,
    advance,
    cache_info,
    clear_cache,
    handed_plan,
    note,
    set_maxsize,
)
from ._dialect import DIALECT
from ._dropin_generic import apply_defaults_generic, args_generic, bind_generic, kwargs_generic
from ._dropin_plans import FALLBACK
from ._dropin_signature import function_signature

__all__ = ["apply_defaults", "bind_signature", "bound_args", "bound_kwargs", "cache_info",
           "clear_cache", "function_signature", "get_observer", "set_maxsize", "set_observer"]

_BoundArguments = DIALECT.BoundArguments
_PRIVATE_BIND = DIALECT.private_bind
_PARAMETERS = DIALECT.parameters_property
_new = object.__new__
_entries: Dict[int, List[Any]] = _dropin_cache.entries
"""The cache's entries (the same dict, which is never rebound), assigned
here rather than imported by name: CPython (3.11 on) compiles a method call
on a name bound by an import as an attribute load and a call, as it would
for a module, so ``entries.get(key)`` would make a bound method on every
bind; on an assigned name it calls the method without one."""

_tick = SAMPLE
"""Binds of signatures without an entry until the next is noted."""

_observer: Any = None
"""The observer the pure entry points (``_inspect``'s functions) report to,
or None (see ``_dialect``)."""


def set_observer(observer: Any) -> None:
    """Report each call of a patched entry point as ``observer(entry,
    reason)`` (see ``_dialect``); None: report nothing."""
    global _observer
    if observer is not None and not callable(observer):
        raise TypeError("observer must be callable or None")
    _observer = observer


def get_observer() -> Any:
    """The observer set, or None."""
    return _observer


def bind_signature(sig: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any], partial: bool) -> Any:
    """``sig._bind(args, kwargs, partial=partial)``, as inspect's own: the
    BoundArguments, or the TypeError inspect raises, returned for the caller
    to raise (as the compiled twin returns it)."""
    global _tick
    cls = type(sig)
    # Signatures of a class with its own _bind or parameters bind its way.
    if cls._bind is not _PRIVATE_BIND or cls.parameters is not _PARAMETERS:
        return sig._bind(args, kwargs, partial=True) if partial else sig._bind(args, kwargs)
    proxy = sig._parameters
    key = id(proxy)
    plan = handed_plan(sig, key)
    if plan is None:
        entry = _entries.get(key)
        if entry is None:
            _tick -= 1
            if _tick <= 0:
                _tick = SAMPLE
                note(sig, proxy, key)
        else:
            plan = entry[ENTRY_PLAN]
            if plan and entry[ENTRY_REF]() is not None:
                entry[ENTRY_USED] = True
            else:
                if plan is not False:
                    advance(sig, proxy, key, entry)
                plan = None
    if plan:
        arguments = plan[partial](args, kwargs)
        if type(arguments) is dict:
            if cls._bound_arguments_cls is _BoundArguments:
                bound: Any = _new(_BoundArguments)
                bound.arguments = arguments
                bound._signature = sig
                return bound
            return cls._bound_arguments_cls(sig, arguments)
        if arguments is not FALLBACK:
            return arguments  # inspect's TypeError
    return bind_generic(sig, args, kwargs, partial)


def bound_args(bound: Any) -> Tuple[Any, ...]:
    """``BoundArguments.args``."""
    if type(bound) is _BoundArguments:
        sig = bound._signature
        if type(sig).parameters is _PARAMETERS:
            key = id(sig._parameters)
            entry = _entries.get(key)
            if entry is not None:
                plan = entry[ENTRY_PLAN]
                arguments = bound.arguments
                if plan and type(arguments) is dict and entry[ENTRY_REF]() is not None:
                    entry[ENTRY_USED] = True
                    return plan[2](arguments)  # type: ignore[no-any-return]
            else:
                plan = handed_plan(sig, key)
                arguments = bound.arguments
                if plan is not None and type(arguments) is dict:
                    return plan[2](arguments)  # type: ignore[no-any-return]
    return args_generic(bound)


def bound_kwargs(bound: Any) -> Dict[str, Any]:
    """``BoundArguments.kwargs``."""
    if type(bound) is _BoundArguments:
        sig = bound._signature
        if type(sig).parameters is _PARAMETERS:
            key = id(sig._parameters)
            entry = _entries.get(key)
            if entry is not None:
                plan = entry[ENTRY_PLAN]
                arguments = bound.arguments
                if plan and type(arguments) is dict and entry[ENTRY_REF]() is not None:
                    entry[ENTRY_USED] = True
                    return plan[3](arguments)  # type: ignore[no-any-return]
            else:
                plan = handed_plan(sig, key)
                arguments = bound.arguments
                if plan is not None and type(arguments) is dict:
                    return plan[3](arguments)  # type: ignore[no-any-return]
    return kwargs_generic(bound)


def apply_defaults(bound: Any) -> None:
    """``BoundArguments.apply_defaults()``."""
    if type(bound) is _BoundArguments:
        sig = bound._signature
        if type(sig).parameters is _PARAMETERS:
            proxy = sig._parameters
            key = id(proxy)
            entry = _entries.get(key)
            if entry is not None:
                plan = entry[ENTRY_PLAN]
                arguments = bound.arguments
                if plan and type(arguments) is dict and entry[ENTRY_REF]() is not None:
                    entry[ENTRY_USED] = True
                    bound.arguments = plan[4](arguments, proxy)
                    return
            else:
                plan = handed_plan(sig, key)
                arguments = bound.arguments
                if plan is not None and type(arguments) is dict:
                    bound.arguments = plan[4](arguments, proxy)
                    return
    apply_defaults_generic(bound)
