"""The observer of either core: with one set, each call of a patched entry
point reports (entry, reason), reason None where the core served it, else a
key of FALLBACK_REASONS; with none set (the default), nothing is reported
and the answers are the same."""

import inspect
import sys

import pytest

import posonly
from posonly import _inspect, _options
from posonly._dialect import ENTRIES, FALLBACK_REASONS
from test_inspect_dropin import binder_class, patched


OPTIONS = sys.version_info >= (3, 10)  # inspect.signature's eval_str


def f(a, b=2, *, c):
    pass


class Own(inspect.Signature):
    def _bind(self, args, kwargs, *, partial=False):
        return super()._bind(args, kwargs, partial=partial)


def run():
    sig = inspect.signature(f)
    inspect.Signature.from_callable(f)
    ba = sig.bind(1, c=3)
    ba.apply_defaults()
    sig.bind_partial(1)
    inspect.signature(list.index)
    if OPTIONS:
        inspect.signature(f, eval_str=False)
    inspect.Signature.from_callable(f, follow_wrapped=False)
    posonly.signature(f)
    Own.from_callable(f).bind(1, c=2)


EXPECTED = [
    ("inspect.signature", None),
    ("Signature.from_callable", None),
    ("Signature.bind", None),
    ("BoundArguments.apply_defaults", None),
    ("Signature.bind_partial", None),
    # A builtin whose defaults name a module constant (sys.maxsize).
    ("inspect.signature", _options.why_not(inspect.Signature, list.index)),
    *([("inspect.signature", None)] if OPTIONS else []),  # an option served
    ("Signature.from_callable", None),
    ("posonly.signature", None),
]


def test_each_call_is_reported(impl):
    reports = []
    with binder_class(impl), patched():
        core = _inspect._core
        assert core.get_observer() is None
        core.set_observer(lambda entry, reason: reports.append((entry, reason)))
        try:
            run()
        finally:
            core.set_observer(None)
        assert core.get_observer() is None
        run()  # reports nothing
    for entry, reason in reports:
        assert entry in ENTRIES
        assert reason is None or reason in FALLBACK_REASONS
    assert reports[:len(EXPECTED)] == EXPECTED
    # A Signature subclass binding its own way: made by the core, bound by
    # inspect's code (the compiled core says why; the pure one calls the
    # subclass's _bind itself).
    own = reports[len(EXPECTED):]
    assert own[0] == ("Signature.from_callable", None)
    assert own[-1][0] == "Signature.bind"
    if impl.name == "cython":
        assert own[-1] == ("Signature.bind", "signature-subclass")


def test_an_observer_must_be_callable(impl):
    with binder_class(impl):
        with pytest.raises(TypeError):
            _inspect._core.set_observer(1)
