"""What the drop-in served: which calls of its entry points posonly answered,
and which it handed to inspect's own code, and why.

``record_served()`` makes a :class:`Served` record; while it is started (a
``with`` block, or ``start()`` to ``stop()``) every call of an entry point
(``inspect.signature``, ``Signature.from_callable``, ``posonly.signature``,
``Signature.bind``, ``bind_partial``, ``BoundArguments.apply_defaults``,
``inspect.getfullargspec``, ``inspect.getcallargs``) is counted: served or
fallen back, by entry point, by reason (the keys of ``FALLBACK_REASONS``) and
by caller (the file and line of the first frame outside posonly and
inspect, read only while recording).  Only the calls a user's code made
count: a call that inspect's own code makes while it answers one of them
(``inspect.signature`` of a partial binds partially) is part of it.  Nothing is recorded, and nothing is paid, while
no record is started: the entry points then test one global for None.
Records may overlap (each counts what it sees) and may be started again.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any, Dict, List, Optional, Tuple

from . import _options
from ._dialect import FALLBACK_REASONS, INSPECT_SIGNATURE

__all__ = ["Served", "record_served"]

_lock = threading.Lock()
_active: List["Served"] = []
"""The records started, in order."""

_HERE = os.path.dirname(os.path.abspath(__file__))
_INSPECTS = tuple(
    os.path.normcase(os.path.abspath(path))
    for path in [getattr(sys.modules.get(name), "__file__", None) or ""
                 for name in ("inspect", "annotationlib")]
    if path
)
"""inspect's and annotationlib's files: their frames are no caller, and a
call of an entry point their code makes inside a counted call is part of
it (see ``_caller``)."""
_OURS, _USERS, _INSPECTS_OWN = 0, 1, 2
_kind_cache: Dict[str, int] = {}


def _kind(filename: str) -> int:
    """Whose code ``filename`` holds: posonly's, the user's, or inspect's."""
    known = _kind_cache.get(filename)
    if known is None:
        path = os.path.normcase(os.path.abspath(filename))
        known = (_OURS if path.startswith(os.path.normcase(_HERE) + os.sep)
                 else _INSPECTS_OWN if path in _INSPECTS else _USERS)
        if len(_kind_cache) > 4096:
            _kind_cache.clear()
        _kind_cache[filename] = known
    return known


_last = threading.local()
"""Per thread, ``where`` the last call the user made of an entry point
itself came from: (the id of the caller's frame, the instruction it was
at)."""


def _caller() -> Optional[str]:
    """``file:line`` of the first frame outside posonly and inspect, or None
    for a call that inspect's own code made while it answered one the user
    made of an entry point (``inspect.signature`` of a partial binds
    partially): inspect's code lies between, and the caller's frame is
    still at the instruction of that call."""
    frame: Any = sys._getframe(2)
    through_inspect = False
    while frame is not None:
        kind = _kind(frame.f_code.co_filename)
        if kind == _USERS:
            break
        through_inspect = through_inspect or kind == _INSPECTS_OWN
        frame = frame.f_back
    if frame is None:
        return "?"
    where = (id(frame), frame.f_lasti)
    if not through_inspect:
        _last.where = where  # a call the user made of an entry point itself
    elif getattr(_last, "where", None) == where:
        return None
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def _observe(entry: str, reason: Optional[str]) -> None:
    if getattr(_options.INSIDE, "depth", 0):
        return  # inspect's own code, run by the drop-in to answer a call
    caller = _caller()
    if caller is None:
        return
    for record in tuple(_active):
        record._count(entry, reason, caller)


def _inspect_patched() -> bool:
    """Whether ``inspect.signature`` is not inspect's own (patched)."""
    module = sys.modules.get("inspect")
    return getattr(module, "signature", INSPECT_SIGNATURE) is not INSPECT_SIGNATURE


class Served:
    """A record of what the drop-in's entry points served, made by
    :func:`record_served`.  While it is started (a ``with`` block, or
    ``start()`` to ``stop()``) every call of an entry point
    (``inspect.signature``, ``Signature.from_callable``,
    ``posonly.signature``, ``Signature.bind``, ``bind_partial``,
    ``BoundArguments.apply_defaults``, ``inspect.getfullargspec``,
    ``inspect.getcallargs``) is counted: served or fallen back to inspect's
    own code, by entry point, by reason and by caller (the file and line of
    the first frame outside posonly and inspect).  Records may overlap (each
    counts what it sees) and may be started again.  Read it with
    ``report()``, or with ``served``, ``fell_back``, ``by_entry()``,
    ``by_reason()`` and ``by_caller()``."""

    def __init__(self) -> None:
        self._counts: Dict[Tuple[str, Optional[str], str], int] = {}
        self._started = False

    # -- recording --

    def start(self) -> "Served":
        """Start counting (again, adding to what is counted); returns self."""
        with _lock:
            if not self._started:
                self._started = True
                _active.append(self)
                if len(_active) == 1:
                    _options.set_observer(_observe)
        return self

    def stop(self) -> "Served":
        """Stop counting; returns self.  What was counted stays."""
        with _lock:
            if self._started:
                self._started = False
                _active.remove(self)
                if not _active:
                    _options.set_observer(None)
        return self

    def __enter__(self) -> "Served":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def recording(self) -> bool:
        """Whether the record is started."""
        return self._started

    def clear(self) -> None:
        """Forget what was counted."""
        with _lock:
            self._counts.clear()

    def _count(self, entry: str, reason: Optional[str], caller: str) -> None:
        key = (entry, reason, caller)
        with _lock:
            self._counts[key] = self._counts.get(key, 0) + 1

    # -- reading --

    def _items(self) -> List[Tuple[Tuple[str, Optional[str], str], int]]:
        with _lock:
            return list(self._counts.items())

    @property
    def served(self) -> int:
        """How many calls posonly served."""
        return sum(n for (_, reason, _), n in self._items() if reason is None)

    @property
    def fell_back(self) -> int:
        """How many calls were handed to inspect's own code."""
        return sum(n for (_, reason, _), n in self._items() if reason is not None)

    def by_entry(self) -> Dict[str, Tuple[int, int]]:
        """entry point -> (served, fell back)."""
        out: Dict[str, List[int]] = {}
        for (entry, reason, _), n in self._items():
            out.setdefault(entry, [0, 0])[reason is not None] += n
        return {entry: (counts[0], counts[1]) for entry, counts in out.items()}

    def by_reason(self) -> Dict[str, int]:
        """reason -> calls that fell back for it, most first."""
        out: Dict[str, int] = {}
        for (_, reason, _), n in self._items():
            if reason is not None:
                out[reason] = out.get(reason, 0) + n
        return dict(sorted(out.items(), key=lambda item: -item[1]))

    def by_caller(self) -> Dict[Tuple[str, str, Optional[str]], int]:
        """(caller ``file:line``, entry point, reason or None) -> calls, most first."""
        out = {(caller, entry, reason): n for (entry, reason, caller), n in self._items()}
        return dict(sorted(out.items(), key=lambda item: -item[1]))

    def report(self, callers: int = 10) -> str:
        """A readable summary: totals, a line per entry point, the reasons
        for falling back, and the ``callers`` callers whose calls fell back
        most."""
        served, fell_back = self.served, self.fell_back
        total = served + fell_back
        if not total:
            return ("posonly served nothing: no entry point of the drop-in was called while "
                    "recording" + ("" if _inspect_patched()
                                   else " (is inspect patched? posonly.patch_inspect())"))
        lines = [f"posonly served {served} of {total} calls ({100.0 * served / total:.1f}%); "
                 f"{fell_back} fell back to inspect's own code", ""]
        entries = self.by_entry()
        width = max(len("entry point"), *map(len, entries))
        lines.append(f"  {'entry point':<{width}}  {'served':>9}  {'fell back':>9}")
        for entry, (fast, slow) in sorted(entries.items(), key=lambda item: -sum(item[1])):
            lines.append(f"  {entry:<{width}}  {fast:>9}  {slow:>9}")
        reasons = self.by_reason()
        if reasons:
            lines += ["", "fell back, by reason:"]
            for reason, n in reasons.items():
                lines.append(f"  {n:>9}  {reason}: {FALLBACK_REASONS.get(reason, '')}")
            fallen = [(key, n) for key, n in self.by_caller().items() if key[2] is not None]
            lines += ["", f"fell back, by caller (the {min(callers, len(fallen))} with most "
                          f"of {len(fallen)}):"]
            cwd = os.getcwd() + os.sep
            for (where, entry, why), n in fallen[:callers]:
                if where.startswith(cwd):
                    where = where[len(cwd):]
                lines.append(f"  {n:>9}  {where}  {entry}  [{why}]")
        return "\n".join(lines)

    def __repr__(self) -> str:
        state = "recording" if self._started else "stopped"
        return f"<posonly.Served {state}: {self.served} served, {self.fell_back} fell back>"


def record_served() -> Served:
    """A new :class:`Served` record, not yet started: ``with
    posonly.record_served() as served: ...`` then ``print(served.report())``,
    or ``served.start()`` ... ``served.stop()``.  While any record is
    started, every call of the drop-in's entry points (the patched
    ``inspect`` ones, and ``posonly.signature``) is counted, with the file
    and line it came from; otherwise nothing is counted and nothing paid."""
    return Served()
