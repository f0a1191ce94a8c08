"""A drop-in for :mod:`inspect`'s binding: the same answers, much faster.

``signature(obj)`` returns a :class:`Signature`, a subclass of
:class:`inspect.Signature` whose ``bind`` and ``bind_partial`` return real
:class:`inspect.BoundArguments` equal to inspect's own, and raise inspect's own
errors.  ``patch_inspect()`` gives every :class:`inspect.Signature` in the
process the same fast binding; ``unpatch_inspect()`` undoes it.

How a call is bound.  The signature's shape (names, kinds, which parameters
have defaults) is analysed once into a plan: a binder of that shape with every
default replaced by ``MISSING``, so that what a call did not give shows.  With
the compiled binder the plan is an ``InspectPlan`` and ``bind``/``bind_partial``
are compiled method descriptors called through vectorcall; with the pure one,
a :class:`_Plan` of two generated functions.  A call with positional arguments
only is checked by counting them; a call with keywords is checked by the binder.
When the check passes, the ``BoundArguments`` is built directly: the
positionals paired with the positional names, ``*args`` when extra
positionals were given, the parameters given by keyword in signature order,
and ``**kwargs`` when keywords are left over (what inspect's ``arguments``
holds: only the parameters actually given).  Everything else goes to inspect's
own ``Signature._bind``, so inspect answers it:

- any call the check refuses, so that the error is inspect's, word for word;
- a keyword equal to the name of a positional-only parameter that was not
  given by position, where inspect and the interpreter disagree (and inspect
  versions disagree with each other);
- a signature the plan cannot describe (parameters out of order, names a
  layout refuses), or a subclass that overrides ``_bind``.
"""

from __future__ import annotations

import inspect
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Tuple

from . import _impl
from ._layout import MISSING, Layout

__all__ = ["Signature", "signature", "patch_inspect", "unpatch_inspect"]

Binder: Any = None
"""The binder class plans are built with; ``None`` for :data:`posonly.Binder`."""

_BoundArguments = inspect.BoundArguments
_POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
_POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
_VAR_POSITIONAL = inspect.Parameter.VAR_POSITIONAL
_KEYWORD_ONLY = inspect.Parameter.KEYWORD_ONLY
_VAR_KEYWORD = inspect.Parameter.VAR_KEYWORD
_EMPTY = inspect.Parameter.empty

_INSPECT_BIND: Callable[..., Any] = inspect.Signature.bind
_INSPECT_BIND_PARTIAL: Callable[..., Any] = inspect.Signature.bind_partial
_INSPECT_PRIVATE_BIND: Callable[..., Any] = inspect.Signature._bind  # type: ignore[attr-defined]


_UNROLL_LIMIT = 8  # positional counts bound with unrolled code; others by zip


class _Shape:
    """A signature's parameters as binding sees them: names, kinds, and which
    have defaults (their values never enter ``BoundArguments.arguments``)."""

    def __init__(self, sig: inspect.Signature) -> None:
        self.posonly: list = []
        self.positional: list = []
        self.kwonly: list = []
        self.varargs: Optional[str] = None
        self.varkw: Optional[str] = None
        self.positional_defaults = 0
        self.kwonly_defaults: list = []
        last_kind = -1
        for name, param in sig.parameters.items():
            kind = int(param.kind)
            has_default = param.default is not _EMPTY
            # Out of order or repeated kinds: only a signature built without
            # validation has them, and inspect binds those its own way.
            if kind < last_kind or (kind == last_kind and kind in (_VAR_POSITIONAL, _VAR_KEYWORD)):
                raise ValueError("parameters out of order")
            last_kind = kind
            if kind in (_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD):
                (self.posonly if kind == _POSITIONAL_ONLY else self.positional).append(name)
                if has_default:
                    self.positional_defaults += 1
                elif self.positional_defaults:
                    raise ValueError("a required parameter follows one with a default")
            elif kind == _VAR_POSITIONAL:
                self.varargs = name
            elif kind == _KEYWORD_ONLY:
                self.kwonly.append(name)
                if has_default:
                    self.kwonly_defaults.append(name)
            else:
                self.varkw = name

    def key(self) -> tuple:
        return (
            tuple(self.posonly),
            tuple(self.positional),
            self.varargs,
            tuple(self.kwonly),
            self.varkw,
            self.positional_defaults,
            tuple(self.kwonly_defaults),
        )


def _generate(key: tuple, binder_class: Any, partial: bool) -> Callable[..., Any]:
    """The function ``(sig, args, kwargs) -> BoundArguments`` for one shape.

    Positionals alone are paired with their names by unrolled code.  With
    keywords, a binder of the shape (every default replaced by ``MISSING``,
    so that what was not given shows) checks the call and returns the values
    in frame order; unrolled code keeps the given ones, in signature order.
    Whatever the binder refuses, or PEP 570's corner, goes to ``sig._bind``.
    """
    posonly, positional, varargs, kwonly, varkw, positional_defaults, kwonly_defaults = key
    layout = _shape_layout(key)
    binder = binder_class(layout)
    positional_names = posonly + positional
    argcount = len(positional_names)
    required = argcount - positional_defaults
    required_kwonly = len(kwonly_defaults) < len(kwonly)
    fallback = "return sig._bind(args, kwargs, partial=True)" if partial else "return sig._bind(args, kwargs)"
    lines = ["def bind(sig, args, kwargs):", "    n = len(args)", "    if not kwargs:"]

    # -- positionals only -----------------------------------------------------
    def pairs(count: int) -> str:
        return ", ".join(f"{positional_names[i]!r}: args[{i}]" for i in range(count))

    if required_kwonly and not partial:
        lines.append(f"        {fallback}")
    else:
        lowest = 0 if partial else required
        counts = list(range(lowest, argcount + 1))
        branch = "if"
        for count in counts[:_UNROLL_LIMIT]:
            lines.append(f"        {branch} n == {count}:")
            lines.append(f"            arguments = {{{pairs(count)}}}")
            branch = "elif"
        if len(counts) > _UNROLL_LIMIT:
            lines.append(f"        {branch} {lowest} <= n <= {argcount}:")
            lines.append("            arguments = dict(zip(positional_names, args))")
            branch = "elif"
        if varargs is not None:
            lines.append(f"        {branch} n > {argcount}:")
            lines.append(f"            arguments = {{{pairs(argcount)}}}")
            lines.append(f"            arguments[{varargs!r}] = args[{argcount}:]")
        lines.append("        else:")
        lines.append(f"            {fallback}")
        lines.append("        return sig._bound_arguments_cls(sig, arguments)")

    # -- with keywords ----------------------------------------------------------
    if varkw is not None:
        # PEP 570's corner: a keyword naming a positional-only parameter that
        # was not given by position.  inspect has its own answers there.
        for i, name in enumerate(posonly):
            lines.append(f"    if n <= {i} and {name!r} in kwargs:")
            lines.append(f"        {fallback}")
    frame_order = layout.names
    local = {name: f"v{i}" for i, name in enumerate(frame_order)}
    call = "binder.partial(*args, **kwargs)" if partial else "binder.bind(args, kwargs)"
    lines.append("    try:")
    targets = "".join(local[name] + ", " for name in frame_order)
    lines.append(f"        {targets}= {call}" if targets else f"        {call}")
    lines.append("    except Exception:")
    lines.append(f"        {fallback}")
    lines.append("    arguments = {}")

    def keep(name: str, always: bool) -> None:
        if always:
            lines.append(f"    arguments[{name!r}] = {local[name]}")
        else:
            lines.append(f"    if {local[name]} is not MISSING:")
            lines.append(f"        arguments[{name!r}] = {local[name]}")

    for i, name in enumerate(positional_names):
        keep(name, not partial and i < required)
    if varargs is not None:
        lines.append(f"    if {local[varargs]}:")
        lines.append(f"        arguments[{varargs!r}] = {local[varargs]}")
    for name in kwonly:
        keep(name, not partial and name not in kwonly_defaults)
    if varkw is not None:
        lines.append(f"    if {local[varkw]}:")
        lines.append(f"        arguments[{varkw!r}] = {local[varkw]}")
    lines.append("    return sig._bound_arguments_cls(sig, arguments)")

    namespace: Dict[str, Any] = {
        "binder": binder,
        "MISSING": MISSING,
        "positional_names": positional_names,
    }
    exec("\n".join(lines) + "\n", namespace)
    function = namespace["bind"]
    function.__qualname__ = function.__name__ = "bind_partial" if partial else "bind"
    return function  # type: ignore[no-any-return]


class _Plan:
    """The two generated binding functions of one shape."""

    __slots__ = ("bind", "bind_partial")

    def __init__(self, key: tuple, binder_class: Any) -> None:
        self.bind = _generate(key, binder_class, partial=False)
        self.bind_partial = _generate(key, binder_class, partial=True)


_plans: Dict[tuple, Any] = {}
_PLANS_MAXSIZE = 1024


def _plan_of(sig: inspect.Signature) -> Optional[_Plan]:
    """The plan of ``sig``, or ``None`` where inspect must bind every call."""
    if type(sig)._bind is not _INSPECT_PRIVATE_BIND:  # type: ignore[attr-defined]
        return None
    try:
        key = _Shape(sig).key()
    except ValueError:
        return None
    binder_class = Binder
    if binder_class is None:
        from . import Binder as binder_class
    cache_key = (key, binder_class)
    plan = _plans.get(cache_key)
    if plan is None:
        try:
            if _impl.compiled and binder_class is _impl.module.Binder:
                plan = _compiled_plan(key, binder_class)
            else:
                plan = _Plan(key, binder_class)
        except (TypeError, ValueError):  # names a layout refuses
            return None
        _plans[cache_key] = plan
        while len(_plans) > _PLANS_MAXSIZE:
            try:
                del _plans[next(iter(_plans))]
            except (KeyError, RuntimeError, StopIteration):  # changed by another thread
                break
    return plan


def _shape_layout(key: tuple) -> Layout:
    """The layout of a shape with every default ``MISSING``, so that a binder
    of it shows what a call did not give."""
    posonly, positional, varargs, kwonly, varkw, positional_defaults, kwonly_defaults = key
    return Layout(
        "bind",
        posonly,
        positional,
        varargs,
        kwonly,
        varkw,
        (MISSING,) * positional_defaults,
        {name: MISSING for name in kwonly_defaults},
    )


def _compiled_plan(key: tuple, binder_class: Any) -> Any:
    """The compiled binder's plan: the same decisions as :func:`_generate`,
    taken in C by ``InspectPlan``."""
    posonly, positional, varargs, kwonly, varkw = key[:5]
    layout = _shape_layout(key)
    order = list(posonly + positional)
    if varargs is not None:
        order.append(varargs)
    order += kwonly
    if varkw is not None:
        order.append(varkw)
    return _impl.module.InspectPlan(
        binder_class(layout),
        tuple(order),
        [layout.names.index(name) for name in order],
        [name in (varargs, varkw) for name in order],
        tuple(posonly) if varkw is not None else (),
    )


class Signature(inspect.Signature):
    """An :class:`inspect.Signature` that binds calls fast.

    ``bind`` and ``bind_partial`` return real :class:`inspect.BoundArguments`
    equal to the running inspect's, and raise its errors word for word.
    Build one with :func:`signature` (or ``Signature.from_callable``).
    """

    __slots__ = ("_posonly_plan",)

    def _plan(self) -> Optional[_Plan]:
        try:
            return self._posonly_plan  # type: ignore[no-any-return]
        except AttributeError:
            plan = self._posonly_plan = _plan_of(self)
            return plan

    def bind(self, /, *args: Any, **kwargs: Any) -> inspect.BoundArguments:
        """Map ``args`` and ``kwargs`` to the parameters, as inspect does.

        Returns an :class:`inspect.BoundArguments`; raises :class:`TypeError`
        with inspect's message if the arguments cannot be bound.
        """
        try:
            plan = self._posonly_plan
        except AttributeError:
            plan = self._plan()
        if plan is None:
            return self._bind(args, kwargs)  # type: ignore[attr-defined,no-any-return]
        return plan.bind(self, args, kwargs)

    def bind_partial(self, /, *args: Any, **kwargs: Any) -> inspect.BoundArguments:
        """Like :meth:`bind`, but required parameters may be left out."""
        try:
            plan = self._posonly_plan
        except AttributeError:
            plan = self._plan()
        if plan is None:
            return self._bind(args, kwargs, partial=True)  # type: ignore[attr-defined,no-any-return]
        return plan.bind_partial(self, args, kwargs)

    if _impl.compiled and not TYPE_CHECKING:
        # The same methods in C: a call goes from the interpreter to the
        # compiled binder and back with a BoundArguments, no Python frame.
        bind = _impl.module.SignatureMethod(False, False, "bind", bind.__doc__)  # noqa: F811
        bind_partial = _impl.module.SignatureMethod(  # noqa: F811
            True, False, "bind_partial", bind_partial.__doc__
        )


if _impl.compiled:
    _impl.module.set_signature_class(Signature)


def signature(obj: Callable[..., Any], *, follow_wrapped: bool = True, **options: Any) -> Signature:
    """The signature of ``obj``, as :func:`inspect.signature` gives it, as a
    :class:`Signature` that binds fast.

    Takes what :func:`inspect.signature` takes (``globals``, ``locals`` and
    ``eval_str`` where the running inspect has them) and raises what it raises.
    """
    sig = Signature.from_callable(obj, follow_wrapped=follow_wrapped, **options)
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
_patched: Optional[Tuple[Callable[..., Any], Callable[..., Any]]] = None
_cache: Dict[int, Tuple[inspect.Signature, Optional[_Plan]]] = {}
_maxsize = 4096


def _cached_plan(sig: inspect.Signature) -> Optional[_Plan]:
    """The plan of ``sig``, through the least-recently-used cache.

    The cache is a dict in order of use, most recent last: a hit moves its
    entry to the end, a miss evicts from the front.  Entries are keyed by
    identity and hold their signature, so an id cannot be reused by another
    signature while its entry lives.
    """
    key = id(sig)
    entry = _cache.get(key)
    if entry is not None and entry[0] is sig:
        _cache.pop(key, None)
        _cache[key] = entry
        return entry[1]
    plan = _plan_of(sig)
    if _maxsize > 0:
        _cache[key] = (sig, plan)
        while len(_cache) > _maxsize:
            try:
                del _cache[next(iter(_cache))]
            except (KeyError, RuntimeError, StopIteration):  # changed by another thread
                break
    return plan


def _patched_bind(self: inspect.Signature, /, *args: Any, **kwargs: Any) -> Any:
    plan = _cached_plan(self)
    if plan is None:
        return self._bind(args, kwargs)  # type: ignore[attr-defined]
    return plan.bind(self, args, kwargs)


def _patched_bind_partial(self: inspect.Signature, /, *args: Any, **kwargs: Any) -> Any:
    plan = _cached_plan(self)
    if plan is None:
        return self._bind(args, kwargs, partial=True)  # type: ignore[attr-defined]
    return plan.bind_partial(self, args, kwargs)


def _clear_cache() -> None:
    _cache.clear()
    if _impl.compiled:
        _impl.module.set_patch_cache(_cache, _cached_plan)


if _impl.compiled:
    # The same in C, sharing the cache; a miss comes back to _cached_plan.
    _impl.module.set_patch_cache(_cache, _cached_plan)
    _patched_bind = _impl.module.SignatureMethod(False, True, "bind")  # noqa: F811
    _patched_bind_partial = _impl.module.SignatureMethod(True, True, "bind_partial")  # noqa: F811


def patch_inspect(maxsize: int = 4096) -> None:
    """Make every :meth:`inspect.Signature.bind` and ``bind_partial`` in the
    process bind through posonly, with the same answers and errors.

    Each signature's plan is kept in a least-recently-used cache of at most
    ``maxsize`` signatures.  Patching again only sets the new ``maxsize`` (and
    empties the cache); :func:`unpatch_inspect` undoes the patch.
    """
    global _patched, _maxsize
    if not isinstance(maxsize, int) or isinstance(maxsize, bool):
        raise TypeError(f"maxsize must be an int, not {type(maxsize).__name__}")
    if maxsize < 0:
        raise ValueError(f"maxsize must be at least 0, not {maxsize}")
    with _patch_lock:
        _clear_cache()
        _maxsize = maxsize
        if _patched is None:
            _patched = (inspect.Signature.bind, inspect.Signature.bind_partial)
            # help() on the patched methods reads as inspect's own.
            _patched_bind.__doc__ = _patched[0].__doc__
            _patched_bind_partial.__doc__ = _patched[1].__doc__
            inspect.Signature.bind = _patched_bind  # type: ignore[method-assign]
            inspect.Signature.bind_partial = _patched_bind_partial  # type: ignore[method-assign]


def unpatch_inspect() -> None:
    """Undo :func:`patch_inspect`: restore inspect's own ``bind`` and
    ``bind_partial`` (the very same function objects) and empty the cache.
    Harmless when inspect is not patched."""
    global _patched
    with _patch_lock:
        if _patched is not None:
            inspect.Signature.bind, inspect.Signature.bind_partial = _patched  # type: ignore[method-assign]
            _patched = None
        _clear_cache()
