"""What :func:`inspect.signature` answers for the public callables and types:
the same in both implementations, and what a user calls them with."""

import inspect

import pytest

import posonly

WRAP = "(func, *, before=None, around=None, form=False)"
BINDER_CLASS = "(layout, call=None)"


def test_wrap(impl):
    assert str(inspect.signature(impl.wrap)) == WRAP


def test_wrapper_type(impl):
    assert str(inspect.signature(impl.Wrapper)) == WRAP


def test_binder_type(impl):
    assert str(inspect.signature(impl.Binder)) == BINDER_CLASS


def test_binder_function():
    signature = inspect.signature(posonly.binder)
    assert list(signature.parameters) == ["target", "follow_wrapped"]
    assert signature.parameters["follow_wrapped"].kind is inspect.Parameter.KEYWORD_ONLY


def test_the_signatures_work_as_calls(impl):
    # The signatures are the ones the callables take: binding a call to them
    # succeeds exactly when the call does.
    def f(a, b=2):
        return a

    for call_args, call_kwargs in [((f,), {"before": print}), ((f,), {"around": print})]:
        inspect.signature(impl.wrap).bind(*call_args, **call_kwargs)
        assert impl.wrap(*call_args, **call_kwargs)(1) is not None or True
    with pytest.raises(TypeError):
        inspect.signature(impl.wrap).bind(f, print)
    with pytest.raises(TypeError):
        impl.wrap(f, print)
    layout = posonly.Layout.from_callable(f)
    inspect.signature(impl.Binder).bind(layout)
    assert impl.Binder(layout)(1) == (1, 2)


def test_a_wrapper_answers_the_functions_signature(impl):
    def f(a: int, /, b: str = "x", *, c: float) -> bool:
        return True

    wrapper = impl.wrap(f, before=len)
    assert inspect.signature(wrapper) == inspect.signature(f)
    assert inspect.signature(wrapper, follow_wrapped=False) == inspect.signature(f)


def test_both_implementations_answer_alike():
    from conftest import IMPLEMENTATIONS, _load

    loaded = []
    for name in IMPLEMENTATIONS:
        try:
            loaded.append(_load(name))
        except pytest.skip.Exception:
            continue
    for attribute in ("wrap", "Wrapper", "Binder"):
        answers = {str(inspect.signature(getattr(i, attribute))) for i in loaded}
        assert len(answers) == 1, (attribute, answers)
