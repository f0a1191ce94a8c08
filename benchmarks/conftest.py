"""pytest-benchmark suite: the measurements of ``python -m posonly bench``.

Run with ``pytest benchmarks/`` (it is outside the default test run).  Each
case is a benchmark group; within a group, one benchmark per implementation
or baseline.  Every round runs a generated loop of literal calls, so the
times are per ``CALLS`` calls; compare them within a group.
"""
