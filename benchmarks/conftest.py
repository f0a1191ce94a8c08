"""pytest-benchmark suite: the tables of ``python -m posonly bench``.

Run with ``pytest benchmarks/`` (it is outside the default test run).  Every
cell of every table of the bench is a benchmark, timed on the bench's own
runner: the same generated loops, the same fresh functions for the creation
table, the same patch applied around the patched client patterns.  A
benchmark's group is a row of a table (for PEP 570, a column), so its
members compare side by side; each round performs ``extra_info["ops_per_round"]``
operations (calls, client calls, or objects made).
"""
