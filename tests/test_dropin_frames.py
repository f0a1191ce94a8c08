"""With patch_inspect() and the compiled core, the patched entry points add
no Python-level frame of posonly's, with options or without, for what they
serve and for what they hand to inspect's own code: a line tracer
(sys.settrace), a profiler (sys.setprofile) and, from 3.12, sys.monitoring
see no event in posonly's files, and a failed bind's traceback holds no
frame of posonly's.  The pure
core's entry points are Python functions: the same probes run over it find
its frames, which shows that they would find the compiled core's if it had
any.  Introspection of the patched objects is inspect's (see also
test_patch_hygiene)."""

import functools
import inspect
import os
import sys
import traceback
from typing import Optional
from unittest import mock

import pytest

import posonly
from conftest import extension_required
from test_inspect_dropin import INSPECT_BIND, binder_class, patched


def ours(filename):
    """Whether a code object's file is one of posonly's (installed, in the
    source tree, or as Cython names it in a traceback entry)."""
    parts = os.path.normpath(filename).split(os.sep)
    return len(parts) >= 2 and parts[-2] == "posonly"


def f(a, b, /, c, d=4, *args, e, g=7, **kwargs):
    return a


def annotated(a: "int", b: list, *, c: "Optional[int]" = None) -> "str":
    return str(a)


class Plain:
    def __init__(self, x, y=2):
        pass

    def method(self, z):
        pass


@functools.wraps(f)
def decorated(*args, **kwargs):
    return f(*args, **kwargs)


OPTIONS = []
if sys.version_info >= (3, 10):  # inspect.signature's options came with 3.10
    OPTIONS += [{"eval_str": True}, {"eval_str": True, "globals": {"Optional": Optional}},
                {"eval_str": False, "locals": {}}]
if sys.version_info >= (3, 14):
    OPTIONS += [{"annotation_format": 1}, {"annotation_format": 3}, {"annotation_format": 4}]


def exercise():
    """Every patched entry point, called as clients call them: with and
    without options, for what posonly serves and what it hands to inspect's
    own code, including failed binds and failed evaluations (caught)."""
    for options in OPTIONS:
        inspect.signature(annotated, **options)
        inspect.Signature.from_callable(annotated, **options)
    for obj in (Plain, Plain(1).method, functools.partial(f, 1), decorated, len, Plain.method):
        inspect.signature(obj)
        inspect.Signature.from_callable(obj, follow_wrapped=False)
    for func in (f, annotated, decorated, Plain(1).method):
        inspect.getfullargspec(func)
    inspect.getcallargs(f, 1, 2, 3, e=5)
    inspect.getcallargs(Plain(1).method, 3)
    failing = [lambda: inspect.signature(f, no_such_option=1), lambda: inspect.getfullargspec(1),
               lambda: inspect.getcallargs(f, 1)]
    if OPTIONS:  # a string annotation that does not resolve
        failing.append(lambda: inspect.signature(annotated, eval_str=True, globals={}))
    for call in failing:
        try:
            call()
        except (TypeError, NameError):
            pass
    sig = inspect.signature(f)
    inspect.Signature.from_callable(f)
    ba = sig.bind(1, 2, 3, 5, 6, e=5, z=1)
    ba.args, ba.kwargs  # noqa: B018
    ba.apply_defaults()
    ba = sig.bind_partial(1, e=2)
    ba.args, ba.kwargs  # noqa: B018
    ba.apply_defaults()
    for call in (lambda: sig.bind(), lambda: sig.bind(1, 2, 3, c=4, e=1),
                 lambda: sig.bind(1, a=2, e=3), lambda: sig.bind_partial(1, 2, x=1, c=2, **{"c": 3})):
        try:
            call()
        except TypeError:
            pass


def seen_by_tracer():
    events = []

    def tracer(frame, event, arg):
        if ours(frame.f_code.co_filename):
            events.append((event, frame.f_code.co_filename, frame.f_lineno))
        return tracer

    sys.settrace(tracer)
    try:
        exercise()
    finally:
        sys.settrace(None)
    return events


def seen_by_profiler():
    events = []

    def profiler(frame, event, arg):
        if ours(frame.f_code.co_filename):
            events.append((event, frame.f_code.co_filename))

    sys.setprofile(profiler)
    try:
        exercise()
    finally:
        sys.setprofile(None)
    return events


def seen_by_monitoring():
    monitoring = sys.monitoring
    tool = next(i for i in range(6) if monitoring.get_tool(i) is None)
    events = []
    E = monitoring.events

    def code_event(code, *rest):
        if ours(code.co_filename):
            events.append(code.co_filename)

    monitoring.use_tool_id(tool, "posonly frames test")
    try:
        for event in (E.PY_START, E.PY_RETURN, E.LINE, E.RAISE, E.CALL):
            monitoring.register_callback(tool, event, code_event)
        monitoring.set_events(tool, E.PY_START | E.PY_RETURN | E.LINE | E.RAISE | E.CALL)
        try:
            exercise()
        finally:
            monitoring.set_events(tool, 0)
    finally:
        for event in (E.PY_START, E.PY_RETURN, E.LINE, E.RAISE, E.CALL):
            monitoring.register_callback(tool, event, None)
        monitoring.free_tool_id(tool)
    return events


PROBES = {"settrace": seen_by_tracer, "setprofile": seen_by_profiler}
if sys.version_info >= (3, 12):
    PROBES["monitoring"] = seen_by_monitoring


def failed_bind_frames():
    """The files of the frames in failed binds' tracebacks."""
    sig = inspect.signature(f)
    files = []
    for call in (lambda: sig.bind(), lambda: sig.bind(1, 2, 3, c=4, e=1),
                 lambda: sig.bind(1, a=2, e=3), lambda: sig.bind_partial(1, 2, 3, 4, c=1)):
        try:
            call()
        except TypeError as error:
            files += [frame.f_code.co_filename for frame, _ in traceback.walk_tb(error.__traceback__)]
        else:
            raise AssertionError("the call was meant to fail")
    return [name for name in files if ours(name)]


def compiled(impl):
    if impl.name != "cython":
        pytest.skip("the pure core's entry points are Python functions")
    from posonly import _options

    if _options.__file__.endswith(".py"):
        # An editable install compiles no _options (setup.py): its frames are
        # Python's there.  A build that must be complete has it compiled.
        assert not extension_required(), "posonly._options is not compiled"
        pytest.skip("posonly._options runs from its source (an editable install)")


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_patched_paths_add_no_frame_of_ours(impl, probe):
    compiled(impl)
    with binder_class(impl), patched():
        assert type(inspect.Signature.__dict__["bind"]).__name__ == "InspectMethod"
        assert PROBES[probe]() == []


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_the_probes_see_the_pure_cores_frames(probe):
    """The control: the same probe finds the pure core's Python frames."""
    from posonly import _dropin, _inspect

    saved = _inspect._core
    _inspect._use_core(_dropin)
    try:
        with patched():
            assert PROBES[probe]() != []
    finally:
        _inspect._use_core(saved)


def test_a_failed_binds_traceback_has_no_frame_of_ours(impl):
    compiled(impl)
    with binder_class(impl), patched():
        assert failed_bind_frames() == []


def test_the_pure_cores_failed_bind_shows_its_frame():
    from posonly import _dropin, _inspect

    saved = _inspect._core
    _inspect._use_core(_dropin)
    try:
        with patched():
            assert failed_bind_frames() != []
    finally:
        _inspect._use_core(saved)


def test_a_failed_bind_shows_what_inspects_shows_or_less(impl):
    """The caller's frame, then inspect's own where inspect's code answered;
    never more frames than inspect's own failure shows."""
    sig = inspect.signature(f)
    try:
        INSPECT_BIND(sig)
    except TypeError as error:
        theirs = len(list(traceback.walk_tb(error.__traceback__)))
    with binder_class(impl), patched():
        sig = inspect.signature(f)
        try:
            sig.bind()
        except TypeError as error:
            mine = list(traceback.walk_tb(error.__traceback__))
    assert 1 <= len(mine) <= theirs
    assert mine[0][0].f_code.co_filename == __file__


def introspected():
    out = {}
    for owner, name in ((inspect, "signature"), (inspect.Signature, "bind"),
                        (inspect.Signature, "bind_partial"), (inspect.Signature, "from_callable"),
                        (inspect.BoundArguments, "apply_defaults"), (inspect, "getfullargspec"),
                        (inspect, "getcallargs")):
        member = getattr(owner, name)
        out[name] = (str(inspect.signature(member)), member.__name__, member.__qualname__,
                     member.__module__, member.__doc__, inspect.isfunction(member),
                     inspect.isroutine(member), inspect.iscoroutinefunction(member), callable(member))
    sig = inspect.signature(f)
    out["bound method"] = (str(inspect.signature(sig.bind)), inspect.ismethod(sig.bind),
                           sig.bind.__self__ is sig, sig.bind.__name__)
    out["property docs"] = (inspect.BoundArguments.args.__doc__, inspect.BoundArguments.kwargs.__doc__)
    spec = mock.create_autospec(inspect.Signature, instance=True)
    out["autospec"] = [_outcome(lambda: spec.bind(1)), _outcome(lambda: spec.bind_partial()),
                       _outcome(lambda: spec.from_callable())]
    for name in ("getfullargspec", "getcallargs"):
        specced = mock.create_autospec(getattr(inspect, name))
        out["autospec " + name] = [_outcome(lambda: specced(f)), _outcome(lambda: specced()),
                                   _outcome(lambda: specced(f, x=1))]
    return out


def _outcome(call):
    try:
        call()
        return "ok"
    except TypeError as error:
        return str(error)


def test_introspection_of_the_patched_objects_is_unchanged(impl):
    expected = introspected()
    with binder_class(impl), patched():
        assert introspected() == expected
