"""Where a wrapper's defaults come from, for both implementations.

A wrapper binds each call with the defaults the function has at the call, as
the interpreter does: it looks keyword-only defaults up in that function's
own ``__kwdefaults__`` dict at the call, notes the ``__defaults__`` and
``__kwdefaults__`` objects it read, and a call that finds other objects there
reads them again before it binds.  That function is
:func:`defaults_source`'s.
"""

from __future__ import annotations

import types
from typing import Any, Optional

from ._layout import WRAPPER_TYPES, advertises, resolve
from ._layout import is_plain_function as _is_plain_function


def defaults_source(func: Any) -> Optional[types.FunctionType]:
    """The Python function whose ``__defaults__`` and ``__kwdefaults__`` a
    binder of ``func`` fills the values from: ``func`` itself, a bound
    method's function, a callable instance's ``__call__``, a partial's
    function, the function a ``functools.wraps`` chain ends at; ``None``
    where the values' defaults are those of a ``__signature__`` or of a
    builtin's text signature, which do not change."""
    if _is_plain_function(func) and not advertises(func):
        return func
    if (
        type(func) is types.MethodType
        and _is_plain_function(func.__func__)
        and not advertises(func.__func__)
    ):
        return func.__func__
    if type(func) in WRAPPER_TYPES:  # a compiled wrapper: its function's
        return func._posonly_defaults_source  # type: ignore[no-any-return]
    try:
        target = resolve(func).target
    except (TypeError, ValueError):
        return None
    return target if _is_plain_function(target) else None
