"""Warnings a handler raises, in both implementations: a handler is the body
of the wrapper, so a stacklevel points where it points from the body of a
functools.wraps wrapper (the wrapper itself is no level, as a C call is
none); a call writes nothing into the wrapper's __dict__; a coroutine an
async handler returns and nobody awaits is reported as usual."""

import functools
import gc
import sys
import warnings

import pytest


def f(a, b=2, *, c=3):
    return a, b, c


def where(wrapper):
    """Where the one warning a call of ``wrapper`` raises points: (file, line)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outer(wrapper)
    assert len(caught) == 1, [str(w.message) for w in caught]
    return caught[0].filename, caught[0].lineno


def warner(level):
    def handler(values):
        warnings.warn("from the handler", UserWarning, stacklevel=level)

    return handler


def wraps_def(level):
    """A functools.wraps wrapper whose body warns as the handler does."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        warnings.warn("from the handler", UserWarning, stacklevel=level)
        return f(*args, **kwargs)

    return wrapper


def call_site(wrapper):
    return wrapper(1, c=4)  # the caller's line


def outer(wrapper):
    return call_site(wrapper)  # the caller's caller's line


@pytest.mark.parametrize("level", [2, 3, 4])
@pytest.mark.parametrize("kind", ["before", "around"])
def test_a_handlers_warning_points_where_a_wraps_bodys_does(impl, kind, level):
    if kind == "before":
        w = impl.wrap(f, before=warner(level))
    else:
        def around(proceed, values):
            warnings.warn("from the handler", UserWarning, stacklevel=level)
            return proceed(values)

        w = impl.wrap(f, around=around)
    got = where(w)
    assert got == where(wraps_def(level))
    assert got[0] == __file__


@pytest.mark.parametrize("kind", ["before", "around"])
def test_a_call_writes_nothing_into_the_wrapper(impl, kind):
    def handler(values):
        warnings.warn("once", UserWarning, stacklevel=2)

    def around(proceed, values):
        handler(values)
        return proceed(values)

    def g(a, b=2):
        return a + b

    w = impl.wrap(g, before=handler) if kind == "before" else impl.wrap(g, around=around)
    before = dict(vars(w))
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("default")  # a registry is kept, somewhere
        assert w(1) == w(1, 3) - 1 == 3
    assert vars(w) == before


def test_an_async_handler_never_awaited_is_reported(impl):
    async def handler(values):
        pass

    unraisable = []
    w = impl.wrap(f, before=handler)
    old_hook = sys.unraisablehook
    sys.unraisablehook = unraisable.append
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call_site(w)
            gc.collect()
    finally:
        sys.unraisablehook = old_hook
    assert [str(u.exc_value) for u in unraisable] == []
    messages = [str(w.message) for w in caught if w.category is RuntimeWarning]
    assert messages == ["coroutine 'test_an_async_handler_never_awaited_is_reported.<locals>."
                        "handler' was never awaited"] or messages == [
        "coroutine 'handler' was never awaited"]
