"""``python -m posonly compare`` and ``--pyperf``: significance from the
samples, on results made by the bench itself with tiny settings."""

import copy
import json
import os
import subprocess
import sys

import pytest

from posonly import bench
from posonly.bench import report

#: Enough rounds for a test of the samples to resolve a change, tiny samples.
SETTINGS = bench.Settings("test", sample_ns=2e4, min_rounds=12, max_rounds=12,
                          table_seconds=5.0, check_every=1)


@pytest.fixture(scope="module")
def result():
    return bench.run(SETTINGS, tables=["pep570"], progress=False)


def count(result):
    """The run's cells (4 rows of 4 columns, 3 where the pure twin is the
    implementation under test, which then has no column of its own)."""
    n = sum(len(row["cells"]) for row in result["pep570"]["rows"])
    assert n in (12, 16)
    return n


def compare(tmp_path, old, new, *args):
    paths = []
    for name, data in (("old.json", old), ("new.json", new)):
        path = tmp_path / name
        path.write_text(json.dumps(data))
        paths.append(str(path))
    return subprocess.run([sys.executable, "-m", "posonly", "compare", *paths, *args],
                          capture_output=True, text=True, timeout=120, check=True,
                          env={**os.environ, "COLUMNS": "100"}).stdout


def test_identical_runs_change_nothing_significantly(result, tmp_path):
    n = count(result)
    out = compare(tmp_path, result, result)
    assert f"{n} cells compared, 0 changed significantly" in out
    assert f"{n} ratios compared, 0 changed significantly" in out
    assert max(map(len, out.splitlines())) <= 100  # COLUMNS
    for word in ("slower", "faster", "higher", "lower"):
        assert word not in out
    _, rows = report.compare(result, result)
    cells = [r for r in rows if "p" in r]
    assert len(cells) == n and len(rows) == 2 * n
    assert all(r["change"] == 0.0 and r["p"] == 1.0 and not r["significant"] for r in cells)
    assert all(r["change"] == 0.0 and not r["significant"] for r in rows)


def _set_samples(cell, samples):
    cell["samples"] = samples
    cell["value"] = min(samples)
    ordered = sorted(samples)
    cell["spread"] = ordered[1] / ordered[0] - 1


def test_a_doctored_cell_is_flagged(result, tmp_path):
    # One cell of the old run made steady (so that the test does not depend
    # on this machine's noise), and the same cell 50 % slower in the new one.
    old = copy.deepcopy(result)
    steady = [40.0 + 0.01 * i for i in range(SETTINGS.min_rounds)]
    _set_samples(old["pep570"]["rows"][2]["cells"]["floor"], steady)
    doctored = copy.deepcopy(old)
    _set_samples(doctored["pep570"]["rows"][2]["cells"]["floor"], [s * 1.5 for s in steady])
    out = compare(tmp_path, old, doctored)
    assert f"{count(result)} cells compared, 1 changed significantly" in out
    (line,) = [l for l in out.splitlines() if l.endswith("slower")]
    assert line.startswith("pep570") and "positional-or-keyword by keyword" in line
    assert "+50.0%" in line
    only = compare(tmp_path, old, doctored, "--only-significant")
    assert "n.s." not in only.split("cells compared")[0] and "slower" in only


def test_a_doctored_ratio_is_flagged(result, tmp_path):
    old = copy.deepcopy(result)
    ratio = old["pep570"]["rows"][3]["ratios"]["binder"]
    ratio.update(value=1.25, spread=0.01, noisy=False)
    doctored = copy.deepcopy(old)
    doctored["pep570"]["rows"][3]["ratios"]["binder"]["value"] = 1.25 * 1.2
    out = compare(tmp_path, old, doctored)
    assert f"{count(result)} ratios compared, 1 changed significantly" in out
    (line,) = [l for l in out.splitlines() if l.endswith("higher")]
    assert "keyword-only by keyword" in line and "+20.0%" in line


def _null_table(data):
    data["binding"] = None


def _sample_text(data):
    data["pep570"]["rows"][1]["cells"]["floor"]["samples"][0] = "fast"


def _no_rows_cells(data):
    del data["pep570"]["rows"][0]["cells"]


def _no_meta(data):
    del data["meta"]


@pytest.mark.parametrize("write, problem", [
    (lambda d, p: p.write_text(json.dumps({"benchmarks": []})),
     "not a result of this bench (schema None, expected 'posonly-bench/2')"),
    (lambda d, p: p.write_text(json.dumps([d])),
     "not a result of this bench (a JSON array, not an object)"),
    (lambda d, p: p.write_text(json.dumps(d)[:-40]), "not JSON ("),
    (lambda d, p: p.write_bytes(b"\xff\xfe{}"), "not UTF-8 text"),
    (lambda d, p: None, "No such file or directory"),
    (_no_meta, "the result has no 'meta'"),
    (_null_table, "binding is null, not an object"),
    (_sample_text, "pep570.rows[1].cells.floor.samples[0] is a string, not a number"),
    (_no_rows_cells, "pep570.rows[0] has no 'cells'"),
])
def test_compare_says_in_one_line_what_is_wrong_with_which_file(result, tmp_path, write,
                                                                problem):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(result))
    bad = tmp_path / "bad.json"
    data = copy.deepcopy(result)
    if write.__name__.startswith("_"):
        write(data)
        bad.write_text(json.dumps(data))
    else:
        write(data, bad)
    # Named whichever side it is on (both sides tried for one case only).
    for args in ([good, bad], [bad, good]) if problem.startswith("binding") else ([bad, good],):
        out = subprocess.run([sys.executable, "-m", "posonly", "compare", *map(str, args)],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 2
        assert out.stderr.startswith(f"posonly compare: {bad}: ") and problem in out.stderr
        assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
        assert out.stdout == ""


def test_mann_whitney():
    a = [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9]
    assert report.mann_whitney(a, a) == 1.0
    assert report.mann_whitney(a, [x + 1.0 for x in a]) < 0.001
    assert report.mann_whitney(a, list(reversed(a))) == 1.0


def test_pyperf_format(result, tmp_path):
    suite = report.pyperf_suite(result)
    assert suite["version"] == "1.0"
    names = [b["metadata"]["name"] for b in suite["benchmarks"]]
    assert len(names) == len(set(names)) == count(result)
    assert "pep570: keyword-only by keyword: binder" in names
    for b in suite["benchmarks"]:
        assert b["metadata"]["unit"] == "second"
        assert b["metadata"]["loops"] >= 1 and b["metadata"]["inner_loops"] >= 1
        assert len(b["runs"]) == SETTINGS.min_rounds
        assert all(len(run["values"]) == 1 and run["values"][0] > 0 for run in b["runs"])


def test_pyperf_reads_it(result, tmp_path):
    pyperf = pytest.importorskip("pyperf")
    path = tmp_path / "pyperf.json"
    report.write_pyperf(result, str(path))
    suite = pyperf.BenchmarkSuite.load(str(path))
    benchmark = suite.get_benchmark("pep570: positional-only by position: floor")
    (cell,) = [r["cells"]["floor"] for r in result["pep570"]["rows"]
               if r["name"] == "positional-only by position"]
    assert min(benchmark.get_values()) == pytest.approx(cell["value"] * 1e-9)
    out = subprocess.run([sys.executable, "-m", "pyperf", "compare_to", str(path), str(path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
