"""posonly: bind call arguments to parameters at the interpreter's own speed.

``binder(f)`` analyses a signature once and returns a binder whose calls map
arguments onto the parameters exactly as the interpreter would, returning the
locals tuple.  ``Layout`` is the analysed signature.  ``wrap(f, before=...)``
and ``wrap(f, around=...)`` make a wrapper that hands each call's locals to a
handler.  The binder is compiled
with Cython when the extension is built; otherwise (or with
``POSONLY_PURE_PYTHON=1`` set before import, or off CPython) a pure-Python twin
with the same API and behaviour is used.  ``IMPLEMENTATION`` says which.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Literal, TypeVar, Union, overload

from ._common import make_binder
from . import _impl
from ._inspect import Signature, patch_inspect, signature, unpatch_inspect
from ._layout import MISSING, Layout

__all__ = [
    "IMPLEMENTATION",
    "MISSING",
    "Binder",
    "Layout",
    "Signature",
    "Wrapper",
    "binder",
    "patch_inspect",
    "signature",
    "unpatch_inspect",
    "wrap",
]
__version__ = "0.1.0"

if TYPE_CHECKING:
    # One source of truth for types: the pure twin carries the annotations,
    # and the compiled Binder and Wrapper have the same API.
    from ._bind_py import Binder as Binder
    from ._wrap_py import Wrapper as Wrapper
    from ._wrap_py import wrap as wrap
else:
    Binder = _impl.Binder
    Wrapper = _impl.Wrapper
    wrap = _impl.wrap
IMPLEMENTATION: Literal["cython", "python"] = "cython" if _impl.compiled else "python"
"""``"cython"`` when the compiled binder is in use, ``"python"`` for the twin."""


if TYPE_CHECKING:
    from typing_extensions import ParamSpec

    _P = ParamSpec("_P")
else:
    _P = TypeVar("_P")


@overload
def binder(target: Layout, *, follow_wrapped: bool = True) -> "Binder[...]": ...


@overload
def binder(target: Callable[_P, Any], *, follow_wrapped: bool = True) -> "Binder[_P]": ...


def binder(target: Union[Callable[..., Any], Layout], *, follow_wrapped: bool = True) -> Any:
    """A binder for a callable or a :class:`Layout`.

    The signature bound is the one the callable advertises, as
    :func:`inspect.signature` finds it: a ``__wrapped__`` chain is followed
    (unless ``follow_wrapped`` is false) and a ``__signature__`` honoured.
    Each call binds as the interpreter binds calling ``target``: a bound
    method's, a callable instance's or a :func:`functools.partial`'s
    messages count the values the call puts first as the interpreter's do,
    and the result leaves them out.  Raises :class:`TypeError` for an object
    that is neither callable nor a layout, and whatever
    :func:`inspect.signature` raises for a callable without a signature.
    """
    return make_binder(Binder, target, follow_wrapped)
