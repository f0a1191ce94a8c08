"""Where the drop-in's pure core keeps what it reads once: a clock cache of
plans, with weak entries and sampling, and the code objects' layouts.

Plans (``_dropin_plans``) are kept by ``id(sig._parameters)`` with a weak
reference that is alive exactly while that id is still that mapping's: on
CPython to the dict under the mappingproxy (the proxy itself takes no weak
references; the dict is owned by the proxy alone, as checked when the
reference is made, so it dies with it), elsewhere to the signature, which
owns the proxy.  When it dies its entry goes with it.

A bind of a signature without an entry costs one dict lookup (and one in
``SAMPLE`` notes the signature, with a weak reference, so that a recycled
id is never taken for it); a noted signature's next bind makes its entry,
and the one after that its plan.  Entries are evicted by the clock (second
chance): at most ``maxsize`` of them, and at most as many notes.

A signature made afresh for each call (``inspect.signature(f).bind(...)``)
would never get an entry.  ``function_signature`` (``_dropin_signature``)
reads what a code object says once, into the code's *layout*, kept here by
``id(code)`` under a weak reference to the code (no callback: a layout
whose code is gone is replaced when its id is met again), at most
``maxsize`` of them, all dropped when full.  A layout also keeps the plan of
its latest *pattern* (how many positional defaults, which keyword-only
parameters have one), made the second time that pattern is seen; the
signature made is *handed* it: ``handed`` holds the mapping's id, a weak
reference that lives exactly while that id is the mapping's (as an
entry's) and the plan, and the signature's bind finds it there without a
lookup.  A layout holds names and counts, a plan names: no code object,
function, signature or default.
"""

from __future__ import annotations

import gc as _gc
import sys as _sys
import threading as _threading
import weakref as _weakref
from types import MappingProxyType as _MappingProxy
from typing import Any, Dict, List, Tuple

from ._dialect import DIALECT
from ._dropin_plans import plan_for, plannable

__all__ = ["BY_MAPPING", "ENTRY_PLAN", "ENTRY_REF", "ENTRY_SLOT", "ENTRY_USED", "LAYOUT_CODE",
           "LAYOUT_KEYWORD_ONLY", "LAYOUT_NAMES", "LAYOUT_PLAN", "LAYOUT_POSITIONAL",
           "LAYOUT_POSONLY", "LAYOUT_VAR_KEYWORD", "LAYOUT_VAR_POSITIONAL", "SAMPLE", "advance",
           "cache_info", "clear_cache", "entries", "handed", "handed_plan", "keep_layout",
           "layouts", "note", "set_maxsize"]

_PARAMETERS_DICT = DIALECT.parameters_dict
_new = object.__new__

_maxsize = 4096
entries: Dict[int, List[Any]] = {}
"""id(sig._parameters) -> [weak reference, plan, used, slot]: plan is None
until made, False where none can be; slot is the clock's, -1 for a note."""
ENTRY_REF, ENTRY_PLAN, ENTRY_USED, ENTRY_SLOT = range(4)
_ring: List[Any] = []
"""The clock's slots: the keys of the entries (None where freed)."""
_hand = 0
_notes = 0
"""How many notes were made since the last sweep of them."""
SAMPLE = 8 if _sys.implementation.name == "cpython" else 64
"""One bind in this many of signatures without an entry is noted (on PyPy
a weak reference with a callback costs more, and its JIT warms up over
many more binds anyway)."""
_lock = _threading.Lock()

layouts: Dict[int, List[Any]] = {}
"""id(code) -> its layout: what ``function_signature`` reads from a code
object, read once: a list of the fields below."""
(LAYOUT_CODE, LAYOUT_NAMES, LAYOUT_POSONLY, LAYOUT_POSITIONAL, LAYOUT_KEYWORD_ONLY,
 LAYOUT_VAR_POSITIONAL, LAYOUT_VAR_KEYWORD, LAYOUT_PLAN) = range(8)
handed: Any = None
"""(id(sig._parameters), weak reference, plan) of the signature made last
by ``function_signature`` with a plan, or None."""


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
    BY_MAPPING = (
        _sys.implementation.name == "cpython"
        and _probe is not None
        and _weakref.ref(_probe) is not None
    )
    del _probe
except Exception:  # noqa: BLE001 - then by the signature
    BY_MAPPING = False


def _signatures_take_weak_references() -> bool:
    try:
        _weakref.ref(_new(DIALECT.Signature))
    except TypeError:
        return False
    return True


HANDING = BY_MAPPING or _signatures_take_weak_references()
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
    entry = entries.get(ref.key)
    if entry is not None and entry[ENTRY_REF] is ref:
        entries.pop(ref.key, None)


def _owner(sig: Any, proxy: Any) -> Any:
    """What stays alive exactly while ``proxy`` is the mapping a plan is
    made for (on CPython the dict under it, owned by it alone), or None."""
    if BY_MAPPING:
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
    global _maxsize, handed
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
        if len(layouts) > maxsize:
            layouts.clear()
        if not maxsize:
            handed = None


def cache_info() -> Dict[str, int]:
    """What the cache holds now: entries, plans among them, notes, layouts
    of code objects, maxsize."""
    values = list(entries.values())
    kept = [e for e in values if e[ENTRY_SLOT] >= 0]
    return {"entries": len(kept), "plans": sum(1 for e in kept if e[ENTRY_PLAN]),
            "notes": len(values) - len(kept), "layouts": len(layouts), "maxsize": _maxsize}


def clear_cache() -> None:
    """Drop every entry, plan, note and layout."""
    with _lock:
        _clear()


def _clear() -> None:
    global _hand, _notes, handed
    entries.clear()
    _ring.clear()
    _hand = 0
    _notes = 0
    layouts.clear()
    handed = None


def _sweep_notes() -> None:
    global _notes
    for key in [k for k, e in list(entries.items()) if e[ENTRY_SLOT] < 0]:
        entries.pop(key, None)
    _notes = 0


def _insert(key: int, entry: List[Any]) -> None:
    """Put ``entry`` under ``key``, evicting by the clock when full."""
    global _hand
    with _lock:
        size = _maxsize
        if size == 0:
            return
        ring = _ring
        if len(ring) < size:
            entry[ENTRY_SLOT] = len(ring)
            ring.append(key)
        else:
            hand = _hand
            while True:
                if hand >= len(ring):
                    hand = 0
                old_key = ring[hand]
                old = entries.get(old_key) if old_key is not None else None
                if old is None or old[ENTRY_SLOT] != hand:
                    break  # a free slot (its entry died, or moved)
                if old[ENTRY_USED]:
                    old[ENTRY_USED] = False
                    hand += 1
                    continue
                entries.pop(old_key, None)
                break
            ring[hand] = key
            entry[ENTRY_SLOT] = hand
            _hand = hand + 1
        entries[key] = entry


def note(sig: Any, proxy: Any, key: int) -> None:
    """Note a signature bound without an entry (one bind in ``SAMPLE``)."""
    global _notes
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
    entries[key] = [ref, None, False, -1]


def advance(sig: Any, proxy: Any, key: int, entry: List[Any]) -> None:
    """A bind of a signature with a note or an entry but no plan yet: the
    note becomes an entry, the entry gets its plan."""
    target = entry[ENTRY_REF]()
    if target is None:
        # The id was recycled: the note (or the entry, whose callback has
        # not run yet) is another signature's.
        if entries.get(key) is entry:
            entries.pop(key, None)
        return
    if entry[ENTRY_SLOT] < 0:
        # The note, whose weak reference is the entry's, takes a slot.
        entry[ENTRY_PLAN] = None if plannable(proxy) else False
        _insert(key, entry)
    elif entry[ENTRY_PLAN] is None:
        entry[ENTRY_PLAN] = plan_for(proxy)


def handed_plan(sig: Any, key: int) -> Any:
    """The plan handed to ``sig`` (whose mapping's id is ``key``) if it is
    the signature made last by ``function_signature``, else None: it serves
    the signature's ``.args``, ``.kwargs`` and ``apply_defaults()`` as it
    serves its binds, which then make it no entry.  The weak reference is to
    what lives exactly while the id is its mapping's (see ``_owner``)."""
    last = handed
    if last is not None and last[0] == key:
        target = last[1]()
        if target is sig or (BY_MAPPING and target is not None):
            return last[2]
    return None


def keep_layout(code: Any, *fields: Any) -> Any:
    """Keep the layout of ``code`` (its fields as ``function_signature``
    read them) where the code takes a weak reference and the cache may
    keep it: the layout kept, or None."""
    if not _maxsize or not HANDING:
        return None
    try:
        ref = _weakref.ref(code)
    except TypeError:
        return None  # takes no weak reference: read each time
    layout = [ref, *fields, (-1, None)]
    with _lock:
        if len(layouts) >= _maxsize:
            layouts.clear()
        layouts[id(code)] = layout
    return layout
