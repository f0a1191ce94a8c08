"""``function_signature``: inspect's signature of a plain Python function,
made as ``inspect._signature_from_function`` makes it (pure core).

The parameters are made without ``Parameter()``'s checks: a code object's
names are identifiers, and the few that are not are left to inspect.  What
a code says (its parameters' names, checked once to be identifiers and no
keywords, and their counts) is read once per code object met often, into
its *layout* (kept by ``_dropin_cache``): one code in ``LAYOUT_SAMPLE`` met
without a layout has its layout kept (a function whose signature is made
once pays a lookup for it).  The signature made is handed the plan of its
layout's pattern where the layout has one.
"""

from __future__ import annotations

import weakref as _weakref
from inspect import CO_VARARGS, CO_VARKEYWORDS
from types import MappingProxyType as _MappingProxy
from typing import Any, Dict, List

from . import _dropin_cache
from ._dropin_cache import (
    BY_MAPPING,
    LAYOUT_CODE,
    LAYOUT_KEYWORD_ONLY,
    LAYOUT_NAMES,
    LAYOUT_PLAN,
    LAYOUT_POSITIONAL,
    LAYOUT_POSONLY,
    LAYOUT_VAR_KEYWORD,
    LAYOUT_VAR_POSITIONAL,
    SAMPLE,
    keep_layout,
)
from ._dialect import (
    DIALECT,
    FUNCTION_TYPE,
    FUNCTION_TYPE_SIGNATURE_ATTRIBUTES,
    SIGNATURE_ATTRIBUTES,
    UNWRAPPED_SIGNATURE_ATTRIBUTES,
)
from ._dropin_plans import MAX_PLANNED, plan_for

__all__ = ["LAYOUT_SAMPLE", "function_signature"]

_Parameter = DIALECT.Parameter
_empty = DIALECT.empty
_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD, _VAR_POSITIONAL, _KEYWORD_ONLY, _VAR_KEYWORD = DIALECT.kinds
_SIGNATURE_INIT = DIALECT.signature_init
_KEYWORDS = DIALECT.keywords
_PARAMETERS_DICT = DIALECT.parameters_dict
_new = object.__new__
_CODE_TYPE: Any = type((lambda: None).__code__)
_OBJECT_NEW: Any = object.__new__
_layouts: Dict[int, List[Any]] = _dropin_cache.layouts
"""The cache's layouts (the same dict, never rebound), assigned rather than
imported by name: CPython (3.11 on) compiles a method call on a name an
import binds (``from __future__ import annotations`` too) as an attribute
load and a call, making a bound method each time."""

LAYOUT_SAMPLE = 4 * SAMPLE
"""One code object in this many of those met without a layout has its
layout kept (most are met once: a signature made at a decoration)."""
_layout_tick = LAYOUT_SAMPLE


def function_signature(cls: type, func: Any, follow_wrapped: Any = True) -> Any:
    """``cls.from_callable(func, follow_wrapped=follow_wrapped)`` for a plain
    Python function whose signature is what its code, defaults and
    annotations say (``__wrapped__`` aside where ``follow_wrapped`` is
    ``False``); ``None`` for anything else, and for ``cls`` other than a
    plain ``Signature`` class.

    The parameters are made as ``inspect._signature_from_function`` makes
    them, without ``Parameter()``'s checks: a code object's names are
    identifiers, and the few that are not are left to inspect.  What the
    code says is read once per code object (its layout); the
    signature made is handed its plan where its layout has one.
    """
    global _layout_tick
    # inspect's own test (a function, no signature of its own in its
    # __dict__ or type), inline: this is every signature's path.
    if type(func) is not FUNCTION_TYPE:
        return None
    attributes = func.__dict__
    if attributes or type(attributes) is not dict:
        refused = UNWRAPPED_SIGNATURE_ATTRIBUTES if follow_wrapped is False else SIGNATURE_ATTRIBUTES
        if not refused.isdisjoint(attributes):
            return None
    for name in FUNCTION_TYPE_SIGNATURE_ATTRIBUTES:
        if getattr(func, name, None):
            return None
    if cls.__init__ is not _SIGNATURE_INIT or cls.__new__ is not _OBJECT_NEW:  # type: ignore[misc]
        return None
    if cls._parameter_cls is not _Parameter:  # type: ignore[attr-defined]
        return None
    code = func.__code__
    layout: Any = _layouts.get(id(code))
    if layout is not None and layout[LAYOUT_CODE]() is code:
        names = layout[LAYOUT_NAMES]
        pos_count = layout[LAYOUT_POSITIONAL]
        posonly_count = layout[LAYOUT_POSONLY]
        keyword_only = layout[LAYOUT_KEYWORD_ONLY]
        var_positional = layout[LAYOUT_VAR_POSITIONAL]
        var_keyword = layout[LAYOUT_VAR_KEYWORD]
        planned = layout[LAYOUT_PLAN]
    else:
        # Read here (a code met once costs little more than this), and kept
        # as a layout for one code in LAYOUT_SAMPLE.
        if type(code) is not _CODE_TYPE:
            return None  # PyPy's functions of builtin code: inspect reads them
        pos_count = code.co_argcount
        kwonly_count = code.co_kwonlyargcount
        flags = code.co_flags
        index = pos_count + kwonly_count
        var_positional = var_keyword = -1
        if flags & CO_VARARGS:
            var_positional = index
            index += 1
        if flags & CO_VARKEYWORDS:
            var_keyword = index
            index += 1
        names = code.co_varnames[:index]
        for name in names:
            if not name.isidentifier() or name in _KEYWORDS:
                return None  # inspect's own Parameter() answers for it
        posonly_count = code.co_posonlyargcount
        keyword_only = names[pos_count : pos_count + kwonly_count]
        planned = None
        _layout_tick -= 1
        if _layout_tick <= 0:
            _layout_tick = LAYOUT_SAMPLE
            layout = keep_layout(code, names, posonly_count, pos_count, keyword_only,
                                  var_positional, var_keyword)
            if layout is not None:
                planned = layout[LAYOUT_PLAN]
    defaults = func.__defaults__ or ()
    if len(defaults) > pos_count:
        return None
    kwdefaults = func.__kwdefaults__
    try:
        # Not named ``annotations``, the future import's name: see _layouts.
        func_annotations = func.__annotations__
    except Exception:  # noqa: BLE001 - inspect raises it, or answers otherwise
        return None
    first_default = pos_count - len(defaults)
    params = _PARAMETERS_DICT()
    # Each Parameter is made inline, its four slots set: a helper function
    # per parameter would be a fifth of this function's time.
    for i in range(pos_count):
        name = names[i]
        param = _new(_Parameter)
        param._name = name
        param._kind = _POSITIONAL_ONLY if i < posonly_count else _POSITIONAL_OR_KEYWORD
        if i >= first_default:
            default = param._default = defaults[i - first_default]
            if default is _empty:
                planned = None  # a default that is no default: no plan
        else:
            param._default = _empty
        param._annotation = func_annotations.get(name, _empty)
        params[name] = param
    if var_positional >= 0:
        name = names[var_positional]
        param = _new(_Parameter)
        param._name = name
        param._kind = _VAR_POSITIONAL
        param._default = _empty
        param._annotation = func_annotations.get(name, _empty)
        params[name] = param
    # Which keyword-only parameters have defaults, one bit each: with the
    # count of positional defaults, the pattern a plan is made for.
    pattern = len(defaults)
    bit = pos_count + 1
    for name in keyword_only:
        param = _new(_Parameter)
        param._name = name
        param._kind = _KEYWORD_ONLY
        if kwdefaults is None:
            param._default = _empty
        else:
            default = param._default = kwdefaults.get(name, _empty)
            if default is not _empty:
                pattern += bit
        bit += bit
        param._annotation = func_annotations.get(name, _empty)
        params[name] = param
    if var_keyword >= 0:
        name = names[var_keyword]
        param = _new(_Parameter)
        param._name = name
        param._kind = _VAR_KEYWORD
        param._default = _empty
        param._annotation = func_annotations.get(name, _empty)
        params[name] = param
    sig: Any = _new(cls)
    proxy = sig._parameters = _MappingProxy(params)
    sig._return_annotation = func_annotations.get("return", _empty)
    if planned is not None:
        if planned[0] == pattern:
            plan = planned[1]
            if plan is None:
                # The second signature of this pattern: its plan is made.
                plan = plan_for(proxy) if len(params) <= MAX_PLANNED else False
                layout[LAYOUT_PLAN] = (pattern, plan)
            if plan:
                _dropin_cache.handed = (id(proxy), _weakref.ref(params if BY_MAPPING else sig), plan)
        else:
            layout[LAYOUT_PLAN] = (pattern, None)
    return sig
