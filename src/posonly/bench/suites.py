"""The bench's suites, by table name, and the choice of their rows:
what ``--tables`` and ``-k`` select, checked before anything is timed.

Each suite is one module with one interface: ``build(select)`` (its
:class:`~.table.Table`, rows chosen by ``select``), ``section(table)`` (the
measured table as the run's JSON holds it), ``format_section(section,
width)`` (that section as text), ``row_names()`` and ``LOOPS`` (loops per
round under pytest-benchmark).  A new table is a new module named here."""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from . import binding, clients, creation, migration, pep570, wrapping

#: The suites, in the order of the report.
SUITES = {
    "binding": binding,
    "pep570": pep570,
    "wrapping": wrapping,
    "creation": creation,
    "clients": clients,
    "migration": migration,
}

#: Tables a run leaves out unless ``--tables`` or ``-k`` asks for them.  The
#: creation table times making objects, which allocates: its ratios move
#: from run to run by more than the bench quotes (it flags them) unless the
#: machine is quiet, and it takes longer than its share of a run.
OPT_IN = ("creation",)


def chosen_tables(select: Optional[str], tables: Optional[Sequence[str]]) -> List[str]:
    """The tables a run measures: ``--tables``; else with ``-k``, every
    table (the filter chooses the rows); else all but ``OPT_IN``."""
    if tables is not None:
        return list(tables)
    if select is not None:
        return list(SUITES)
    return [key for key in SUITES if key not in OPT_IN]


def catalog() -> List[Tuple[str, str]]:
    """Every (table, row) the suites have, without building anything."""
    return [(key, row) for key, suite in SUITES.items() for row in suite.row_names()]


def selector(text: Optional[str]) -> Optional[Callable[[str, str], bool]]:
    """``-k TEXT``: the rows whose "table: row" contains TEXT (any case)."""
    if text is None:
        return None
    needle = text.lower()
    return lambda table, row: needle in f"{table}: {row}".lower()


def check_options(select: Optional[str], tables: Optional[Sequence[str]]) -> None:
    """Raise ValueError for options that would make the run measure nothing
    or something that does not exist; called before anything is timed."""
    if tables is not None and not tables:
        raise ValueError(f"--tables names no table; the tables are {', '.join(SUITES)}")
    chosen = chosen_tables(select, tables)
    unknown = [t for t in chosen if t not in SUITES]
    if unknown:
        raise ValueError(f"unknown table {', '.join(map(repr, unknown))}; "
                         f"the tables are {', '.join(SUITES)}")
    match = selector(select)
    if match is not None and not any(match(t, r) for t, r in catalog() if t in chosen):
        raise ValueError(f"no row matches -k {select!r} (in the tables {', '.join(chosen)})")
