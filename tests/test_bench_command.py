"""``python -m posonly bench``, run as a user runs it: a few cases, quick.

Only what the command reports is checked (the columns, the numbers' shape,
the interpreter's build), never how fast anything is: speed is the bench's
to measure, not a test's to assert.
"""

import json
import subprocess
import sys

import posonly


def test_bench_reports_every_column_and_the_build(tmp_path):
    out = tmp_path / "bench.json"
    result = subprocess.run(
        [sys.executable, "-m", "posonly", "bench", "--quick", "--no-progress",
         "-k", "one positional", "--json", str(out)],
        capture_output=True, text=True, timeout=300, check=True,
    )
    report = json.loads(out.read_text())
    assert report["implementation"] == posonly.IMPLEMENTATION
    assert f"interpreter: {report['build']}" in result.stdout
    (case,) = report["cases"]
    assert case["call"] == "f(1)"
    expected = {"floor", "pure", "exec", "drop-in", "patched", "inspect"}
    if posonly.IMPLEMENTATION == "cython":
        expected |= {"c-floor", "binder", "bind", "vectorcall"}
        assert report["binder_vs_c_floor"] > 0
        assert "C copy" in result.stdout
    assert set(case["ns"]) == expected
    assert all(ns > 0 for ns in case["ns"].values())
    assert case["ratio"]["floor"] == 1.0
