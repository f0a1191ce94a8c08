"""The bench's suites, by table name, and the choice of their rows:
what ``--tables`` and ``-k`` select, checked before anything is timed."""

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
    rows: List[Tuple[str, str]] = [("binding", c.name) for c in binding.CASES]
    rows += [("pep570", case.name) for _, _, case in pep570.ROWS]
    rows += [("wrapping", c.name) for c in wrapping.CASES]
    rows += [("creation", name) for name, _ in creation.SIGNATURES]
    rows += [("clients", case.name) for _, case in clients.ROWS]
    rows += [("migration", name) for name, _, _ in migration.ROWS]
    return rows


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
