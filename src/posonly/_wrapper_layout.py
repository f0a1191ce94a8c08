"""A pure wrapper's ``layout``: the layout of the values its handler gets.

A wrapper of a plain function reads it from the function when it is first
asked for (``_LayoutAsMade``: only some handlers read it, and making a
wrapper is on the clock); a wrapper whose function's defaults were replaced
gets the layout read again (``_set_layout``, from ``_wrapper_stale``).
"""

from __future__ import annotations

import functools
from typing import Any, List, Tuple

from ._plan import Plan
from ._create import parameter_names
from ._layout import Layout, _name_of_function, resolve

class _LayoutAsMade(Layout):
    """``Layout.from_callable(func)`` for a plain function as it was when
    made, read when first asked for (a wrapper's layout, which only some
    handlers read, costs nothing until then): the ``defaults`` slot holds
    the function's ``__defaults__`` tuple and the ``_kwdefaults`` slot its
    keyword-only defaults as they were, as a Layout holds them (unset where
    there are none), until the other fields are read; it then becomes a
    Layout."""

    __slots__ = ()

    def __getattr__(self, attr: str) -> Any:
        # Called for a slot not set: the fields, read now.
        if attr in _SNAPSHOT_READS:
            _resolve_layout(self)
            return object.__getattribute__(self, attr)
        raise AttributeError(f"'Layout' object has no attribute {attr!r}")

    @property
    def kwdefaults(self) -> Any:
        _resolve_layout(self)
        return self.kwdefaults


_SNAPSHOT_READS = frozenset((
    "name", "posonly", "positional", "varargs", "kwonly", "varkw", "defaults", "_kwdefaults",
    "names", "_hash", "_access",
))


def _layout_as_made(func: Any) -> Layout:
    """A layout of the plain function ``func`` with its defaults as they are
    now, whatever they are when the layout is first read: the keyword-only
    ones are copied (a dict changed in place changes the calls, not the
    layout, as for the compiled wrapper's binder)."""
    self = object.__new__(_LayoutAsMade)
    set_ = object.__setattr__
    set_(self, "_function", func)
    defaults, kwdefaults = func.__defaults__, func.__kwdefaults__
    if defaults is not None:
        set_(self, "defaults", defaults)
    if kwdefaults:
        code = func.__code__
        argcount = code.co_argcount
        kwonly = parameter_names(code, argcount + code.co_kwonlyargcount)[argcount:]
        set_(self, "_kwdefaults", tuple([(k, kwdefaults[k]) for k in kwonly if k in kwdefaults]))
    return self


def _resolve_layout(layout: Any) -> None:
    get = object.__getattribute__
    if type(layout) is not _LayoutAsMade:
        return
    func = get(layout, "_function")
    try:
        defaults = get(layout, "defaults")
    except AttributeError:
        defaults = None
    try:
        kwdefaults = dict(get(layout, "_kwdefaults"))
    except AttributeError:
        kwdefaults = None
    code = func.__code__
    argcount = code.co_argcount
    total = argcount + code.co_kwonlyargcount
    index = total + bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
    names = parameter_names(code, index)
    kwonly = names[argcount:total]
    made = Layout(
        name=_name_of_function(func), posonly=names[:code.co_posonlyargcount],
        positional=names[code.co_posonlyargcount:argcount],
        varargs=names[total] if code.co_flags & 0x04 else None,
        kwonly=kwonly, varkw=names[index - 1] if code.co_flags & 0x08 else None,
        defaults=defaults or (), kwdefaults=kwdefaults,
    )
    set_ = object.__setattr__
    for field in _SNAPSHOT_READS - {"_access"}:
        set_(layout, field, getattr(made, field))
    set_(layout, "__class__", Layout)


def _set_layout(owner: Any, layout: Layout, in_partial: bool) -> None:
    """``owner.layout`` made ``layout``: on a wrapper's generated function,
    and on the partial made around it (``in_partial``)."""
    owner.__dict__["layout"] = layout
    if in_partial:
        for referrer in _referrers(owner):
            if type(referrer) is functools.partial and referrer.func is owner:
                referrer.__dict__["layout"] = layout


_LAYOUT_OF = "__posonly_layout_of__"  # the defaults objects wrapper.layout has


def _same_pair(a: Any, b: Tuple[Any, Any]) -> bool:
    return a is not None and a[0] is b[0] and a[1] is b[1]


def _referrers(obj: Any) -> List[Any]:
    import gc

    return gc.get_referrers(obj)


def _output_layout(func: Any) -> Layout:
    """The layout of the values of a call of ``func`` as it is now."""
    call = resolve(func)
    return Plan(call.layout, call).output
