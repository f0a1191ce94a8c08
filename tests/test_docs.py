"""The README and the documentation say what is true.

- Every ```python block of README.md and docs/*.md runs, under each
  implementation, in a fresh interpreter (the blocks of one page in order,
  in one namespace).  A statement whose line ends in ``# -> VALUE`` must
  give a value whose ``repr`` is VALUE; one whose line ends in
  ``# SomeError: message`` must raise that exception with that message (a
  check too long for the statement's line may stand alone on the next, and
  go on over comment lines indented under it, ``#   ...``).
- Every ``>>>`` example of the API reference runs as a doctest, under each
  implementation, the page's examples in order in one namespace.
- Every line of a page's code fits the site's content column.
- The README is a door: at most 150 lines, with ``pip install`` and a first
  example in its first 40.
- The documentation site builds with warnings as errors (a broken reference
  or a stale API name fails), where Sphinx, MyST and Furo are installed (the
  test requirements install them for one interpreter, CPython 3.13).  Its
  inventory (objects.inv) lists every name of ``posonly.__all__`` and every
  public attribute and method both implementations give its classes, and
  nothing else; each entry of the reference holds an example.
- The check that stops a session on an installed package older than the
  tree's sources (tests/conftest.py) finds what it should.
"""

import importlib.machinery
import importlib.util
import os
import pathlib
import posixpath
import re
import subprocess
import sys

import pytest

import posonly

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README] + sorted(DOCS.glob("*.md"))

# Runs one page's python blocks: argv[1] the page, argv[2] the implementation
# expected.  Each top-level statement runs on its own; the comment at the end
# of its last line says what it must give.
RUNNER = r'''
import ast, re, sys, traceback
import posonly

path, expected = sys.argv[1], sys.argv[2]
assert posonly.IMPLEMENTATION == expected, (posonly.IMPLEMENTATION, expected)
text = open(path, encoding="utf-8").read()
namespace = {"__name__": "__docs__"}
checked = 0
CHECK = r"#\s*(->\s*(?P<value>.*?)|(?P<error>[A-Z]\w*(Error|Exception)): (?P<message>.*?))\s*$"
for match in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
    first_line = text.count("\n", 0, match.start()) + 2
    source = match.group(1)
    lines = source.splitlines()
    for node in ast.parse(source).body:
        where = f"{path}:{first_line + node.lineno - 1}"
        # The check ends the statement's last line, or stands alone on the
        # line below; comment lines indented under it ("#   more") continue it.
        below = node.end_lineno
        check = lines[node.end_lineno - 1]
        if not re.search(CHECK, check) and below < len(lines) and re.fullmatch(r"\s*" + CHECK, lines[below]):
            check, below = lines[below], below + 1
        while below < len(lines) and re.match(r"\s*#   +\S", lines[below]):
            check += " " + lines[below].split("#", 1)[1].strip()
            below += 1
        said = re.search(CHECK, check)
        statement = ast.Module([node], type_ignores=[])
        try:
            if said and said.group("value") is not None:
                assert isinstance(node, ast.Expr), f"{where}: '# ->' follows an expression only"
                value = eval(compile(ast.Expression(node.value), where, "eval"), namespace)
                assert repr(value) == said.group("value"), (
                    f"{where}: {repr(value)} where the page says {said.group('value')}")
                checked += 1
            elif said and said.group("error"):
                try:
                    exec(compile(statement, where, "exec"), namespace)
                except Exception as error:
                    got = f"{type(error).__name__}: {error}"
                    want = f"{said.group('error')}: {said.group('message')}"
                    assert got == want, f"{where}: raised {got!r} where the page says {want!r}"
                    checked += 1
                else:
                    raise AssertionError(f"{where}: raised nothing where the page says {said.group('error')}")
            else:
                exec(compile(statement, where, "exec"), namespace)
        except AssertionError:
            raise
        except BaseException:
            traceback.print_exc()
            raise SystemExit(f"{where}: the example failed")
print("checked", checked)
'''

# Runs one page's doctest examples (the ``>>>`` lines of the API reference's
# entries), in order, in one namespace: argv[1] the page, argv[2] the
# implementation expected.
DOCTEST_RUNNER = r'''
import doctest, sys
import posonly

path, expected = sys.argv[1], sys.argv[2]
assert posonly.IMPLEMENTATION == expected, (posonly.IMPLEMENTATION, expected)
with open(path, encoding="utf-8") as file:
    text = file.read()
test = doctest.DocTestParser().get_doctest(text, {"__name__": "__docs__"}, path, path, 0)
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
runner.run(test)
failed, attempted = runner.summarize(verbose=False)
assert attempted, f"{path}: no example"
print("checked", attempted)
sys.exit(1 if failed else 0)
'''


def python_blocks(page):
    return re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)], ids=lambda p: p.name)
def test_every_python_example_runs_as_written(page, impl):
    env = dict(os.environ)
    env.pop("POSONLY_PURE_PYTHON", None)
    if impl.name == "python":
        env["POSONLY_PURE_PYTHON"] = "1"
    result = subprocess.run(
        [sys.executable, "-X", "dev", "-W", "error", "-c", RUNNER, str(page), impl.name],
        capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _doctests(page):
    return re.search(r"^\s*>>> ", page.read_text(encoding="utf-8"), re.M) is not None


@pytest.mark.parametrize("page", [p for p in PAGES if _doctests(p)], ids=lambda p: p.name)
def test_every_reference_example_runs_as_written(page, impl):
    env = dict(os.environ)
    env.pop("POSONLY_PURE_PYTHON", None)
    if impl.name == "python":
        env["POSONLY_PURE_PYTHON"] = "1"
    result = subprocess.run(
        [sys.executable, "-X", "dev", "-W", "error", "-c", DOCTEST_RUNNER, str(page), impl.name],
        capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_pages_say_what_their_examples_give():
    # Examples that only run would let a page's promises go stale: the
    # README's do state results.
    said = re.findall(r"#\s*(->|[A-Z]\w*Error:)", "".join(python_blocks(README)))
    assert len(said) >= 4


def test_the_readme_is_short_and_starts_with_install_and_an_example():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; the rest belongs in docs/"
    first_screen = "\n".join(lines[:40])
    assert "pip install posonly" in first_screen
    assert "```python" in first_screen


CODE_WIDTH = 88
"""The characters of a code block's line that the site's content column
(Furo's, in a 1280 px window) shows without scrolling."""


def _code_lines(page):
    """(line number, line) of every line of the page's code: its fenced
    blocks, and the ``>>>`` examples (with their output) in its reST."""
    fence = None
    in_example = False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fence = line[3:].strip() if fence is None else None
            in_example = False
            continue
        if fence == "{eval-rst}":
            in_example = line.strip().startswith(">>>") or (in_example and line.strip() != "")
            if in_example:
                yield number, line.strip()
        elif fence is not None and not fence.startswith("{"):
            yield number, line


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_code_lines_fit_the_page(page):
    too_long = [f"{page.name}:{number}: {len(line)} characters"
                for number, line in _code_lines(page) if len(line) > CODE_WIDTH]
    assert too_long == []


def test_the_readmes_links_lead_somewhere():
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if "://" in target:
            continue
        assert (ROOT / target).exists(), target


def test_the_api_page_documents_every_public_name():
    api = (DOCS / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\.\. auto\w+:: posonly\.(\w+)", api, re.M))
    assert documented == set(posonly.__all__)


def _have_sphinx():
    return all(importlib.util.find_spec(name) is not None for name in ("sphinx", "myst_parser", "furo"))


needs_sphinx = pytest.mark.skipif(not _have_sphinx(), reason="sphinx, myst-parser and furo are not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built once with warnings as errors: its html folder."""
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ)
    env.pop("PYTHONWARNINGS", None)
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
         "-d", str(out / "doctrees"), str(DOCS), str(out / "html")],
        capture_output=True, text=True, env=env, cwd=str(out), timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return out / "html"


@needs_sphinx
def test_the_documentation_builds_with_warnings_as_errors(site):
    assert (site / "api.html").exists()


def _public_members(cls, instance):
    """The public attributes and methods a class of posonly's gives its
    instances: those its own classes define (or declare, or set on the
    instance), not those of a base outside posonly (functools.partial's,
    inspect.Signature's)."""
    names = set()
    for klass in type(instance).__mro__ + cls.__mro__:
        if klass.__module__.split(".")[0] == "posonly":
            names |= set(vars(klass)) | set(vars(klass).get("__annotations__", {}))
    try:
        names |= set(object.__getattribute__(instance, "__dict__"))
    except (AttributeError, TypeError):
        pass
    return {name for name in names if not name.startswith("_")}


def _instances(namespace):
    def f(a, /, b=2, *, c):
        pass

    return {
        "Binder": namespace.binder(f),
        "CallForm": posonly.CallForm(posonly.Layout.from_callable(f), 1, ("c",)),
        "Wrapper": namespace.wrap(f, before=print),
        "Layout": posonly.Layout.from_callable(f),
        "Served": posonly.record_served(),
        "Signature": posonly.signature(f),
    }


@needs_sphinx
def test_the_reference_lists_every_public_name_and_member_and_no_other(site):
    """Read from the built site's inventory: every name of posonly.__all__,
    and every public attribute and method of its classes that both
    implementations have, is documented; nothing documented is missing from
    either (a partial's func, args and keywords are not a binder's)."""
    from sphinx.util.inventory import InventoryFile

    from conftest import IMPLEMENTATIONS, _load

    with open(site / "objects.inv", "rb") as file:
        inventory = InventoryFile.load(file, "", posixpath.join)
    documented = {name for kind, entries in inventory.items() if kind.startswith("py:")
                  for name in entries if name.startswith("posonly.")}
    assert {"posonly." + name for name in posonly.__all__} <= documented
    try:
        namespaces = [_load(name) for name in IMPLEMENTATIONS]
    except pytest.skip.Exception:  # only the pure twin here: its class shows partial's
        pytest.skip("the compiled binder is not built")
    classes = [name for name in posonly.__all__ if isinstance(getattr(posonly, name), type)]
    assert sorted(classes) == ["Binder", "CallForm", "Layout", "Served", "Signature", "Wrapper"]
    for name in classes:
        per_implementation = [
            _public_members(getattr(namespace, name, getattr(posonly, name)), _instances(namespace)[name])
            for namespace in namespaces
        ]
        shared = set.intersection(*per_implementation)
        listed = {entry.rsplit(".", 1)[1] for entry in documented
                  if entry.startswith(f"posonly.{name}.")}
        assert shared - listed == set(), f"posonly.{name}: not in the reference"
        assert listed - shared == set(), f"posonly.{name}: documented, but not every implementation has it"


@needs_sphinx
def test_every_reference_entry_has_an_example(site):
    """Each documented object's own text (not its members') holds a ``>>>``
    example, which test_every_reference_example_runs_as_written runs."""
    bs4 = pytest.importorskip("bs4")  # a dependency of furo
    page = bs4.BeautifulSoup((site / "api.html").read_text(encoding="utf-8"), "html.parser")
    entries = page.select("dt[id^='posonly.']")
    assert len(entries) >= len(posonly.__all__)
    without = []
    for term in entries:
        body = term.find_next_sibling("dd")
        for nested in body.find_all("dl"):
            nested.extract()
        if ">>>" not in body.get_text():
            without.append(term["id"])
    assert without == []


def test_a_stale_install_is_found(tmp_path):
    """tests/conftest.py stops a session whose installed package is older
    than the tree's sources; its check finds a changed, a missing and
    (in an editable install) an outdated compiled file."""
    from conftest import stale_sources

    source, installed = tmp_path / "src", tmp_path / "site"
    for top in (source, installed):
        (top / "bench").mkdir(parents=True)
        (top / "_served.py").write_text("x = 1\n")
        (top / "_binder.pxi").write_text("# pxi\n")
        (top / "bench" / "suites.py").write_text("y = 2\n")
    assert stale_sources(str(installed), str(source)) == []
    (source / "_served.py").write_text("x = 2\n")
    (source / "new.py").write_text("z = 3\n")
    assert stale_sources(str(installed), str(source)) == ["_served.py", "new.py"]
    # Editable: the package is the tree; a compiled module built before its
    # source was changed (one that hides a .py of its name, or one of .pyx).
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (source / "_options.py").write_text("o = 1\n")
    (source / "_bind.pyx").write_text("# pyx\n")
    for name in ("_options", "_bind"):
        (source / (name + suffix)).write_bytes(b"")
        os.utime(source / (name + suffix), (1, 1))
    assert stale_sources(str(source), str(source)) == sorted(["_options" + suffix, "_bind" + suffix])
    os.utime(source / ("_options" + suffix))
    os.utime(source / ("_bind" + suffix))
    assert stale_sources(str(source), str(source)) == []
