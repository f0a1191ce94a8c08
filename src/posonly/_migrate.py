"""The pure-Python ``migrate``: the twin of the compiled ``Migrated``.

A migrated function is a plain function generated once per migration,
``def f(*args, **kwargs)``, whose body sends a call in the future form (no
more positional arguments than the future signature takes where
``keyword_only`` is declared, no keyword among the deprecated names) straight
to the function, and any other call, its positional arguments and keyword
arguments as the function got them, to the pure legacy path
(:meth:`posonly._migrate_common.Migration.legacy_call`)::

    def f(*args, **kwargs):
        if _len(args) > _max or (kwargs and not _legacy.isdisjoint(kwargs)):
            return _slow(args, kwargs)
        return _func(*args, **kwargs)

As a function it is a method on a class, with no ``__get__`` of its own.
A migrated coroutine function is marked as one (3.12 and later); before
3.12 it is a :class:`functools.partial` of the coroutine function, whose
calls go to the generated function (what ``inspect.iscoroutinefunction``
looks through), as a pure ``Wrapper`` is: the same class.
"""

from __future__ import annotations

import functools
import inspect
import sys
from typing import Any, Callable

from ._binder import Binder
from ._coroutine import _CoroutineWrapper
from ._migrate_common import Migration, docstring_of, migrate_arguments

__all__ = ["migrate"]

# Frames between the legacy path and the caller: the generated function's,
# and a partial's __call__ where one is in the way.
_STACKLEVEL = 3

def _generated(func: Any, migration: Migration) -> Callable[..., Any]:
    max_nargs = migration.max_nargs if migration.max_nargs >= 0 else sys.maxsize
    legacy = frozenset(migration.legacy_names)
    slow = migration.legacy_call
    _len = len

    def migrated(*args: Any, **kwargs: Any) -> Any:
        if _len(args) > max_nargs or (kwargs and not legacy.isdisjoint(kwargs)):
            return slow(args, kwargs)
        return func(*args, **kwargs)

    return migrated


def migrate(*args: Any, **kwargs: Any) -> Any:
    """migrate(func=None, /, *, positional_only=(), keyword_only=(), renamed=None, since=None, removal=None, category=DeprecationWarning)

    Keep the calls of ``func``'s former signature working, with a warning,
    while ``func`` is written in its future one.

    ``positional_only``: the last positional-only parameters, which callers
    may still pass by keyword; ``keyword_only``: the first keyword-only
    parameters, which callers may still pass by position (in signature
    order, after the positional ones); ``renamed``: old keyword names mapped
    to the parameters they now are.  Each legacy form used in a call warns
    once, with ``category``, at the caller's line, worded as Argument
    Clinic words it (``removal`` is the version that drops the form;
    ``since``, where given, goes into the docstring's notes); the call
    then gets what the future form of it gives.  Calls in the future form
    go straight to ``func``.  Without ``func``, returns a decorator.  A
    ``classmethod`` or ``staticmethod`` object gives the same kind of object
    around the migrated function.  Raises :class:`TypeError` for a
    declaration that does not fit ``func``'s signature.
    """
    func, declaration = migrate_arguments(*args, **kwargs)
    if func is None:
        return lambda func: migrate(func, **declaration)
    if isinstance(func, (classmethod, staticmethod)):
        return type(func)(migrate(func.__func__, **declaration))
    coroutine = inspect.iscoroutinefunction(func)
    partial_needed = coroutine and sys.version_info < (3, 12)
    migration = Migration(func, declaration, Binder, _STACKLEVEL + partial_needed)
    generated = _generated(func, migration)
    functools.update_wrapper(generated, func)
    generated.__doc__ = migration.docstring(docstring_of(func))
    # inspect.signature(m, follow_wrapped=False): the function's, as the
    # compiled twin answers.
    generated.__signature__ = inspect.signature(func)  # type: ignore[attr-defined]
    result: Any = generated
    if coroutine:
        if sys.version_info >= (3, 12):  # inspect.markcoroutinefunction
            inspect.markcoroutinefunction(generated)
        else:
            result = _CoroutineWrapper.around(func, generated)
    return result


migrate.__signature__ = inspect.signature(migrate_arguments)  # type: ignore[attr-defined]
