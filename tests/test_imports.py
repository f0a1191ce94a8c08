"""Imports flow one way: every module of the package imports alone, and the
package's import graph, imports inside functions included, has no cycle."""

from __future__ import annotations

import ast
import importlib.machinery
import os
import pathlib
import re
import subprocess
import sys
from typing import Dict, List, Set

import pytest

import posonly

PACKAGE = pathlib.Path(posonly.__file__).resolve().parent
SOURCES = pathlib.Path(__file__).resolve().parent.parent / "src" / "posonly"
"""The tree's sources when the tests run from a checkout: the installed
package has no ``.pyx``/``.pxi`` files, and their ``cimport``s and
``import``s are edges too."""


def module_names() -> List[str]:
    """The package's modules as installed: its Python files and the
    compiled modules built here."""
    names = []
    paths = list(PACKAGE.rglob("*.py"))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        paths += [path.with_name(path.name.split(".")[0] + ".py")
                  for path in PACKAGE.rglob("*" + suffix)]
    for path in sorted(set(paths)):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] == "__main__":
            continue  # runs the command line when imported
        names.append(".".join(parts))
    return names


def _resolve(module: str, is_package: bool, level: int, target: str) -> str:
    if level == 0:
        return target
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def python_edges(path: pathlib.Path, module: str) -> Set[str]:
    """The package's modules ``module`` imports, at any depth of its code."""
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module or "")
            # Each name is a submodule or else a name of the module ``base``;
            # the graph keeps whichever is the package's module.
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


_CYTHON_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+c?import[ \t]+([\w ,\t]*)|c?import[ \t]+([\w.]+))", re.M)


def compiled_modules() -> Dict[str, List[pathlib.Path]]:
    """Each compiled module of the tree, with its sources: its ``.pyx`` and
    the ``.pxi`` files beside it, which it includes."""
    return {
        ".".join(pyx.relative_to(SOURCES.parent).with_suffix("").parts):
            [pyx] + sorted(pyx.parent.glob("*.pxi"))
        for pyx in sorted(SOURCES.rglob("*.pyx"))
    }


def cython_edges(module: str, sources: List[pathlib.Path]) -> Set[str]:
    """The package's modules a compiled module's sources import, at any
    depth (names on a parenthesised import's later lines add no module:
    the module before ``import`` is an edge already)."""
    found: Set[str] = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for source, names, plain in _CYTHON_IMPORT.findall(text):
            if plain:
                found.add(plain)
                continue
            level = len(source) - len(source.lstrip("."))
            base = _resolve(module, False, level, source.lstrip("."))
            listed = [name.strip() for name in names.split(",") if name.strip()]
            found.update([f"{base}.{name}" for name in listed] or [base])
    return found


def import_graph() -> Dict[str, Set[str]]:
    names = set(module_names())
    graph: Dict[str, Set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        graph[module] = python_edges(path, module)
    if SOURCES.is_dir():
        for module, sources in compiled_modules().items():
            graph[module] = cython_edges(module, sources)
    known = names | set(graph)
    # An import names a module, or a name inside one: the edge goes to the
    # nearest enclosing module of the package.  (That importing a submodule
    # runs its package's __init__ first is no edge: the package's modules
    # all sit below it.)
    for module, edges in graph.items():
        closed = set()
        for edge in edges:
            while edge and edge not in known:
                edge = edge.rpartition(".")[0]
            if edge and edge != module:
                closed.add(edge)
        graph[module] = closed
    return graph


def find_cycle(graph: Dict[str, Set[str]]) -> List[str]:
    """One cycle of ``graph`` as a path, or [] when there is none."""
    state: Dict[str, int] = {}
    stack: List[str] = []

    def visit(node: str) -> List[str]:
        state[node] = 1
        stack.append(node)
        for edge in sorted(graph.get(node, ())):
            if state.get(edge) == 1:
                return stack[stack.index(edge):] + [edge]
            if edge not in state:
                cycle = visit(edge)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return []


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_graph_sees_imports_inside_functions(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text("def f():\n    from . import other\n    from .deep import name\n")
    assert python_edges(path, "pkg.mod") == {"pkg.other", "pkg.deep.name"}


def test_the_package_has_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert not cycle, "import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("pure", ["0", "1"])
def test_every_module_imports_alone(pure):
    """Each module, imported first in a fresh interpreter, imports: none
    relies on another having been imported before it."""
    env = dict(os.environ, POSONLY_PURE_PYTHON=pure)
    script = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    for loaded in [m for m in sys.modules if m == 'posonly' or m.startswith('posonly.')]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
    )
    for name in module_names():
        # One interpreter per module: a module's import must not lean on
        # state another module's import left behind.
        result = subprocess.run([sys.executable, "-c", script, name], env=env,
                                capture_output=True, text=True)
        assert result.returncode == 0, f"{name}:\n{result.stderr}"
