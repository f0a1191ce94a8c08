"""The pure drop-in's functions call no method on a name an import binds.

CPython (3.11 on) compiles ``name.method(...)`` as an attribute load and a
call, making a bound method on every call, wherever ``name`` is bound by an
import at module level (it takes it for a module's name), even where a
function's local of that name is meant: ``entries.get(key)`` on a
dict imported by name, or ``annotations.get(...)`` on a local under
``from __future__ import annotations``.  On an assigned name the method is
called without a bound method.  The pure core's per-call paths read the
cache's dicts through assigned names; this keeps it so.
"""

from __future__ import annotations

import ast
import importlib
import pathlib
import types
from typing import Any, Dict, List, Set

import pytest

import posonly

PACKAGE = pathlib.Path(posonly.__file__).resolve().parent
MODULES = sorted(path.stem for path in PACKAGE.glob("_dropin*.py"))


def imported_objects(tree: ast.Module, namespace: Dict[str, Any]) -> Set[str]:
    """The module-level names an import binds to something not a module
    (a method call on a module's name is an attribute load anyway)."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                if not isinstance(namespace.get(name), types.ModuleType):
                    names.add(name)
    return names


def method_calls_on(tree: ast.Module, names: Set[str]) -> List[str]:
    """``name.method(...)`` calls inside functions, ``name`` among ``names``."""
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in names):
                found.append(f"line {node.lineno}, {function.name}: "
                             f"{node.func.value.id}.{node.func.attr}(...)")
    return found


def test_the_pure_core_is_found() -> None:
    assert {"_dropin", "_dropin_cache", "_dropin_signature"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_no_method_call_on_an_imported_name(module: str) -> None:
    path = PACKAGE / f"{module}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    namespace = vars(importlib.import_module(f"posonly.{module}"))
    assert method_calls_on(tree, imported_objects(tree, namespace)) == []


def test_the_check_finds_such_calls() -> None:
    source = (
        "from __future__ import annotations\n"
        "from os import environ\n"
        "import os\n"
        "_environ = environ\n"
        "def f(annotations):\n"
        "    return environ.get('A'), annotations.get('B'), _environ.get('C'), os.getcwd()\n"
    )
    tree = ast.parse(source)
    namespace: Dict[str, Any] = {}
    exec(compile(tree, "<check>", "exec"), namespace)
    found = method_calls_on(tree, imported_objects(tree, namespace))
    assert found == ["line 6, f: environ.get(...)", "line 6, f: annotations.get(...)"]
