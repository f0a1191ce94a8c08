"""A failed call's traceback holds no frame of posonly's, in both
implementations, as the interpreter's own refusal of the call holds none;
frames of code run deeper (a str subclass's __eq__, a handler) stay."""

import os
import sys
import traceback

import pytest

from posonly._wrapper import _FILENAME


def ours(filename):
    """Whether a code object's file is one of posonly's (installed, in the
    source tree, as Cython names it, or a pure wrapper's)."""
    parts = os.path.normpath(filename).split(os.sep)
    return filename == _FILENAME or (len(parts) >= 2 and parts[-2] == "posonly")


def f(a, b=2, *, c=3):
    return a, b, c


def names_in_traceback(call):
    """The code names of the frames a failed ``call()``'s traceback holds
    below this function, and the files of those that are posonly's."""
    with pytest.raises(Exception) as info:
        call()
    frames = [frame for frame, _ in traceback.walk_tb(info.value.__traceback__)][1:]
    return info.value, [frame.f_code.co_name for frame in frames], [
        frame.f_code.co_filename for frame in frames if ours(frame.f_code.co_filename)]


def failures(impl):
    bind = impl.binder(f)
    before = impl.wrap(f, before=lambda values: None)
    around = impl.wrap(f, around=lambda proceed, values: proceed(values))
    method = impl.binder(Holder().method)
    return {
        "call": (lambda: bind(1, 2, 3), lambda: f(1, 2, 3)),
        "keyword": (lambda: bind(1, x=1), lambda: f(1, x=1)),
        "bind": (lambda: bind.bind((1, 2, 3)), lambda: f(*(1, 2, 3))),
        "bind dict": (lambda: bind.bind((), {"b": 1}), lambda: f(**{"b": 1})),
        "vectorcall": (lambda: bind.vectorcall((1, 2), ("x",)), lambda: f(1, x=2)),
        "partial": (lambda: bind.partial(1, 2, 3), lambda: f(1, 2, 3)),
        "arguments": (lambda: bind.arguments(x=1), lambda: f(1, x=1)),
        "bound method": (lambda: method(1, 2), lambda: Holder().method(1, 2)),
        "before": (lambda: before(1, 2, 3), lambda: f(1, 2, 3)),
        "around": (lambda: around(c=1), lambda: f(c=1)),
    }


class Holder:
    def method(self, a):
        return a


@pytest.mark.parametrize("case", [
    "call", "keyword", "bind", "bind dict", "vectorcall", "partial", "arguments",
    "bound method", "before", "around"])
def test_a_failed_call_shows_no_frame_of_posonly(impl, case):
    call, reference = failures(impl)[case]
    error, names, own = names_in_traceback(call)
    expected, expected_names, _ = names_in_traceback(reference)
    if impl.name == "python" and (case in PURE_METHODS or sys.implementation.name == "pypy"):
        # The pure binder's methods are Python functions, with frames of
        # their own (the call of a binder or a wrapper is the interpreter's,
        # but on PyPy, where every pure binder is made the general way).
        assert all(file.endswith(("_binder.py", "_plan.py")) for file in own)
        return
    assert own == []
    assert (type(error), names) == (type(expected), expected_names)


PURE_METHODS = {"bind", "bind dict", "vectorcall", "partial", "arguments"}


class Named(str):
    """A keyword whose comparison is Python code that fails."""

    __hash__ = str.__hash__

    def __eq__(self, other):
        raise LookupError("compared")


def test_frames_of_code_run_deeper_stay(impl):
    try:
        f(1, **{Named("b"): 2})
    except LookupError:
        pass
    else:
        pytest.skip("this interpreter matches the keyword without calling its __eq__ (PyPy)")
    bind = impl.binder(f)
    w = impl.wrap(f, before=lambda values: None)
    for call in (lambda: bind(1, **{Named("b"): 2}), lambda: bind.bind((1,), {Named("b"): 2}),
                 lambda: w(1, **{Named("b"): 2})):
        error, names, own = names_in_traceback(call)
        assert type(error) is LookupError
        assert names[-1] == "__eq__"
        if impl.name == "cython":
            assert own == []


def test_a_handlers_exception_shows_the_handler(impl):
    def refuse(values):
        raise ValueError("refused")

    def refuse_around(proceed, values):
        raise ValueError("refused")

    for w in (impl.wrap(f, before=refuse), impl.wrap(f, around=refuse_around)):
        error, names, own = names_in_traceback(lambda: w(1))
        assert type(error) is ValueError
        assert names[-1] in ("refuse", "refuse_around")
        # (The pure wrapper's own frame is a function's, as a
        # functools.wraps wrapper's is; the compiled one is a C call.)
        assert [file for file in own if file != _FILENAME] == []
