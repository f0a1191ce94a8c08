"""The README's quick start works as written."""

import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_validating_decorator_of_the_quick_start_works():
    (block,) = [b for b in python_blocks() if "def validate(" in b]
    # The block ends with two example calls; run the definitions, then check
    # what the comments next to those calls promise.
    definitions = block.split("\npay(5")[0]
    namespace = {}
    exec(definitions, namespace)
    pay = namespace["pay"]
    assert pay(5, note="rent") == (5, "EUR", "rent")
    with pytest.raises(ValueError, match=r"pay\(\): bad amount=-5"):
        pay(-5)
    with pytest.raises(TypeError, match=r"pay\(\) missing 1 required positional argument: 'amount'"):
        pay()


def test_the_first_example_says_what_the_binder_does():
    block = python_blocks()[0]
    namespace = {}
    exec(block.split("\nbind(1, 2, 3")[0], namespace)
    bind = namespace["bind"]
    assert bind(1, 2, 3, e=5) == (1, 2, 3, 4, 5, 7)
    with pytest.raises(TypeError) as info:
        bind(1, 2, c=3)
    assert str(info.value) == "f() missing 1 required keyword-only argument: 'e'"
    assert "# TypeError: f() missing 1 required keyword-only argument: 'e'" in block
