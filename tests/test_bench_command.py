"""``python -m posonly bench``, run as a user runs it, with tiny settings.

Only what the command reports is checked (the JSON's shape, which
implementation each column timed, that bad options fail before anything is
timed), never how fast anything is: speed is the bench's to measure, not a
test's to assert.
"""

import copy
import json
import os
import subprocess
import sys

import pytest

import posonly

TABLES = ("binding", "pep570", "wrapping", "creation", "clients", "migration")
CELL_KEYS = {"value", "spread", "noisy", "loops", "loops_per_process", "samples_per_process",
             "ops_per_loop", "timed", "samples"}
NUMBER_KEYS = {"value", "spread", "noisy"}


def bench(*args, env=None, check=True):
    return subprocess.run(
        [sys.executable, "-m", "posonly", "bench", "--tiny", "--no-progress", *args],
        capture_output=True, text=True, timeout=300, check=check,
        env=None if env is None else {**os.environ, **env},
    )


def unwrapped(text):
    """The report's prose as one line per paragraph (its wrapped lines go on
    indented by two spaces)."""
    return text.replace("\n  ", " ")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """One tiny run of the rows named "mixed kinds", in every table."""
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    result = bench("-k", "mixed kinds", "--json", str(out))
    return json.loads(out.read_text()), result.stdout


def test_the_json_describes_itself(mixed):
    report, stdout = mixed
    assert report["schema"] == "posonly-bench/2"
    meta = report["meta"]
    for key in ("when", "python", "version", "executable", "build", "platform", "cpu",
                "cpu_count", "implementation", "unit", "estimate", "settings", "filter",
                "posonly", "seconds"):
        assert key in meta, key
    assert meta["implementation"] == posonly.IMPLEMENTATION
    assert meta["filter"] == "mixed kinds"
    assert meta["settings"]["name"] == "tiny"
    stdout = unwrapped(stdout)
    assert f"interpreter: {meta['build']}" in stdout
    assert "filter: -k 'mixed kinds'" in stdout


def test_one_section_per_table_every_cell_with_its_samples(mixed):
    report, _ = mixed
    for key in TABLES:
        section = report[key]
        assert section["selected"] is True
        for field in ("title", "unit", "columns", "reference", "rounds", "seconds",
                      "stopped", "rows", "geomean", "rows_filtered_out"):
            assert field in section, (key, field)
        for row in section["rows"]:
            assert "mixed kinds" in row["name"]
            assert row["cells"], (key, row["name"])
            for column, cell in row["cells"].items():
                assert column in section["columns"]
                assert set(cell) == CELL_KEYS
                assert len(cell["samples"]) == section["rounds"] >= 3
                assert sum(cell["samples_per_process"]) == section["rounds"]
                assert cell["value"] == min(cell["samples"]) > 0
                assert cell["loops"] >= 1 and cell["ops_per_loop"] >= 1
            for number in row["ratios"].values():
                assert set(number) == NUMBER_KEYS
        for number in section["geomean"].values():
            assert set(number) == NUMBER_KEYS


def test_every_client_pattern_runs_on_this_interpreter(tmp_path):
    """The client table's every row, with the options the running inspect
    takes (none before 3.10, ``annotation_format`` from 3.14)."""
    from posonly.bench import clients

    out = tmp_path / "clients.json"
    bench("--tables", "clients", "--json", str(out))
    rows = json.loads(out.read_text())["clients"]["rows"]
    assert [row["name"] for row in rows] == [case.name for _, case in clients.ROWS]
    assert {pattern for pattern, _ in clients.ROWS} >= {"decorator", "getcallargs"}
    assert all(row["cells"] for row in rows)


def test_the_filter_keeps_every_section_and_says_what_it_left_out(mixed):
    report, stdout = mixed
    assert [r["name"] for r in report["binding"]["rows"]] == ["mixed kinds"]
    assert len(report["clients"]["rows"]) == 3
    # PEP 570's table has no "mixed kinds" row: reported, not silently dropped.
    assert report["pep570"]["rows"] == []
    assert report["pep570"]["rows_filtered_out"] == 4
    assert "PEP 570: no row matches -k 'mixed kinds' (4 rows left out)" in stdout


def test_the_tables_hold_their_columns(mixed):
    report, stdout = mixed
    (row,) = report["binding"]["rows"]
    expected = {"floor", "binder", "bind", "vectorcall", "exec", "drop-in", "patched", "inspect"}
    if posonly.IMPLEMENTATION == "cython":
        expected |= {"c-floor", "pure"}
        assert report["binding"]["binder_vs_c_floor"] > 0
        assert "C copy" in stdout
    assert set(row["cells"]) == expected
    assert "floor" not in row["ratios"]
    assert set(row["ratios"]) == (expected - {"floor"}) | {"drop-in speedup"}
    (creation,) = report["creation"]["rows"]
    assert set(creation["cells"]) == {"wraps-def", "binder", "wrap", "wrap-around", "layout",
                                      "inspect.signature", "posonly.signature"}
    assert "signature speedup" in creation["ratios"]
    try:
        import tracemalloc  # noqa: F401
    except ImportError:  # PyPy: the bytes are not measured, and the report says so
        assert report["creation"]["memory"]["measured"] is False
        assert "bytes" not in creation
        assert "bytes kept per object: not measured" in stdout
    else:
        assert report["creation"]["memory"]["measured"] is True
        assert set(creation["bytes"]) == set(creation["cells"])
        assert all(b > 0 for b in creation["bytes"].values())
    for row in report["clients"]["rows"]:
        assert set(row["cells"]) == {"inspect", "patched"}
        assert set(row["ratios"]) == {"speedup"}
        assert row["cells"]["patched"]["timed"] == "inspect.Signature.bind, patched"
    assert {row["pattern"] for row in report["clients"]["rows"]} == {
        "decorator", "type checker", "currying"}


def test_the_pure_mode_times_the_pure_twin(tmp_path):
    out = tmp_path / "pure.json"
    bench("-k", "one positional", "--tables", "binding,wrapping", "--json", str(out),
          env={"POSONLY_PURE_PYTHON": "1"})
    report = json.loads(out.read_text())
    assert report["meta"]["implementation"] == "python"
    (row,) = report["binding"]["rows"]
    # The binder columns are the twin's; no column is the compiled module's.
    for column in ("binder", "bind", "vectorcall"):
        assert row["cells"][column]["timed"] == "posonly._bind_py.Binder"
    assert not {"c-floor", "pure"} & set(row["cells"])
    (wrapped,) = report["wrapping"]["rows"]
    assert not {"pure before", "pure around"} & set(wrapped["cells"])
    timed = [cell["timed"] for key in TABLES for row in report[key]["rows"]
             for cell in row["cells"].values()]
    assert timed and not [t for t in timed if "posonly._bind." in t]
    assert report["pep570"]["selected"] is False


@pytest.mark.skipif(posonly.IMPLEMENTATION != "cython", reason="the compiled binder is not in use")
def test_the_compiled_mode_times_the_compiled_binder(mixed):
    report, _ = mixed
    (row,) = report["binding"]["rows"]
    for column in ("binder", "bind", "vectorcall"):
        assert row["cells"][column]["timed"] == "posonly._bind.Binder"
    assert row["cells"]["pure"]["timed"] == "posonly._bind_py.Binder"


@pytest.mark.parametrize("args, message", [
    (["--json", "/nonexistent-dir/out.json"], "cannot write /nonexistent-dir/out.json"),
    (["--pyperf", "/nonexistent-dir/out.json"], "cannot write /nonexistent-dir/out.json"),
    (["-k", "no such row anywhere"], "no row matches -k 'no such row anywhere'"),
    (["--tables", "binding,nonsense"], "unknown table 'nonsense'"),
    (["--tables", "creation", "-k", "keyword-only"], "no row matches -k 'keyword-only'"),
    (["--tables", ""], "--tables names no table; the tables are " + ", ".join(TABLES)),
    (["--tables", " , "], "--tables names no table; the tables are " + ", ".join(TABLES)),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--quick"], "argument --quick: not allowed with argument --tiny"),
])
def test_bad_options_fail_before_the_run(args, message):
    result = bench(*args, check=False)
    assert result.returncode == 2
    assert result.stderr.startswith("posonly bench: ") and message in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr  # one line naming what is wrong
    assert result.stdout == ""  # nothing was measured, nothing reported


def test_the_default_tables_leave_the_creation_table_out():
    from posonly import bench as suite

    assert suite.chosen_tables(None, None) == [t for t in TABLES if t != "creation"]
    assert suite.chosen_tables("mixed", None) == list(TABLES)  # -k looks everywhere
    assert suite.chosen_tables(None, ["creation"]) == ["creation"]


@pytest.mark.parametrize("width", [60, 80, 100, 140])
def test_the_report_fits_the_width(mixed, width):
    from posonly.bench import grid, report

    result, _ = mixed
    text = report.format_report(result, width)
    assert max(map(len, text.splitlines())) <= width
    untraced = copy.deepcopy(result)  # as where there is no tracemalloc (PyPy)
    untraced["creation"]["memory"]["measured"] = False
    untraced_text = report.format_report(untraced, width)
    assert "bytes kept per object: not measured" in unwrapped(untraced_text)
    assert max(map(len, untraced_text.splitlines())) <= width
    # Every ratio of every row is printed, as the JSON has it, in some block.
    for key in TABLES:
        for row in result[key]["rows"]:
            for column, ratio in row["ratios"].items():
                if key != "pep570":
                    assert grid.ratio(ratio, 0).strip() in text, (key, column)


def test_the_command_fits_columns():
    done = bench("-k", "mixed kinds", "--tables", "binding,wrapping", env={"COLUMNS": "72"})
    assert max(map(len, done.stdout.splitlines())) <= 72
    wide = bench("-k", "mixed kinds", "--tables", "binding", env={"COLUMNS": "250"})
    assert max(map(len, wide.stdout.splitlines())) > 100  # one block: the room is used


def _progress(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "posonly", "bench", "--tiny", *args],
        capture_output=True, text=True, timeout=300, check=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})})


def test_progress_says_which_table_of_how_many_and_the_time_left():
    done = _progress("-k", "mixed kinds", "--tables", "binding,wrapping,clients")
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith("posonly bench: table ") for line in lines), lines
    for k, title in ((1, "Binding"), (2, "Wrapping"), (3, "Client patterns")):
        assert any(line.startswith(f"posonly bench: table {k}/3 ({title}) \u00b7 round ")
                   and line.endswith(" s left") for line in lines), (k, lines)
    assert "\r" not in done.stderr  # not a terminal: plain lines


def test_progress_on_a_terminal_is_one_line_rewritten():
    pty = pytest.importorskip("pty")
    main, secondary = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "posonly", "bench", "--tiny", "-k", "mixed kinds",
             "--tables", "binding,pep570,wrapping"],
            stdout=subprocess.PIPE, stderr=secondary, timeout=300, check=True,
            env={**os.environ, "COLUMNS": "70", "PYTHONIOENCODING": "utf-8"})
        os.close(secondary)
        secondary = -1
        chunks = []
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(main)
        if secondary >= 0:
            os.close(secondary)
    shown = b"".join(chunks).decode("utf-8")
    assert done.stdout
    assert "\n" not in shown.replace("\r\n", "\r")  # never a new line: rewritten
    updates = [u for u in shown.split("\r") if u.strip()]
    assert updates and all(len(u) <= 69 for u in updates)
    assert any("table 2/2 (Wrapping)" in u for u in updates)  # PEP 570: no row matches


def test_an_existing_output_file_is_left_alone_until_written(tmp_path):
    out = tmp_path / "kept.json"
    out.write_text("old")
    result = bench("--json", str(out), "-k", "no such row anywhere", check=False)
    assert result.returncode == 2
    assert out.read_text() == "old"


def test_plain_cells_run_inspects_own_code_beside_the_patch():
    """A table with patched cells is measured with the patch on; its plain
    cells bind through subclasses that keep inspect's own methods, with the
    answers of unpatched inspect."""
    import inspect

    from posonly.bench import _targets

    def f(a, b=2, /, *args, c, **kw):
        pass

    plain_before = inspect.signature(f).bind(1, 3, c=4, x=5)
    plain_before.apply_defaults()
    own = {name: inspect.BoundArguments.__dict__[name] for name in ("args", "kwargs", "apply_defaults")}
    own_bind = inspect.Signature.__dict__["bind"]
    with _targets.patched():
        assert _targets.is_patched()
        _targets.require_patch()
        assert inspect.Signature.__dict__["bind"] is not own_bind
        sig = _targets.plain_inspect.signature(f)
        assert type(sig) is _targets.PlainSignature
        ba = sig.bind(1, 3, c=4, x=5)
        assert type(ba) is _targets.PlainBoundArguments
        for name, original in own.items():
            assert getattr(type(ba), name) is getattr(original, "__func__", original)
        assert type(sig).bind is own_bind
        ba.apply_defaults()
        assert (ba.arguments, ba.args, ba.kwargs) == (
            plain_before.arguments, plain_before.args, plain_before.kwargs)
        with pytest.raises(TypeError) as refused:
            sig.bind(1)
        with pytest.raises(TypeError) as refused_before:
            _targets._inspect_own(inspect.Signature, "bind")(inspect.signature(f), 1)
        assert str(refused.value) == str(refused_before.value)
    assert not _targets.is_patched()
    with pytest.raises(RuntimeError, match="without patch_inspect"):
        _targets.require_patch()


def test_the_creation_table_s_fresh_functions_are_as_compiled_and_each_its_own():
    import inspect

    from posonly.bench import creation

    for _, params in creation.SIGNATURES:
        one, two = creation.FreshFunctions(params).take(2)
        assert one.__code__ is not two.__code__
        assert set(one.__code__.co_varnames).isdisjoint(two.__code__.co_varnames)
        assert one.__defaults__ is None or one.__defaults__ is not two.__defaults__
        assert one.__kwdefaults__ is None or one.__kwdefaults__ is not two.__kwdefaults__
        namespace = {}
        suffix = one.__name__[1:]
        exec(f"def {one.__name__}({params.format(u=suffix)}):\n    return None\n", namespace)
        compiled = namespace[one.__name__]
        assert inspect.signature(one) == inspect.signature(compiled)
        assert (one.__name__, one.__qualname__) == (compiled.__name__, compiled.__qualname__)
        assert (one.__defaults__, one.__kwdefaults__) == (
            compiled.__defaults__, compiled.__kwdefaults__)
        for field in ("co_varnames", "co_argcount", "co_posonlyargcount", "co_kwonlyargcount",
                      "co_flags", "co_name"):
            assert getattr(one.__code__, field) == getattr(compiled.__code__, field), field
        assert all(name is sys.intern(name) for name in one.__code__.co_varnames)
