"""What a handler pays to read a call's values by name: Layout's methods
against the same job written by hand, and the recipes in examples/ against a
``functools.wraps`` pass-through.

Groups:

- ``values: <method>``: one handler call doing the job, written by hand
  (``hand``: a dict comprehension, a list copy, a ``frozenset`` of the
  ``**kwargs`` items, an index) and with the layout's method, compiled
  (``cython``) and pure (``python``).  Each is a closure called with the
  same locals tuple, as a handler is.
- ``recipe <name>``: the recipe's decorator (``posonly``: its code in
  examples/, on the layout's methods), the same decorator with the plumbing
  written by hand (``hand``), the ``inspect`` version, a ``functools.wraps``
  pass-through def (``wraps``, which sees nothing) and the undecorated
  function (``plain``).

``pytest benchmarks/test_handler_values.py`` runs them; the ratios to quote
are within a group, measured in one run.
"""

import functools
import importlib.util
import pathlib
import sys
from typing import Any, Callable, Dict

import pytest

import posonly
from posonly import Layout
from posonly._values import PURE_VALUE_METHODS

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
CALLS = 100


def _compiled_methods() -> Any:
    try:
        from posonly import _bind
    except ImportError:
        return None
    return _bind.LAYOUT_METHODS


def fetch(url, /, timeout=10, *headers, retries=3, **options):
    return url


class _PureLayout(Layout):
    """A Layout whose methods are the pure ones, whatever is installed."""

    __slots__ = ()


for _name, _method in PURE_VALUE_METHODS.items():
    setattr(_PureLayout, _name, _method)


def _layouts() -> Dict[str, Layout]:
    layout = Layout.from_callable(fetch)
    out = {}
    compiled = _compiled_methods()
    if compiled is not None:
        class _CompiledLayout(Layout):
            __slots__ = ()

        for name, method in compiled.items():
            setattr(_CompiledLayout, name, method)
        out["cython"] = _CompiledLayout(
            layout.name, layout.posonly, layout.positional, layout.varargs, layout.kwonly,
            layout.varkw, layout.defaults, layout.kwdefaults,
        )
    out["python"] = _PureLayout(
        layout.name, layout.posonly, layout.positional, layout.varargs, layout.kwonly,
        layout.varkw, layout.defaults, layout.kwdefaults,
    )
    return out


VALUES = posonly.binder(fetch)("https://example.org", 5, "Accept: */*", retries=1, stream=True)


def _by_hand() -> Dict[str, Callable[[tuple], Any]]:
    """Each job as decorator authors write it without the methods."""
    layout = Layout.from_callable(fetch)
    slots = {n: i for i, n in enumerate(layout.names)}
    order = [(n, slots[n]) for n in ("url", "timeout", "headers", "retries", "options")]
    keep = [i for i, n in enumerate(layout.names) if n != "retries"]
    timeout = slots["timeout"]

    def arguments(values):
        return {n: values[i] for n, i in order}

    def key(values):
        return values[:-1] + (frozenset(values[-1].items()),)

    def key_ignoring(values):
        kept = tuple([values[i] for i in keep])
        return kept[:-1] + (frozenset(kept[-1].items()),)

    def replace(values):
        items = list(values)
        items[timeout] = 7
        return tuple(items)

    def instance(values):
        return values[0]

    return {"arguments": arguments, "key": key, "key ignoring": key_ignoring,
            "replace": replace, "instance": instance}


def _with_methods(layout: Layout) -> Dict[str, Callable[[tuple], Any]]:
    ignored = ("retries",)

    def arguments(values):
        return layout.arguments(values)

    def key(values):
        return layout.key(values)

    def key_ignoring(values):
        return layout.key(values, ignored)

    def replace(values):
        return layout.replace(values, timeout=7)

    def instance(values):
        return layout.instance(values)

    return {"arguments": arguments, "key": key, "key ignoring": key_ignoring,
            "replace": replace, "instance": instance}


def _handlers() -> Dict[str, Dict[str, Callable[[tuple], Any]]]:
    out = {"hand": _by_hand()}
    for name, layout in _layouts().items():
        out[name] = _with_methods(layout)
    return out


HANDLERS = _handlers()


@pytest.mark.parametrize("kind", list(HANDLERS))
@pytest.mark.parametrize("job", list(HANDLERS["hand"]))
def test_handler_job(benchmark, job, kind):
    handler = HANDLERS[kind][job]
    expected = HANDLERS["hand"][job](VALUES)
    assert handler(VALUES) == expected
    values = VALUES

    def run():
        for _ in range(CALLS):
            handler(values)

    benchmark.group = f"values: {job}: {CALLS} handler calls"
    benchmark(run)


# -- the recipes ----------------------------------------------------------------


def _load_example(name):
    spec = importlib.util.spec_from_file_location(f"posonly_bench_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _hand_validate(module):
    """validate as it was written before the methods: the indexes by hand."""
    def validate(**rules):
        def decorate(func):
            names = Layout.from_callable(func).names
            checks = [(names.index(name), name, rule) for name, rule in rules.items()]

            def check(values):
                for index, name, rule in checks:
                    if not rule(values[index]):
                        raise module.ValidationError(func.__qualname__, name, values[index])

            return posonly.wrap(func, before=check)
        return decorate
    return validate(**module.SAMPLE_RULES)(module.pay)


def _hand_memoize(module):
    """memoize with its key made by hand."""
    def memoize(ignore=()):
        def decorate(func):
            layout = Layout.from_callable(func)
            keep = [i for i, name in enumerate(layout.names) if name not in ignore]
            whole = len(keep) == len(layout.names)
            varkw = layout.varkw is not None and layout.varkw not in ignore
            cache = {}

            def cached(proceed, values):
                key = values if whole else tuple([values[i] for i in keep])
                if varkw:
                    key = key[:-1] + (frozenset(key[-1].items()),)
                try:
                    return cache[key]
                except KeyError:
                    result = cache[key] = proceed(values)
                    return result

            return posonly.wrap(func, around=cached)
        return decorate
    return memoize(ignore=module.SAMPLE_IGNORE)(module.area)


def _hand_trace(module):
    """trace with the names in signature order made by hand."""
    last = []

    def trace(record):
        def decorate(func):
            layout = Layout.from_callable(func)
            name = func.__qualname__
            slots = {n: i for i, n in enumerate(layout.names)}
            order = [(n, slots[n]) for n in layout.posonly + layout.positional]
            if layout.varargs is not None:
                order.append((layout.varargs, slots[layout.varargs]))
            order += [(n, slots[n]) for n in layout.kwonly]
            if layout.varkw is not None:
                order.append((layout.varkw, slots[layout.varkw]))

            def before(values):
                record(module.Call(name, {n: values[i] for n, i in order}))

            return posonly.wrap(func, before=before)
        return decorate

    def keep_last(call):
        last[:] = [call]

    return trace(keep_last)(module.fetch)


HAND = {"validate": _hand_validate, "memoize": _hand_memoize, "trace": _hand_trace}
SAMPLE = {"validate": "pay", "memoize": "area", "trace": "fetch"}


def _decorated(recipe, kind):
    module = _load_example(recipe)
    if kind == "hand":
        return HAND[recipe](module)
    if kind == "wraps":
        func = getattr(module, SAMPLE[recipe])

        @functools.wraps(func)
        def pass_through(*args, **kwargs):
            return func(*args, **kwargs)

        return pass_through
    return module.make_decorated(kind)


@pytest.mark.parametrize("kind", ["plain", "wraps", "posonly", "hand", "inspect"])
@pytest.mark.parametrize("recipe", ["validate", "memoize", "trace"])
def test_recipe_against_wraps(benchmark, recipe, kind):
    module = _load_example(recipe)
    decorated = _decorated(recipe, kind)
    args, kwargs = module.SAMPLE_ARGS, module.SAMPLE_KWARGS
    decorated(*args, **kwargs)  # a memoized function's first call fills its cache

    def run():
        for _ in range(CALLS):
            decorated(*args, **kwargs)

    benchmark.group = f"recipe {recipe}: {CALLS} calls"
    benchmark(run)
