"""The recipes in examples/, each against the same decorator written with
inspect.Signature.bind, and against the undecorated function."""

import importlib
import pathlib
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
CALLS = 100


def _recipe(name):
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))
    return importlib.import_module(name)


@pytest.mark.parametrize("kind", ["plain", "posonly", "inspect"])
@pytest.mark.parametrize("recipe", ["validate", "trace", "memoize"])
def test_recipe(benchmark, recipe, kind):
    module = _recipe(recipe)
    decorated = module.make_decorated(kind)
    args, kwargs = module.SAMPLE_ARGS, module.SAMPLE_KWARGS
    decorated(*args, **kwargs)  # a memoized function's first call fills its cache

    def run():
        for _ in range(CALLS):
            decorated(*args, **kwargs)

    benchmark.group = f"recipe {recipe}: {CALLS} wrapped calls"
    benchmark(run)
