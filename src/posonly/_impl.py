"""Which binder this process uses, decided once, in a fixed order:
``POSONLY_PURE_PYTHON=1`` -> the pure twin; not CPython -> the pure twin;
the compiled module if it imports; else the pure twin."""

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
