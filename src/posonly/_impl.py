"""Which implementation this process uses, decided once, in a fixed order:
``POSONLY_PURE_PYTHON=1`` -> the pure twins; not CPython -> the pure twins;
the compiled module if it imports; else the pure twins.

``module`` is the binder's (``_bind`` or ``_bind_py``), ``dropin`` the
drop-in's core (``_bind`` or ``_dropin_py``)."""

from __future__ import annotations

import os
import sys
from types import ModuleType


def _select() -> ModuleType:
    if os.environ.get("POSONLY_PURE_PYTHON") == "1" or sys.implementation.name != "cpython":
        from . import _bind_py

        return _bind_py
    try:
        from . import _bind  # type: ignore[attr-defined]
    except ImportError:
        from . import _bind_py

        return _bind_py
    return _bind  # type: ignore[no-any-return]


module = _select()
compiled = module.__name__.endswith("._bind")


def _select_dropin() -> ModuleType:
    if compiled:
        return module
    from . import _dropin_py

    return _dropin_py


dropin = _select_dropin()
