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
  Python function, or ``None`` where ``inspect`` must answer.

Anything these cannot read as ``inspect`` itself would (a ``Signature``
subclass overriding ``_bind`` or ``parameters``, a ``Parameter`` subclass)
is handed to ``inspect``'s own code.
"""

from __future__ import annotations

import gc as _gc
import sys as _sys
import threading as _threading
import weakref as _weakref
from types import FunctionType as _FunctionType
from types import MappingProxyType as _MappingProxy
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ._dropin_common import (
    DIALECT,
    FUNCTION_TYPE,
    FUNCTION_TYPE_SIGNATURE_ATTRIBUTES,
    POSONLY_KEYWORD_REFUSED,
    POSONLY_KEYWORD_REQUIRED_MISSING,
    SIGNATURE_ATTRIBUTES,
    UNWRAPPED_SIGNATURE_ATTRIBUTES,
)

__all__ = ["apply_defaults", "bind_signature", "bound_args", "bound_kwargs", "function_signature",
           "get_observer", "set_maxsize", "set_observer"]

_Parameter = DIALECT.Parameter
_BoundArguments = DIALECT.BoundArguments
_empty = DIALECT.empty
_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD, _VAR_POSITIONAL, _KEYWORD_ONLY, _VAR_KEYWORD = DIALECT.kinds
_PRIVATE_BIND = DIALECT.private_bind
_PARAMETERS = DIALECT.parameters_property
_SIGNATURE_INIT = DIALECT.signature_init
_KWONLY_MISSING_MESSAGE = DIALECT.kwonly_missing_message
_POSONLY_KEYWORD = DIALECT.posonly_keyword
_POSONLY_MISSING_IN_HANDLER = DIALECT.posonly_missing_in_handler
_KEYWORDS = DIALECT.keywords
_PARAMETERS_DICT = DIALECT.parameters_dict
_INSPECT_ARGS = _BoundArguments.args.fget
_INSPECT_KWARGS = _BoundArguments.kwargs.fget
_INSPECT_APPLY_DEFAULTS = _BoundArguments.apply_defaults
_new = object.__new__
_OBJECT_NEW: Any = object.__new__
_NOT_GIVEN = object()
_PLAIN_TYPES = frozenset([_Parameter])  # parameters whose slots are read

_observer: Any = None
"""The observer the pure entry points (``_inspect``'s functions) report to,
or None (see ``_dropin_common``)."""


def set_observer(observer: Any) -> None:
    """Report each call of a patched entry point as ``observer(entry,
    reason)`` (see ``_dropin_common``); None: report nothing."""
    global _observer
    if observer is not None and not callable(observer):
        raise TypeError("observer must be callable or None")
    _observer = observer


def get_observer() -> Any:
    """The observer set, or None."""
    return _observer


def _refusal(message: str, suppress_context: bool) -> TypeError:
    """The TypeError inspect raises with ``message`` (``from None`` where
    ``suppress_context``), to be raised by the caller."""
    error = TypeError(message)
    if suppress_context:
        error.__suppress_context__ = True
    return error


def _posonly_missing(name: str) -> TypeError:
    """inspect's "missing a required positional-only argument" for ``name``,
    with the context inspect's has where it raises it while handling a
    ``StopIteration`` (the caller raises it there: see ``_inspect._pure_bind``)."""
    error = _refusal(f"missing a required positional-only argument: {name!r}", False)
    if _POSONLY_MISSING_IN_HANDLER:
        error.__context__ = StopIteration()
    return error


def _bind_generic(sig: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any], partial: bool) -> Any:
    """``bind_signature`` without a plan, for a signature of a plain class."""
    parameters = tuple(sig._parameters.values())
    if not _PLAIN_TYPES.issuperset(map(type, parameters)):
        return _PRIVATE_BIND(sig, args, kwargs, partial=partial)

    # The steps of inspect's Signature._bind, with the same checks in the
    # same order; only its iterators became indices.
    arguments: Dict[str, Any] = {}
    count = len(parameters)
    nargs = len(args)
    index = 0  # the next parameter
    start = -1  # the parameter the keyword phase starts from (parameters_ex)
    posonly_in_kwargs = []
    i = 0
    while True:
        if i == nargs:
            # No more positional arguments.
            if index == count:
                break
            param = parameters[index]
            index += 1
            kind = param._kind
            name = param._name
            if kind is _VAR_POSITIONAL:
                break
            elif name in kwargs:
                if kind is _POSITIONAL_ONLY:
                    if _POSONLY_KEYWORD == POSONLY_KEYWORD_REFUSED:
                        return _refusal(
                            f"{name!r} parameter is positional only, but was passed as a keyword", True)
                    if _POSONLY_KEYWORD == POSONLY_KEYWORD_REQUIRED_MISSING and param._default is _empty:
                        return _posonly_missing(name)
                    posonly_in_kwargs.append(name)
                    continue
                start = index - 1
                break
            elif kind is _VAR_KEYWORD or param._default is not _empty:
                start = index - 1
                break
            elif partial:
                start = index - 1
                break
            else:
                argtype = " keyword-only" if _KWONLY_MISSING_MESSAGE and kind is _KEYWORD_ONLY else ""
                return _refusal(f"missing a required{argtype} argument: {name!r}", True)
        else:
            # A positional argument to place.
            if index == count:
                return _refusal("too many positional arguments", True)
            param = parameters[index]
            index += 1
            kind = param._kind
            if kind is _VAR_KEYWORD or kind is _KEYWORD_ONLY:
                return _refusal("too many positional arguments", True)
            name = param._name
            if kind is _VAR_POSITIONAL:
                # args is the caller's own new tuple, as inspect's would be.
                arguments[name] = args[i:] if i else args
                break
            if kind is not _POSITIONAL_ONLY and name in kwargs:
                return _refusal(f"multiple values for argument {name!r}", True)
            arguments[name] = args[i]
            i += 1

    # The keyword phase, from the parameter the positionals stopped at.
    kwargs_name = None
    for param in parameters[start if start >= 0 else index:]:
        kind = param._kind
        if kind is _VAR_KEYWORD:
            kwargs_name = param._name
            continue
        if kind is _VAR_POSITIONAL:
            continue
        name = param._name
        value = kwargs.pop(name, _NOT_GIVEN)
        if value is not _NOT_GIVEN:
            if _POSONLY_KEYWORD == POSONLY_KEYWORD_REFUSED and kind is _POSITIONAL_ONLY:
                return _refusal(f"{name!r} parameter is positional only, but was passed as a keyword", False)
            arguments[name] = value
        elif not partial and param._default is _empty:
            return _refusal(f"missing a required argument: {name!r}", True)

    if kwargs:
        if kwargs_name is not None:
            arguments[kwargs_name] = kwargs
        elif posonly_in_kwargs:
            return _refusal(
                "got some positional-only arguments passed as keyword arguments: "
                f"{', '.join(posonly_in_kwargs)!r}", False)
        else:
            return _refusal(f"got an unexpected keyword argument {next(iter(kwargs))!r}", False)

    bound_class = sig._bound_arguments_cls
    if bound_class is _BoundArguments:
        bound: Any = _new(_BoundArguments)
        bound.arguments = arguments
        bound._signature = sig
        return bound
    return bound_class(sig, arguments)


def _parameters_of(bound: Any) -> Optional[Iterable[Any]]:
    """The parameters of a plain BoundArguments' plain signature, or None."""
    if type(bound) is not _BoundArguments:
        return None
    sig = bound._signature
    if type(sig).parameters is not _PARAMETERS or type(bound.arguments) is not dict:
        return None
    parameters = sig._parameters.values()
    if not _PLAIN_TYPES.issuperset(map(type, parameters)):
        return None
    return parameters  # type: ignore[no-any-return]


def _args_generic(bound: Any) -> Tuple[Any, ...]:
    """``BoundArguments.args`` without a plan."""
    parameters = _parameters_of(bound)
    if parameters is None:
        return _INSPECT_ARGS(bound)  # type: ignore[no-any-return]
    arguments = bound.arguments
    args: List[Any] = []
    for param in parameters:
        kind = param._kind
        if kind is _VAR_KEYWORD or kind is _KEYWORD_ONLY:
            break
        name = param._name
        if name not in arguments:
            break
        if kind is _VAR_POSITIONAL:
            args.extend(arguments[name])
        else:
            args.append(arguments[name])
    return tuple(args)


def _kwargs_generic(bound: Any) -> Dict[str, Any]:
    """``BoundArguments.kwargs`` without a plan."""
    parameters = _parameters_of(bound)
    if parameters is None:
        return _INSPECT_KWARGS(bound)  # type: ignore[no-any-return]
    arguments = bound.arguments
    kwargs: Dict[str, Any] = {}
    started = False
    for param in parameters:
        kind = param._kind
        name = param._name
        if not started:
            if kind is _VAR_KEYWORD or kind is _KEYWORD_ONLY:
                started = True
            else:
                if name not in arguments:
                    started = True
                continue
        if name in arguments:
            if kind is _VAR_KEYWORD:
                kwargs.update(arguments[name])
            else:
                kwargs[name] = arguments[name]
    return kwargs


def _apply_defaults_generic(bound: Any) -> None:
    """``BoundArguments.apply_defaults()`` without a plan."""
    parameters = _parameters_of(bound)
    if parameters is None:
        _INSPECT_APPLY_DEFAULTS(bound)
        return
    arguments = bound.arguments
    new_arguments = {}
    for param in parameters:
        name = param._name
        if name in arguments:
            new_arguments[name] = arguments[name]
        elif param._default is not _empty:
            new_arguments[name] = param._default
        elif param._kind is _VAR_POSITIONAL:
            new_arguments[name] = ()
        elif param._kind is _VAR_KEYWORD:
            new_arguments[name] = {}
    bound.arguments = new_arguments


# -- plans ---------------------------------------------------------------------
#
# A signature bound again and again gets a *plan*: five small functions made
# for its parameters (bind, bind_partial, args, kwargs, apply_defaults), with
# its names as constants and no loop over its parameters.  The code is made
# once per *shape* (the parameters' kinds and which have defaults), and each
# signature's plan is that shape's code with the names put in its constants
# (``code.replace``), without compiling anything.  A plan binds the calls it
# can bind without a doubt; for anything else (errors above all) it answers
# ``_FALLBACK`` and the generic code above answers, with inspect's message.
#
# Plans are kept by ``id(sig._parameters)`` with a weak reference that is
# alive exactly while that id is still that mapping's: on CPython to the
# dict under the mappingproxy (the proxy itself takes no weak references;
# the dict is owned by the proxy alone, as checked when the reference is
# made, so it dies with it), elsewhere to the signature, which owns the
# proxy.  When it dies its entry goes with it.  A plan holds names only: no
# signature, parameter, default or function.
#
# A bind of a signature without an entry costs one dict lookup (and one in
# ``_SAMPLE`` notes the signature, with a weak reference, so that a
# recycled id is never taken for it); a noted signature's next bind makes
# its entry, and the one after that its plan.  Entries are evicted by the
# clock (second chance): at most ``maxsize`` of them, and at most as many
# notes.
#
# A signature made afresh for each call (``inspect.signature(f).bind(...)``)
# would never get an entry.  ``function_signature`` reads what a code object
# says (its parameters' names, checked once to be identifiers and no
# keywords, and their counts) once, into the code's *layout*.  One code in
# ``_LAYOUT_SAMPLE`` met without a layout has its layout kept (a function
# whose signature is made once pays a lookup for it), by ``id(code)`` under a
# weak reference to the code (no callback: a layout whose code is gone is
# replaced when its id is met again), at most ``maxsize`` of them, all
# dropped when full.  A layout also keeps the plan of its latest *pattern*
# (how many positional defaults, which keyword-only parameters have one),
# made the second time that pattern is seen; the signature made is *handed*
# it: ``_handed`` holds the mapping's id, a weak reference that lives exactly
# while that id is the mapping's (as an entry's) and the plan, and the
# signature's bind finds it there without a lookup.  A layout holds names and
# counts, a plan names: no code object, function, signature or default.

_FALLBACK = object()
_MAX_PLANNED = 24  # more parameters than this bind generically
_maxsize = 4096
_entries: Dict[int, List[Any]] = {}
"""id(sig._parameters) -> [weak reference, plan, used, slot]: plan is None
until made, False where none can be; slot is the clock's, -1 for a note."""
_ring: List[Any] = []
"""The clock's slots: the keys of the entries (None where freed)."""
_hand = 0
_notes = 0
"""How many notes were made since the last sweep of them."""
_SAMPLE = 8 if _sys.implementation.name == "cpython" else 64
"""One bind in this many of signatures without an entry is noted (on PyPy
a weak reference with a callback costs more, and its JIT warms up over
many more binds anyway)."""
_tick = _SAMPLE
_LAYOUT_SAMPLE = 4 * _SAMPLE
"""One code object in this many of those met without a layout has its
layout kept (most are met once: a signature made at a decoration)."""
_layout_tick = _LAYOUT_SAMPLE
_templates: Dict[Tuple[Any, ...], Tuple[Any, ...]] = {}
_MAX_TEMPLATES = 512
_lock = _threading.Lock()

_layouts: Dict[int, List[Any]] = {}
"""id(code) -> its layout: what ``function_signature`` reads from a code
object, read once (see "layouts" below)."""
_handed: Any = None
"""(id(sig._parameters), weak reference, plan) of the signature made last
by ``function_signature`` with a plan, or None."""

_ENTRY_REF, _ENTRY_PLAN, _ENTRY_USED, _ENTRY_SLOT = range(4)
(_LAYOUT_CODE, _LAYOUT_NAMES, _LAYOUT_POSONLY, _LAYOUT_POSITIONAL, _LAYOUT_KEYWORD_ONLY,
 _LAYOUT_VAR_POSITIONAL, _LAYOUT_VAR_KEYWORD, _LAYOUT_PLAN) = range(8)
_KIND_INDEX = {kind: i for i, kind in enumerate(DIALECT.kinds)}
_PO, _PK, _VP, _KO, _VK = range(5)

def _mapping_of(proxy: Any) -> Tuple[Any, int]:
    """The dict under a mappingproxy, and its reference count as seen from
    here (what it is for a dict owned by the proxy alone is measured below,
    with this same function: the count differs between versions)."""
    referents = _gc.get_referents(proxy)
    if len(referents) != 1 or type(referents[0]) is not _PARAMETERS_DICT:
        return None, -1
    mapping = referents[0]
    del referents
    return mapping, _sys.getrefcount(mapping)


try:
    _probe, _OWNED = _mapping_of(_MappingProxy(_PARAMETERS_DICT()))
    _BY_MAPPING = (
        _sys.implementation.name == "cpython"
        and _probe is not None
        and _weakref.ref(_probe) is not None
    )
    del _probe
except Exception:  # noqa: BLE001 - then by the signature
    _BY_MAPPING = False


def _signatures_take_weak_references() -> bool:
    try:
        _weakref.ref(_new(DIALECT.Signature))
    except TypeError:
        return False
    return True


_HANDING = _BY_MAPPING or _signatures_take_weak_references()
"""Whether ``function_signature`` can hand a signature its plan: it needs a
weak reference to the signature's mapping (or, elsewhere, to the
signature)."""


class _Ref(_weakref.ref):  # type: ignore[type-arg]
    """A weak reference that knows its entry's key (set after it is made:
    ``weakref.KeyedRef``'s Python ``__init__`` costs five times as much)."""

    __slots__ = ("key",)
    key: int


def _keyed(target: Any, key: int) -> Any:
    ref = _Ref(target, _dead)
    ref.key = key
    return ref


def _dead(ref: Any) -> None:
    """The mapping of an entry is gone: so is the entry (and its plan).
    Only a dict operation, safe wherever the collector runs it."""
    entry = _entries.get(ref.key)
    if entry is not None and entry[_ENTRY_REF] is ref:
        _entries.pop(ref.key, None)


def _owner(sig: Any, proxy: Any) -> Any:
    """What stays alive exactly while ``proxy`` is the mapping a plan is
    made for (on CPython the dict under it, owned by it alone), or None."""
    if _BY_MAPPING:
        if type(proxy) is not _MappingProxy:
            return None
        mapping, count = _mapping_of(proxy)
        # Owned by the proxy alone, as the probe's.
        return mapping if count == _OWNED else None
    return sig


def set_maxsize(maxsize: int) -> None:
    """Keep plans for at most ``maxsize`` signatures (0: none, and nothing
    noted) and layouts for at most ``maxsize`` code objects; the entries
    beyond are dropped now."""
    global _maxsize, _handed
    if not isinstance(maxsize, int) or isinstance(maxsize, bool):
        raise TypeError(f"maxsize must be an int, not {type(maxsize).__name__}")
    if maxsize < 0:
        raise ValueError(f"maxsize must be at least 0, not {maxsize}")
    with _lock:
        _maxsize = maxsize
        if len(_ring) > maxsize:
            _clear()
        else:
            _sweep_notes()
        if len(_layouts) > maxsize:
            _layouts.clear()
        if not maxsize:
            _handed = None


def cache_info() -> Dict[str, int]:
    """What the cache holds now: entries, plans among them, notes, layouts
    of code objects, maxsize."""
    values = list(_entries.values())
    entries = [e for e in values if e[_ENTRY_SLOT] >= 0]
    return {"entries": len(entries), "plans": sum(1 for e in entries if e[_ENTRY_PLAN]),
            "notes": len(values) - len(entries), "layouts": len(_layouts), "maxsize": _maxsize}


def clear_cache() -> None:
    """Drop every entry, plan, note and layout."""
    with _lock:
        _clear()


def _clear() -> None:
    global _hand, _notes, _handed
    _entries.clear()
    _ring.clear()
    _hand = 0
    _notes = 0
    _layouts.clear()
    _handed = None


def _sweep_notes() -> None:
    global _notes
    for key in [k for k, e in list(_entries.items()) if e[_ENTRY_SLOT] < 0]:
        _entries.pop(key, None)
    _notes = 0


def _insert(key: int, entry: List[Any]) -> None:
    """Put ``entry`` under ``key``, evicting by the clock when full."""
    global _hand
    with _lock:
        size = _maxsize
        if size == 0:
            return
        ring = _ring
        entries = _entries
        if len(ring) < size:
            entry[_ENTRY_SLOT] = len(ring)
            ring.append(key)
        else:
            hand = _hand
            while True:
                if hand >= len(ring):
                    hand = 0
                old_key = ring[hand]
                old = entries.get(old_key) if old_key is not None else None
                if old is None or old[_ENTRY_SLOT] != hand:
                    break  # a free slot (its entry died, or moved)
                if old[_ENTRY_USED]:
                    old[_ENTRY_USED] = False
                    hand += 1
                    continue
                entries.pop(old_key, None)
                break
            ring[hand] = key
            entry[_ENTRY_SLOT] = hand
            _hand = hand + 1
        entries[key] = entry


def _note(sig: Any, proxy: Any, key: int) -> None:
    """Note a signature bound without an entry (one bind in ``_SAMPLE``)."""
    global _tick, _notes
    _tick = _SAMPLE
    if not _maxsize:
        return
    target = _owner(sig, proxy)
    if target is None:
        return  # nothing would tell a recycled id: the generic way
    try:
        ref = _keyed(target, key)
    except TypeError:
        return  # takes no weak reference
    if _notes >= _maxsize:
        with _lock:
            _sweep_notes()
    _notes += 1
    _entries[key] = [ref, None, False, -1]


def _advance(sig: Any, proxy: Any, key: int, entry: List[Any]) -> None:
    """A bind of a signature with a note or an entry but no plan yet: the
    note becomes an entry, the entry gets its plan."""
    target = entry[_ENTRY_REF]()
    if target is None:
        # The id was recycled: the note (or the entry, whose callback has
        # not run yet) is another signature's.
        if _entries.get(key) is entry:
            _entries.pop(key, None)
        return
    if entry[_ENTRY_SLOT] < 0:
        # The note, whose weak reference is the entry's, takes a slot.
        entry[_ENTRY_PLAN] = None if _plannable(proxy) else False
        _insert(key, entry)
    elif entry[_ENTRY_PLAN] is None:
        entry[_ENTRY_PLAN] = _plan_for(proxy)


def _plannable(proxy: Any) -> bool:
    """Whether a plan can bind for these parameters: plain ones, at most
    ``_MAX_PLANNED``, each under its own name, their kinds in order, one of
    each variadic at most."""
    if len(proxy) > _MAX_PLANNED:
        return False
    last = -1
    for name, param in proxy.items():
        if type(param) is not _Parameter or type(name) is not str or name != param._name:
            return False
        kind = _KIND_INDEX.get(param._kind)
        if kind is None or kind < last or (kind == last and kind in (_VP, _VK)):
            return False
        last = kind
    return True


def _shape(proxy: Any) -> Tuple[Any, ...]:
    return tuple((_KIND_INDEX[p._kind], p._default is not _empty) for p in proxy.values())


def _plan_for(proxy: Any) -> Any:
    """The plan of the signature whose parameters are ``proxy``."""
    shape = _shape(proxy)
    template = _templates.get(shape)
    if template is None:
        if len(_templates) >= _MAX_TEMPLATES:
            _templates.clear()
        template = _templates[shape] = _make_template(shape)
    names = {}
    for i, name in enumerate(proxy):
        names[f"\x00{i}"] = name
        names[f"\x00m{i}"] = f"missing a required argument: {name!r}"
        names[f"\x00k{i}"] = f"missing a required keyword-only argument: {name!r}"
    return tuple(_FunctionType(_with_names(code, names), _PLAN_GLOBALS) for code in template)


def _with_names(code: Any, names: Dict[str, str]) -> Any:
    return code.replace(co_consts=tuple(_put_names(c, names) for c in code.co_consts))


def _put_names(const: Any, names: Dict[str, str]) -> Any:
    if type(const) is str:
        return names.get(const, const)
    if type(const) is tuple:
        return tuple(_put_names(c, names) for c in const)
    if type(const) is frozenset:
        return frozenset(_put_names(c, names) for c in const)
    return const


_PLAN_GLOBALS: Dict[str, Any] = {"_FALLBACK": _FALLBACK, "_refusal": _refusal, "__builtins__": {
    "len": len, "tuple": tuple}}


def _make_template(shape: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """The code objects of the plan for ``shape``, with the placeholder
    ``"\\x00<i>"`` for the name of parameter ``i``."""
    namespace: Dict[str, Any] = {}
    source = "\n".join([_bind_source(shape, False), _bind_source(shape, True),
                        _args_source(shape), _kwargs_source(shape),
                        _apply_defaults_source(shape)])
    exec(compile(source, "<posonly plan>", "exec"), dict(_PLAN_GLOBALS), namespace)
    return tuple(namespace[name].__code__ for name in
                 ("bind", "bind_partial", "args", "kwargs", "apply_defaults"))


def _n(i: object) -> str:
    return repr(f"\x00{i}")


def _bind_source(shape: Tuple[Any, ...], partial: bool) -> str:
    positional = [i for i, (k, _) in enumerate(shape) if k in (_PO, _PK)]
    var_positional = next((i for i, (k, _) in enumerate(shape) if k == _VP), None)
    keyword_only = [i for i, (k, _) in enumerate(shape) if k == _KO]
    var_keyword = next((i for i, (k, _) in enumerate(shape) if k == _VK), None)
    count = len(positional)
    lines = [f"def {'bind_partial' if partial else 'bind'}(args, kwargs):", "    n = len(args)"]

    def given(n: int) -> List[str]:
        items = [f"{_n(positional[j])}: args[{j}]" for j in range(min(n, count))]
        if n > count:
            items.append(f"{_n(var_positional)}: args[{count}:]")
        return items

    def rest(n: int) -> List[int]:
        return [positional[j] for j in range(n, count)] + keyword_only

    counts = list(range(count, -1, -1))

    def missing(n: int, i: int) -> str:
        # inspect's message for parameter i, the first one missing: the
        # parameter right after the positionals is checked while they are
        # placed (with its own message for a keyword-only one, on some
        # versions), the others after them.
        while_placing = rest(n)[0] == i and (n < count or var_positional is None)
        if while_placing and _KWONLY_MISSING_MESSAGE and shape[i][0] == _KO:
            return f"_refusal({_n(f'k{i}')}, True)"
        return f"_refusal({_n(f'm{i}')}, True)"

    def first_missing(n: int, keywords: bool) -> Optional[int]:
        if partial:
            return None
        return next((i for i in rest(n) if not shape[i][1]
                     and not (keywords and shape[i][0] != _PO)), None)

    # Without keywords: the outcome is known for each count of positionals.
    lines.append("    if not kwargs:")
    if var_positional is not None:
        lines.append(f"        if n > {count}:")
        i = first_missing(count + 1, False)
        if i is None:
            lines.append(f"            return {{{', '.join(given(count + 1))}}}")
        else:
            lines.append(f"            return {missing(count + 1, i)}")
    for n in counts:
        lines.append(f"        if n == {n}:")
        i = first_missing(n, False)
        if i is None:
            lines.append(f"            return {{{', '.join(given(n))}}}")
        else:
            lines.append(f"            return {missing(n, i)}")
    lines.append('        return _refusal("too many positional arguments", True)')
    # With keywords.
    cases = [(n, f"n == {n}") for n in counts]
    if var_positional is not None:
        cases.insert(0, (count + 1, f"n > {count}"))
    for n, test in cases:
        if not partial and any(shape[i][0] == _PO and not shape[i][1] for i in rest(n)):
            continue  # a positional-only parameter missing: inspect's way
        lines.append(f"    if {test}:")
        # A keyword naming a parameter given by position (but positional-only
        # ones, which may go to **kwargs), or naming a positional-only one
        # not given: inspect's way.
        clash = [positional[j] for j in range(min(n, count)) if shape[positional[j]][0] == _PK]
        clash += [positional[j] for j in range(n, count) if shape[positional[j]][0] == _PO]
        if clash:
            lines.append(f"        if {' or '.join(f'{_n(i)} in kwargs' for i in clash)}:")
            lines.append("            return _FALLBACK")
        lines.append(f"        bound = {{{', '.join(given(n))}}}")
        keywords = [i for i in rest(n) if shape[i][0] != _PO]
        for i in keywords:
            lines.append(f"        if {_n(i)} in kwargs:")
            lines.append(f"            bound[{_n(i)}] = kwargs[{_n(i)}]")
            if not partial and not shape[i][1]:
                lines.append("        else:")
                lines.append(f"            return {missing(n, i)}")
        taken = f"len(bound) - {min(n, count + 1)}"
        lines.append(f"        if {taken} != len(kwargs):")
        if var_keyword is None:
            lines.append("            return _FALLBACK")
        else:
            for i in keywords:
                lines.append(f"            kwargs.pop({_n(i)}, None)")
            lines.append(f"            bound[{_n(var_keyword)}] = kwargs")
        lines.append("        return bound")
    lines.append("    return _FALLBACK")
    return "\n".join(lines) + "\n"


def _args_source(shape: Tuple[Any, ...]) -> str:
    # The parameters args reads: up to the first keyword-only or **kwargs.
    order = []
    for i, (kind, _) in enumerate(shape):
        if kind in (_KO, _VK):
            break
        order.append(i)
    lines = ["def args(a):"]

    def values(upto: List[int]) -> str:
        # *args last, as list.extend takes it (and with its message).
        plain = "(" + "".join(f"a[{_n(i)}], " for i in upto if shape[i][0] != _VP) + ")"
        if upto and shape[upto[-1]][0] == _VP:
            return f"{plain} + tuple(a[{_n(upto[-1])}])"
        return plain

    # The first one not given ends it.
    for j in range(len(order)):
        lines.append(f"    if {_n(order[j])} not in a:")
        lines.append(f"        return {values(order[:j])}")
    lines.append(f"    return {values(order)}")
    return "\n".join(lines) + "\n"


def _kwargs_source(shape: Tuple[Any, ...]) -> str:
    lines = ["def kwargs(a):"]

    def tail(start: int, indent: str) -> None:
        # From parameter ``start`` on, everything given is a keyword.
        lines.append(f"{indent}k = {{}}")
        for i in range(start, len(shape)):
            if shape[i][0] == _VK:
                lines.append(f"{indent}if {_n(i)} in a:")
                lines.append(f"{indent}    k.update(a[{_n(i)}])")
            else:
                lines.append(f"{indent}if {_n(i)} in a:")
                lines.append(f"{indent}    k[{_n(i)}] = a[{_n(i)}]")
        lines.append(f"{indent}return k")

    for i, (kind, _) in enumerate(shape):
        if kind in (_KO, _VK):
            tail(i, "    ")
            break
        lines.append(f"    if {_n(i)} not in a:")
        tail(i + 1, "        ")
    else:
        lines.append("    return {}")
    return "\n".join(lines) + "\n"


def _apply_defaults_source(shape: Tuple[Any, ...]) -> str:
    lines = ["def apply_defaults(a, parameters):"]
    required = [i for i, (kind, has_default) in enumerate(shape)
                if not has_default and kind not in (_VP, _VK)]

    def fill(i: int) -> str:
        # The value of parameter i, given or its default.
        kind, has_default = shape[i]
        if has_default:
            return f"a[{_n(i)}] if {_n(i)} in a else parameters[{_n(i)}]._default"
        if kind == _VP:
            return f"a[{_n(i)}] if {_n(i)} in a else ()"
        if kind == _VK:
            return f"a[{_n(i)}] if {_n(i)} in a else {{}}"
        return f"a[{_n(i)}]"

    # Every required parameter given (as after bind): one display.
    if required:
        lines.append(f"    if {' and '.join(f'{_n(i)} in a' for i in required)}:")
        lines.append(f"        return {{{', '.join(f'{_n(i)}: {fill(i)}' for i in range(len(shape)))}}}")
    else:
        lines.append(f"    return {{{', '.join(f'{_n(i)}: {fill(i)}' for i in range(len(shape)))}}}")
        return "\n".join(lines) + "\n"
    lines.append("    d = {}")
    for i, (kind, has_default) in enumerate(shape):
        if i in required:
            lines.append(f"    if {_n(i)} in a:")
            lines.append(f"        d[{_n(i)}] = a[{_n(i)}]")
        else:
            lines.append(f"    d[{_n(i)}] = {fill(i)}")
    lines.append("    return d")
    return "\n".join(lines) + "\n"


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
    plan = _handed_plan(sig, key)
    if plan is None:
        entry = _entries.get(key)
        if entry is None:
            _tick -= 1
            if _tick <= 0:
                _note(sig, proxy, key)
        else:
            plan = entry[_ENTRY_PLAN]
            if plan and entry[_ENTRY_REF]() is not None:
                entry[_ENTRY_USED] = True
            else:
                if plan is not False:
                    _advance(sig, proxy, key, entry)
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
        if arguments is not _FALLBACK:
            return arguments  # inspect's TypeError
    return _bind_generic(sig, args, kwargs, partial)


def _handed_plan(sig: Any, key: int) -> Any:
    """The plan handed to ``sig`` (whose mapping's id is ``key``) if it is
    the signature made last by ``function_signature``, else None: it serves
    the signature's ``.args``, ``.kwargs`` and ``apply_defaults()`` as it
    serves its binds, which then make it no entry.  The weak reference is to
    what lives exactly while the id is its mapping's (see ``_owner``)."""
    handed = _handed
    if handed is not None and handed[0] == key:
        target = handed[1]()
        if target is sig or (_BY_MAPPING and target is not None):
            return handed[2]
    return None


def bound_args(bound: Any) -> Tuple[Any, ...]:
    """``BoundArguments.args``."""
    if type(bound) is _BoundArguments:
        sig = bound._signature
        if type(sig).parameters is _PARAMETERS:
            key = id(sig._parameters)
            entry = _entries.get(key)
            if entry is not None:
                plan = entry[_ENTRY_PLAN]
                arguments = bound.arguments
                if plan and type(arguments) is dict and entry[_ENTRY_REF]() is not None:
                    entry[_ENTRY_USED] = True
                    return plan[2](arguments)  # type: ignore[no-any-return]
            else:
                plan = _handed_plan(sig, key)
                arguments = bound.arguments
                if plan is not None and type(arguments) is dict:
                    return plan[2](arguments)  # type: ignore[no-any-return]
    return _args_generic(bound)


def bound_kwargs(bound: Any) -> Dict[str, Any]:
    """``BoundArguments.kwargs``."""
    if type(bound) is _BoundArguments:
        sig = bound._signature
        if type(sig).parameters is _PARAMETERS:
            key = id(sig._parameters)
            entry = _entries.get(key)
            if entry is not None:
                plan = entry[_ENTRY_PLAN]
                arguments = bound.arguments
                if plan and type(arguments) is dict and entry[_ENTRY_REF]() is not None:
                    entry[_ENTRY_USED] = True
                    return plan[3](arguments)  # type: ignore[no-any-return]
            else:
                plan = _handed_plan(sig, key)
                arguments = bound.arguments
                if plan is not None and type(arguments) is dict:
                    return plan[3](arguments)  # type: ignore[no-any-return]
    return _kwargs_generic(bound)


def apply_defaults(bound: Any) -> None:
    """``BoundArguments.apply_defaults()``."""
    if type(bound) is _BoundArguments:
        sig = bound._signature
        if type(sig).parameters is _PARAMETERS:
            proxy = sig._parameters
            key = id(proxy)
            entry = _entries.get(key)
            if entry is not None:
                plan = entry[_ENTRY_PLAN]
                arguments = bound.arguments
                if plan and type(arguments) is dict and entry[_ENTRY_REF]() is not None:
                    entry[_ENTRY_USED] = True
                    bound.arguments = plan[4](arguments, proxy)
                    return
            else:
                plan = _handed_plan(sig, key)
                arguments = bound.arguments
                if plan is not None and type(arguments) is dict:
                    bound.arguments = plan[4](arguments, proxy)
                    return
    _apply_defaults_generic(bound)


_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08


def function_signature(cls: type, func: Any, follow_wrapped: Any = True) -> Any:
    """``cls.from_callable(func)`` for a plain Python function whose
    signature is what its code, defaults and annotations say; ``None`` for
    anything else, and for ``cls`` other than a plain ``Signature`` class.

    The parameters are made as ``inspect._signature_from_function`` makes
    them, without ``Parameter()``'s checks: a code object's names are
    identifiers, and the few that are not are left to inspect.  What the
    code says is read once per code object (its layout, below); the
    signature made is handed its plan where its layout has one.
    """
    global _handed, _layout_tick
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
    if layout is not None and layout[_LAYOUT_CODE]() is code:
        names = layout[_LAYOUT_NAMES]
        pos_count = layout[_LAYOUT_POSITIONAL]
        posonly_count = layout[_LAYOUT_POSONLY]
        keyword_only = layout[_LAYOUT_KEYWORD_ONLY]
        var_positional = layout[_LAYOUT_VAR_POSITIONAL]
        var_keyword = layout[_LAYOUT_VAR_KEYWORD]
        planned = layout[_LAYOUT_PLAN]
    else:
        # Read here (a code met once costs little more than this), and kept
        # as a layout for one code in _LAYOUT_SAMPLE.
        pos_count = code.co_argcount
        kwonly_count = code.co_kwonlyargcount
        flags = code.co_flags
        index = pos_count + kwonly_count
        var_positional = var_keyword = -1
        if flags & _CO_VARARGS:
            var_positional = index
            index += 1
        if flags & _CO_VARKEYWORDS:
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
            _layout_tick = _LAYOUT_SAMPLE
            layout = _keep_layout(code, names, posonly_count, pos_count, keyword_only,
                                  var_positional, var_keyword)
            if layout is not None:
                planned = layout[_LAYOUT_PLAN]
    defaults = func.__defaults__ or ()
    if len(defaults) > pos_count:
        return None
    kwdefaults = func.__kwdefaults__
    try:
        annotations = func.__annotations__
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
        param._annotation = annotations.get(name, _empty)
        params[name] = param
    if var_positional >= 0:
        name = names[var_positional]
        param = _new(_Parameter)
        param._name = name
        param._kind = _VAR_POSITIONAL
        param._default = _empty
        param._annotation = annotations.get(name, _empty)
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
        param._annotation = annotations.get(name, _empty)
        params[name] = param
    if var_keyword >= 0:
        name = names[var_keyword]
        param = _new(_Parameter)
        param._name = name
        param._kind = _VAR_KEYWORD
        param._default = _empty
        param._annotation = annotations.get(name, _empty)
        params[name] = param
    sig: Any = _new(cls)
    proxy = sig._parameters = _MappingProxy(params)
    sig._return_annotation = annotations.get("return", _empty)
    if planned is not None:
        if planned[0] == pattern:
            plan = planned[1]
            if plan is None:
                # The second signature of this pattern: its plan is made.
                plan = _plan_for(proxy) if len(params) <= _MAX_PLANNED else False
                layout[_LAYOUT_PLAN] = (pattern, plan)
            if plan:
                _handed = (id(proxy), _weakref.ref(params if _BY_MAPPING else sig), plan)
        else:
            layout[_LAYOUT_PLAN] = (pattern, None)
    return sig


def _keep_layout(code: Any, *fields: Any) -> Any:
    """Keep the layout of ``code`` (its fields as ``function_signature``
    read them) where the code takes a weak reference and the cache may
    keep it: the layout kept, or None."""
    if not _maxsize or not _HANDING:
        return None
    try:
        ref = _weakref.ref(code)
    except TypeError:
        return None  # takes no weak reference: read each time
    layout = [ref, *fields, (-1, None)]
    with _lock:
        if len(_layouts) >= _maxsize:
            _layouts.clear()
        _layouts[id(code)] = layout
    return layout

