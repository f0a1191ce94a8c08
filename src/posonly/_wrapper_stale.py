"""A pure wrapper's defaults at the call: a wrapper calls the function with
the defaults it has at the call, as the interpreter does.

A generated function has positional defaults of its own: where the function
has defaults, its first lines compare the function's ``__defaults__`` and
``__kwdefaults__`` objects with those it was made with, and on a change
``_stale`` gives it the new defaults and makes the call again from the
arguments given.  A forwarding wrapper remakes its binder
(``_remade_binder``).  The rule both implementations follow is in
``posonly._wrapper``'s docstring.
"""

from __future__ import annotations

import operator
import sys
import types
import weakref
from typing import Any, Dict, List, Optional, Tuple

from ._create import binder as pure_binder
from ._create import parameter_names
from ._wrapper_layout import _LAYOUT_OF, _layout_as_made, _output_layout, _referrers, _same_pair, _set_layout

_READS = "__posonly_reads__"  # in a generated function's own globals: what _stale reads


def _probe(a: Any = None, *, b: Any = None) -> None:
    """A function whose defaults tell how the interpreter hands them out."""


# CPython hands out a function's own __defaults__ tuple and __kwdefaults__
# dict; PyPy makes a new tuple on each read of __defaults__ (it keeps a
# list), so there the items are compared.
_DEFAULTS_KEEP_IDENTITY = (
    _probe.__defaults__ is _probe.__defaults__ and _probe.__kwdefaults__ is _probe.__kwdefaults__
)


def _defaults_changed(source: Any, seen: Tuple[Any, Any]) -> bool:
    """Whether ``source`` holds other defaults than ``seen`` (as
    _seen_defaults made it), by identity, item by item where the
    interpreter makes a new tuple on each read."""
    defaults, kwdefaults = source.__defaults__, source.__kwdefaults__
    if kwdefaults is not seen[1] or defaults is seen[0]:
        return kwdefaults is not seen[1]
    if defaults is None or seen[0] is None or len(defaults) != len(seen[0]):
        return True
    return not all(map(operator.is_, defaults, seen[0]))


def _seen_defaults(source: Any) -> Tuple[Any, Any]:
    return source.__defaults__, source.__kwdefaults__


def _binder_at_call(func: Any, source: Any) -> Any:
    """A binder of ``func`` that binds with the defaults ``source`` (the
    function its defaults come from, or None) has at the call: its function
    shares ``source``'s ``__kwdefaults__`` dict (see _kwdefaults_to_share),
    as the compiled wrapper's binder reads it at each call."""
    from ._binder import _function_of

    binder = pure_binder(func)
    if source is not None:
        function = _function_of(binder)
        code = function.__code__
        argcount = code.co_argcount
        kwonly = parameter_names(code, argcount + code.co_kwonlyargcount)[argcount:]
        if kwonly:
            function.__kwdefaults__ = _kwdefaults_to_share(kwonly, source)
    return binder


def _remade_binder(func: Any, source: Any) -> Tuple[Any, Tuple[Any, Any]]:
    """A binder of ``func`` read again, with the defaults objects it read;
    the forwarding wrappers of ``func`` that call this (their code is the
    caller's) get its layout."""
    seen = _seen_defaults(source)
    binder = _binder_at_call(func, source)
    code = sys._getframe(1).f_code
    for referrer in _referrers(code):
        if type(referrer) is types.FunctionType and referrer.__code__ is code and any(
            cell.cell_contents is func for cell in referrer.__closure__ or ()
        ):
            referrer.__dict__["layout"] = binder._plan.output
    return binder, seen


def _given_arguments(code: types.CodeType, defaults: Any, kwdefaults: Any,
                     frame: Tuple[Any, ...]) -> Tuple[List[Any], Dict[str, Any]]:
    """The arguments of a call that a function of ``code`` with these
    defaults bound to ``frame`` (its locals in frame order): a value that is
    its parameter's default object counts as not given."""
    argcount = code.co_argcount
    n_posonly = code.co_posonlyargcount
    total = argcount + code.co_kwonlyargcount
    names = parameter_names(code, total)
    defaults = defaults or ()
    kwdefaults = kwdefaults or {}
    first_default = argcount - len(defaults)
    index = total
    extra: Tuple[Any, ...] = ()
    more: Dict[str, Any] = {}
    if code.co_flags & 0x04:
        extra = frame[index]
        index += 1
    if code.co_flags & 0x08:
        more = frame[index]
    given = [
        bool(extra) or i < first_default or frame[i] is not defaults[i - first_default]
        for i in range(argcount)
    ]
    last_posonly = max((i for i in range(n_posonly) if given[i]), default=-1)
    positional: List[Any] = []
    keywords: Dict[str, Any] = {}
    gap = False
    for i in range(argcount):
        if i <= last_posonly or (given[i] and not gap):
            positional.append(frame[i])
        elif given[i]:
            keywords[names[i]] = frame[i]
        else:
            gap = True
    for i in range(argcount, total):
        name = names[i]
        if name not in kwdefaults or frame[i] is not kwdefaults[name]:
            keywords[name] = frame[i]
    positional.extend(extra)
    keywords.update(more)
    return positional, keywords


class _NoDefault:
    """A generated function's default for a parameter whose function lost
    its default (see _read_defaults); never a value handed on."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<posonly: no default>"


_NO_DEFAULT = _NoDefault()
_NEVER = _NoDefault()  # the defaults "seen" by a wrapper that reads them on every call
_FRESH: "weakref.WeakKeyDictionary[Any, Tuple[Any, Any, Any]]" = weakref.WeakKeyDictionary()


def _read_defaults(generated: Any, function: Any) -> bool:
    """Give ``generated`` the defaults ``function`` has now: its
    ``__defaults__``, and its ``__kwdefaults__`` dict itself (see
    _kwdefaults_to_share).

    A parameter cannot be made required again once the interpreter binds
    it as optional: where ``function`` has lost defaults, ``generated``
    keeps such a parameter optional, with ``_NO_DEFAULT`` (in a dict of its
    own for a keyword-only one), and the answer is False (each call then
    goes through ``_stale``)."""
    code = generated.__code__
    argcount = code.co_argcount
    kwonly = parameter_names(code, argcount + code.co_kwonlyargcount)[argcount:]
    capacity = len(generated.__defaults__ or ())
    defaults = function.__defaults__ or ()
    complete = len(defaults) >= capacity
    if not complete:
        defaults = (_NO_DEFAULT,) * (capacity - len(defaults)) + tuple(defaults)
    generated.__defaults__ = defaults or None
    kwdefaults = function.__kwdefaults__ or {}
    had = generated.__kwdefaults__ or {}
    lost = [name for name in kwonly if name in had and name not in kwdefaults]
    if lost:
        own = {k: kwdefaults[k] for k in kwonly if k in kwdefaults}
        own.update(dict.fromkeys(lost, _NO_DEFAULT))
        generated.__kwdefaults__ = own
        return False
    generated.__kwdefaults__ = _kwdefaults_to_share(kwonly, function)
    return complete


def _kwdefaults_to_share(kwonly: Tuple[str, ...], function: Any) -> Optional[Dict[str, Any]]:
    """What a generated function with the keyword-only parameters ``kwonly``
    takes as its ``__kwdefaults__`` to bind as ``function`` does: the
    function's own dict, where the interpreter looks each default up at the
    call (so a dict changed in place is seen, as by calls of the function);
    a copy of the defaults where ``function``'s keyword-only names differ
    (never for the function a wrapper reads its defaults from)."""
    kwdefaults = function.__kwdefaults__
    if not kwonly or kwdefaults is None:
        return None
    code = function.__code__
    argcount = code.co_argcount
    if parameter_names(code, argcount + code.co_kwonlyargcount)[argcount:] == tuple(kwonly):
        return kwdefaults  # type: ignore[no-any-return]
    return {k: kwdefaults[k] for k in kwonly if k in kwdefaults} or None


def _calling_function(code: types.CodeType) -> Any:
    """The function whose code ``code`` is: a template-made wrapper, found
    among the collector's referrers of its code (its own), so that it keeps
    no reference to itself for the rare call that needs it."""
    import gc

    for referrer in gc.get_referrers(code):
        if type(referrer) is types.FunctionType and referrer.__code__ is code:
            return referrer
    raise SystemError("posonly: a wrapper's function was not found")  # pragma: no cover


def _stale(itself: Any, frame: Optional[Tuple[Any, ...]] = None) -> Any:
    """A call of a wrapper whose function's defaults have changed since it
    read them: the wrapper reads them again, and the call is made again from
    the arguments it was given (a value that is its parameter's default
    object counts as not given: on the first call after a change, an
    argument passed that is the former default object itself is taken for
    the new default).  Where the function has lost a default, every call
    comes here, and goes to a wrapper's function made for the defaults as they
    are (``remade``: the generated function, with the arguments a bound
    method or a partial puts first)."""
    if type(itself) is tuple:  # a template-made wrapper: what _stale needs of it
        caller = sys._getframe(1)
        reads_bits, marks, around, remade = itself
        generated = _calling_function(caller.f_code)
        code = generated.__code__
        n = code.co_argcount + code.co_kwonlyargcount
        n += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
        local = caller.f_locals
        frame = tuple([local[name] for name in parameter_names(code, n)])
        del caller, local
    else:
        generated = itself()
    code = generated.__code__
    reads = generated.__globals__.get(_READS)
    if reads is not None:  # a generated function with globals of its own
        source_name, seen, func_name, handler_name, around, in_partial, remade = reads
        function = generated.__globals__[source_name]
        func = generated.__globals__[func_name]
        handler = generated.__globals__[handler_name]
    else:
        function = func = code.co_consts[marks[2]]
        handler = code.co_consts[marks[3]]
    assert frame is not None
    positional, keywords = _given_arguments(
        code, generated.__defaults__, generated.__kwdefaults__, frame
    )
    complete = _read_defaults(generated, function)
    now = _seen_defaults(function) if complete else (_NEVER, _NEVER)
    # wrapper.layout: the values' layout, with the defaults now read.
    if reads is not None:
        generated.__globals__[seen] = now
        state = generated.__globals__
        current = _seen_defaults(function)
        if not _same_pair(state.get(_LAYOUT_OF), current):  # (once per change)
            state[_LAYOUT_OF] = current
            _set_layout(generated, _output_layout(func), in_partial)
    else:
        generated.__dict__["layout"] = _layout_as_made(function)
        consts = list(code.co_consts)
        for index, seen_now in zip(marks, now):
            if index >= 0:
                consts[index] = seen_now
        generated.__code__ = code.replace(co_consts=tuple(consts))
    if complete:
        return generated(*positional, **keywords)
    current = _seen_defaults(function)
    fresh = _FRESH.get(generated)
    if fresh is None or _defaults_changed(function, (fresh[0], fresh[1])):
        made = remade(func, None, handler) if around else remade(func, handler, None)
        fresh = (current[0], current[1], made)
        _FRESH[generated] = fresh
    return fresh[2](*positional, **keywords)
