"""Which implementation this process uses, decided once, in a fixed order:
``POSONLY_PURE_PYTHON=1`` -> the pure twins; not CPython -> the pure twins;
the compiled module if it imports; else the pure twins.

``extension`` is the compiled module, or None where the pure twins are in
use; ``Binder``, ``binder`` (what ``posonly.binder`` calls), ``Wrapper``,
``wrap``, ``migrate`` and ``layout_methods``
(Layout's methods on a call's values) are the chosen implementation's,
taken by name from ``_bind`` or from its pure twin ``_bind_py``, and
``dropin`` is the drop-in's core (``_bind`` or ``_dropin``)."""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import Any, Optional


def _load_extension() -> Optional[ModuleType]:
    if os.environ.get("POSONLY_PURE_PYTHON") == "1" or sys.implementation.name != "cpython":
        return None
    try:
        from . import _bind  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _bind  # type: ignore[no-any-return]


extension = _load_extension()
compiled = extension is not None

Binder: Any
Wrapper: Any
wrap: Any
migrate: Any
binder: Any
layout_methods: Any
dropin: Any
if extension is not None:
    Binder, Wrapper, wrap = extension.Binder, extension.Wrapper, extension.wrap
    migrate = extension.migrate
    binder = extension.binder
    layout_methods = extension.LAYOUT_METHODS
    dropin = extension
else:
    # The same names from the pure twin's map of its parts.
    from . import _dropin
    from ._bind_py import LAYOUT_METHODS as layout_methods  # noqa: F401
    from ._bind_py import Binder, Wrapper, binder, migrate, wrap  # noqa: F401

    dropin = _dropin

# Layout's methods on a call's values: the implementation's own, put on the
# class here, where the implementation is chosen (Layout's module is
# imported by the compiled module, so it cannot import them itself).
from ._layout import Layout  # noqa: E402

for _name, _method in layout_methods.items():
    setattr(Layout, _name, _method)
del _name, _method
