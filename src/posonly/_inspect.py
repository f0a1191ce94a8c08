"""A drop-in for :mod:`inspect`'s signatures and binding: the same answers, faster.

``signature(obj)`` returns a :class:`Signature`, a subclass of
:class:`inspect.Signature` whose ``bind`` and ``bind_partial`` return real
:class:`inspect.BoundArguments` equal to inspect's own, and raise inspect's
own errors.  ``patch_inspect()`` gives every :class:`inspect.Signature` and
:class:`inspect.BoundArguments` in the process the same speed;
``unpatch_inspect()`` undoes it.

The work is done by the drop-in's core, compiled (``_dropin.pxi``) or pure
(``_dropin``), chosen by ``_impl``: each core function does what one
piece of inspect does, step for step, reading the parameters' slots instead
of their properties, and makes signatures of plain functions without
re-validating what the compiler guarantees.

The entry points.  With the compiled core, what the patch installs (and
:class:`Signature`'s ``bind``, ``bind_partial`` and ``from_callable``) are
``InspectMethod`` objects: called through vectorcall with the caller's
argument array, they add no Python-level frame (tracers, profilers and
``sys.monitoring`` see what they saw with plain inspect, and a failed
bind's traceback ends at the caller), and they pose as inspect's functions
(name, qualname, module, doc, ``__wrapped__``, and inspect's function's
attributes read through), so that ``inspect.signature``, ``help`` and
``mock.create_autospec`` answer for them as for inspect's.  With the pure
core they are the Python functions below, named as inspect's.  A
signature entry point called with options, or for anything but a plain
function, calls ``_signature_fallback``; a bind the core does not serve
(a class of the user's) calls inspect's own function with the same
arguments.  With an observer set (``set_observer`` of either core), each
call reports what served it (see ``_dialect``).

What is kept per signature.  One design for both cores, differing only
where speed decides it.  Nothing the user made is kept alive: no
signature, function, parameter or default, only names and counts, at most
``maxsize`` of each kind, each entry dropped with what it describes.

A signature bound again and again gets a *plan*: its parameters' names,
kinds and which must be given, kept under a weak reference to the dict
under its parameters' mappingproxy (made only while that dict is owned by
the proxy alone, so nothing else can change it; on PyPy the pure core's is
to the signature), which drops the plan when the dict dies; so a signature made where a dead one was never finds the
dead one's plan.  One bind in a few (``_SAMPLE``) of a signature without a
plan starts it, at most ``maxsize`` plans are kept, evicted by the clock
(second chance), and ``set_maxsize``, ``cache_info`` and ``clear_cache``
of either core bound, show and drop them.  Where the cores differ:

- the compiled core makes the plan at once (an array of the names, read
  in one pass: reading costs what noting does) and finds it on the dict's
  own list of weak references, with no lookup; a bind walks the array,
  binding straight from the caller's arguments.  A signature made afresh
  for each call has its parameters read in C on its bind, which costs
  less than any lookup would;
- the pure core notes the signature first, and plans it on the binds after
  (its plan is code made per shape of parameters, with the names as
  constants: see ``_dropin_plans``), keyed by the mapping's id
  (``_dropin_cache``); and, as a signature made afresh for each call
  would never get a plan, it keeps per
  code object its parameters' names and the plan of its latest defaults,
  with which such a signature is handed its plan.

Either way a signature made afresh for every call costs what making and
binding it costs, and answers are exact whatever changed since (a
function's ``__defaults__``, ``__kwdefaults__`` or ``__code__``).
"""

from __future__ import annotations

import inspect
import threading
from typing import Any, Callable, Dict, List, Tuple

from . import _dropin as _pure
from . import _impl, _options
from ._dialect import FUNCTION_TYPE, INSPECT_FROM_CALLABLE, INSPECT_SIGNATURE, like_inspect
from ._options import signature_fallback as _signature_fallback

__all__ = ["Signature", "signature", "patch_inspect", "unpatch_inspect"]

_core: Any = _impl.dropin
"""The drop-in's core: the compiled module or ``_dropin``."""

_INSPECT_FROM_CALLABLE = INSPECT_FROM_CALLABLE
_INSPECT_SIGNATURE = INSPECT_SIGNATURE
_INSPECT_BIND: Callable[..., Any] = inspect.Signature.bind
_INSPECT_BIND_PARTIAL: Callable[..., Any] = inspect.Signature.bind_partial
_INSPECT_APPLY_DEFAULTS: Callable[..., Any] = inspect.BoundArguments.apply_defaults
_INSPECT_ARGS: Any = inspect.BoundArguments.args
_INSPECT_KWARGS: Any = inspect.BoundArguments.kwargs
_INSPECT_GETFULLARGSPEC: Callable[..., Any] = inspect.getfullargspec
_INSPECT_GETCALLARGS: Callable[..., Any] = inspect.getcallargs


def _report(entry: str, reason: Any) -> None:
    observer = _core.get_observer()
    if observer is not None:
        observer(entry, reason)


# The entry points of the pure core: Python functions with inspect's
# signatures and names (the compiled core's are InspectMethods, called with
# no Python frame).  Each reports to the pure core's observer when one is set.

def _pure_bind(self, /, *args, **kwargs):  # type: ignore[no-untyped-def]
    bound = _core.bind_signature(self, args, kwargs, False)
    if _pure._observer is not None:
        _pure._observer("Signature.bind", _options.bind_reason(self))
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


def _pure_bind_partial(self, /, *args, **kwargs):  # type: ignore[no-untyped-def]
    bound = _core.bind_signature(self, args, kwargs, True)
    if _pure._observer is not None:
        _pure._observer("Signature.bind_partial", _options.bind_reason(self))
    if type(bound) is TypeError:
        if bound.__context__ is None:
            raise (bound, bound := None)[0]
        try:
            raise bound.__context__
        except StopIteration:
            raise (bound, bound := None)[0]
    return bound


def _pure_from_callable(cls, /, obj, *, follow_wrapped=True, **options):  # type: ignore[no-untyped-def]
    if type(obj) is FUNCTION_TYPE and not options:
        sig = _core.function_signature(cls, obj, follow_wrapped)
        if sig is not None:
            if _pure._observer is not None:
                _pure._observer("Signature.from_callable", None)
            return sig
    return _signature_fallback("Signature.from_callable", cls, obj, follow_wrapped, options)


def _pure_inspect_signature(obj, *, follow_wrapped=True, **options):  # type: ignore[no-untyped-def]
    # inspect.signature looks its Signature class up when called.
    cls = inspect.Signature
    if type(obj) is FUNCTION_TYPE and not options:
        sig = _core.function_signature(cls, obj, follow_wrapped)
        if sig is not None:
            if _pure._observer is not None:
                _pure._observer("inspect.signature", None)
            return sig
    return _signature_fallback("inspect.signature", cls, obj, follow_wrapped, options)


def _pure_apply_defaults(self):  # type: ignore[no-untyped-def]
    _core.apply_defaults(self)
    if _pure._observer is not None:
        _pure._observer("BoundArguments.apply_defaults", _options.bound_reason(self))


like_inspect(_pure_bind, _INSPECT_BIND, "Signature.bind")
like_inspect(_pure_bind_partial, _INSPECT_BIND_PARTIAL, "Signature.bind_partial")
like_inspect(_pure_from_callable, _INSPECT_FROM_CALLABLE, "Signature.from_callable")
# Its own parameters stand for inspect's, which differ between versions.
_pure_from_callable.__wrapped__ = _INSPECT_FROM_CALLABLE  # type: ignore[attr-defined]
like_inspect(_pure_inspect_signature, _INSPECT_SIGNATURE, "signature")
_pure_inspect_signature.__wrapped__ = _INSPECT_SIGNATURE  # type: ignore[attr-defined]
like_inspect(_pure_apply_defaults, _INSPECT_APPLY_DEFAULTS, "BoundArguments.apply_defaults")


def _pure_getfullargspec(func, **options):  # type: ignore[no-untyped-def]
    return _options.getfullargspec(func, **options)


def _pure_getcallargs(func, /, *positional, **named):  # type: ignore[no-untyped-def]
    return _options.getcallargs(func, *positional, **named)


like_inspect(_pure_getfullargspec, _INSPECT_GETFULLARGSPEC, "getfullargspec")
_pure_getfullargspec.__wrapped__ = _INSPECT_GETFULLARGSPEC  # type: ignore[attr-defined]
like_inspect(_pure_getcallargs, _INSPECT_GETCALLARGS, "getcallargs")
_pure_getcallargs.__wrapped__ = _INSPECT_GETCALLARGS  # type: ignore[attr-defined]


def _entry_points(core: Any) -> Dict[str, Any]:
    """The patched entry points served by ``core``, by name: the compiled
    core's InspectMethods, else the Python functions above."""
    make = getattr(core, "InspectMethod", None)
    if make is None:
        return {
            "signature": _pure_inspect_signature, "bind": _pure_bind,
            "bind_partial": _pure_bind_partial, "from_callable": _pure_from_callable,
            "apply_defaults": _pure_apply_defaults,
            "args": core.bound_args, "kwargs": core.bound_kwargs,
            "getfullargspec": _pure_getfullargspec, "getcallargs": _pure_getcallargs,
        }
    # What the core hands on is served by _options, compiled beside the core.
    fallback = _options.signature_fallback
    return {
        "signature": make("signature", _INSPECT_SIGNATURE, "signature", "inspect.signature",
                          fallback),
        "bind": make("bind", _INSPECT_BIND, "Signature.bind", "Signature.bind"),
        "bind_partial": make("bind_partial", _INSPECT_BIND_PARTIAL,
                             "Signature.bind_partial", "Signature.bind_partial"),
        "from_callable": make("from_callable", _INSPECT_FROM_CALLABLE, "Signature.from_callable",
                              "Signature.from_callable", fallback),
        "apply_defaults": make("apply_defaults", _INSPECT_APPLY_DEFAULTS,
                               "BoundArguments.apply_defaults", "BoundArguments.apply_defaults"),
        "args": make("args", _INSPECT_ARGS.fget, "BoundArguments.args", None),
        "kwargs": make("kwargs", _INSPECT_KWARGS.fget, "BoundArguments.kwargs", None),
        "getfullargspec": make("forward", _INSPECT_GETFULLARGSPEC, "getfullargspec", None,
                               _options.getfullargspec),
        "getcallargs": make("forward", _INSPECT_GETCALLARGS, "getcallargs", None,
                            _options.getcallargs),
    }


_ENTRY_POINTS: Dict[Any, Dict[str, Any]] = {}
"""Each core's entry points, made once."""


def _entry_points_of(core: Any) -> Dict[str, Any]:
    made = _ENTRY_POINTS.get(core)
    if made is None:
        made = _ENTRY_POINTS[core] = _entry_points(core)
    return made


class Signature(inspect.Signature):
    """An :class:`inspect.Signature` that is made and binds calls fast.

    ``bind`` and ``bind_partial`` return real :class:`inspect.BoundArguments`
    equal to the running inspect's, and raise its errors word for word.
    Build one with :func:`signature` (or ``Signature.from_callable``).
    """

    __slots__ = ()


_options.SIGNATURE_CLASSES.append(Signature)

def _use_core(core: Any) -> None:
    """Serve with ``core`` from now on: the entry points a later
    ``patch_inspect()`` installs, and :class:`Signature`'s methods."""
    global _core, bind, bind_partial, from_callable, inspect_signature, apply_defaults
    _core = core
    _options.serve_with(core)
    entries = _entry_points_of(core)
    bind = entries["bind"]
    bind_partial = entries["bind_partial"]
    from_callable = entries["from_callable"]
    setattr(Signature, "bind", bind)
    setattr(Signature, "bind_partial", bind_partial)
    setattr(Signature, "from_callable", classmethod(from_callable))
    inspect_signature = entries["signature"]
    apply_defaults = entries["apply_defaults"]


# Set by _use_core (not annotated here: PyPy 3.9's compiler refuses an
# annotated module name that a function declares global).
bind = bind_partial = from_callable = inspect_signature = apply_defaults = None
_use_core(_core)


def signature(obj: Callable[..., Any], *, follow_wrapped: bool = True, **options: Any) -> Signature:
    """The signature of ``obj``, as :func:`inspect.signature` gives it, as a
    :class:`Signature` that binds fast.

    Takes what :func:`inspect.signature` takes (``globals``, ``locals``,
    ``eval_str`` and ``annotation_format`` where the running inspect has them)
    and raises what it raises.
    """
    if type(obj) is FUNCTION_TYPE and not options:
        sig = _core.function_signature(Signature, obj, follow_wrapped)
        if sig is not None:
            if _core.get_observer() is not None:
                _report("posonly.signature", None)
            return sig  # type: ignore[no-any-return]
    sig = _signature_fallback("posonly.signature", Signature, obj, follow_wrapped, options)
    if not isinstance(sig, Signature):
        # An object's own __signature__ is returned by inspect as it is.
        sig = Signature(
            sig.parameters.values(),
            return_annotation=sig.return_annotation,
            __validate_parameters__=False,
        )
    return sig


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
    entries = _entry_points_of(_core)
    return [
        (inspect, "signature", entries["signature"]),
        (inspect.Signature, "bind", entries["bind"]),
        (inspect.Signature, "bind_partial", entries["bind_partial"]),
        (inspect.Signature, "from_callable", classmethod(entries["from_callable"])),
        (bound_arguments, "args", _property_like(entries["args"], _INSPECT_ARGS)),
        (bound_arguments, "kwargs", _property_like(entries["kwargs"], _INSPECT_KWARGS)),
        (bound_arguments, "apply_defaults", entries["apply_defaults"]),
        (inspect, "getfullargspec", entries["getfullargspec"]),
        (inspect, "getcallargs", entries["getcallargs"]),
    ]


def patch_inspect(maxsize: int = 4096) -> None:
    """Make :mod:`inspect`'s signatures of plain functions (and of the
    methods, classes, callable objects, partials and ``functools.wraps``
    chains whose signature inspect takes from one), and every signature's
    binding, go through posonly, with the same answers and errors.

    Replaces ``inspect.signature``, ``inspect.getfullargspec``,
    ``inspect.getcallargs``, ``inspect.Signature.bind``,
    ``bind_partial`` and ``from_callable``, and
    ``inspect.BoundArguments.args``, ``kwargs`` and ``apply_defaults`` (code
    that took ``inspect.signature`` by ``from inspect import signature``
    before the patch keeps inspect's, which calls the patched
    ``from_callable``).
    Patching again changes nothing.  ``maxsize`` bounds how many signatures
    either core keeps plans for, how many code objects the pure core
    keeps the parameters' names of, and how many builtins' text signatures
    are kept parsed (0: none).
    """
    if not isinstance(maxsize, int) or isinstance(maxsize, bool):
        raise TypeError(f"maxsize must be an int, not {type(maxsize).__name__}")
    if maxsize < 0:
        raise ValueError(f"maxsize must be at least 0, not {maxsize}")
    set_maxsize = getattr(_core, "set_maxsize", None)
    if set_maxsize is not None:
        set_maxsize(maxsize)
    _options.set_builtin_maxsize(maxsize)
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
