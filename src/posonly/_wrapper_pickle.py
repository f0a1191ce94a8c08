"""What a pure wrapper is, for ``isinstance`` and for pickling: a wrapper
pickles by reference where a function would, and a wrapper of a bound method
or a partial refuses to pickle, as nothing could load it as what was dumped."""

from __future__ import annotations

import copyreg
import functools
import pickle
import types
from typing import Any

from ._coroutine import _CoroutineWrapper
from ._wrapper_source import _MARK, _OF_BOUND_METHOD, _OF_FUNCTION, _OF_PARTIAL
from ._wrapper_templates import _template_made

def _is_wrapper(obj: Any) -> bool:
    if type(obj) is types.MethodType:
        # Only a bound method's wrapper is itself a method; a wrapper looked
        # up on an instance is a method of a wrapper, as for any function.
        obj = obj.__func__
        expected = _OF_BOUND_METHOD
    elif type(obj) is functools.partial:
        obj = obj.func
        expected = _OF_PARTIAL
    else:
        expected = _OF_FUNCTION
    if type(obj) is _CoroutineWrapper:
        obj = obj._generated
    return type(obj) is types.FunctionType and (
        obj.__globals__.get(_MARK) is expected
        or (expected is _OF_FUNCTION and _template_made(obj))
    )


class _RefusedName(str):
    """The name of a wrapper that a pickle would load as something else."""

    __slots__ = ()

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise pickle.PicklingError(f"a posonly wrapper of a bound method ({self}) cannot be pickled")


def _reduce_refusing_wrappers(obj: Any) -> Any:
    """A bound method's or partial's reduction, refused for a wrapper."""
    if _is_wrapper(obj):
        raise pickle.PicklingError(f"{obj!r}: a posonly wrapper of a bound method or a partial "
                                   "cannot be pickled")
    return obj.__reduce__()


def _name_probe() -> None:
    """Tells whether a method pickles with its function's own name object."""


_name_probe.__name__ = _RefusedName("probe")
if type(types.MethodType(_name_probe, 0).__reduce__()[1][1]) is not _RefusedName:
    # (PyPy: a method pickles with a copy of the name, and a partial its
    # function otherwise.)  The reductions of every bound method and
    # partial go here; those of anything but a wrapper are the usual ones.
    copyreg.pickle(types.MethodType, _reduce_refusing_wrappers)
    copyreg.pickle(functools.partial, _reduce_refusing_wrappers)
