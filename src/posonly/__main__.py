"""The command line: ``python -m posonly bench``, ``python -m posonly compare``
and ``python -m posonly run`` (see ``_program``)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import textwrap
from typing import Any, Dict, List, NoReturn, Optional

EXAMPLES = """\
examples:
  python -m posonly bench                    the default tables (about 2 minutes)
  python -m posonly bench --quick            shorter samples, fewer rounds (about 40 s; noisier)
  python -m posonly bench -k keyword         only the rows whose "table: row" has "keyword",
                                             in every table
  python -m posonly bench --tables pep570    only some tables (binding, pep570, wrapping,
                                             creation, clients, migration)
  python -m posonly bench --tables creation  the creation table, which the default run leaves
                                             out: making objects allocates, and its ratios move
                                             from run to run by more than the bench quotes
                                             unless the machine is quiet (about 35 s)
  python -m posonly bench --json out.json    also write every sample as JSON
  python -m posonly bench --pyperf out.json  also write pyperf's JSON (python -m pyperf compare_to)
  python -m posonly bench --plot out.png     also draw the ratios (pip install 'posonly[plot]')
  python -m posonly compare old.json new.json
                                             each cell's change and whether it is significant
  python -m posonly run --report -m mytool args
                                             run a program with inspect patched, and say at exit
                                             which calls posonly served and which fell back

Ratios are to the floor: a plain def with the same signature, returning its
locals, called with the same literal arguments (the interpreter's own binding).
A value marked ? has a spread too wide to quote.  The report fits the terminal
(COLUMNS when set, else 100 columns when not a terminal).  POSONLY_PURE_PYTHON=1
times the pure-Python twin as the implementation under test.
"""


class _Parser(argparse.ArgumentParser):
    """Errors in one line: ``posonly bench: what is wrong (see --help)``."""

    #: The parser of each command, on the main parser.
    commands: Dict[str, argparse.ArgumentParser] = {}

    def error(self, message: str) -> "NoReturn":
        name = self.prog.replace("python -m ", "", 1)
        self.exit(2, f"{name}: {message} (see {self.prog} --help)\n")


def _parser() -> _Parser:
    parser = _Parser(
        prog="python -m posonly",
        description="posonly: bind call arguments to parameters at the interpreter's own speed.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    bench = commands.add_parser(
        "bench",
        help="time every way of binding, wrapping and making against the interpreter's own",
        # (The examples below keep their lines: the description is wrapped
        # here, to the terminal as argparse would, at most 100 columns.)
        description=textwrap.fill(
            "Time, in interleaved rounds until stable: every way of binding a call against "
            "the interpreter's own binding (binding); PEP 570's cost by parameter kind "
            "(pep570); what each way of wrapping a function adds to a call (wrapping); "
            "making a binder, a wrapper, a layout or a signature against making a "
            "functools.wraps def (creation, run only when --tables or -k asks for it); "
            "client patterns of inspect, plain against patch_inspect() (clients); and calls "
            "of a migrated function in its future and legacy forms (migration).",
            min(shutil.get_terminal_size().columns, 100) - 2,
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    speed = bench.add_mutually_exclusive_group()
    speed.add_argument("--quick", action="store_true",
                       help="shorter samples and a shorter time limit per table: about 40 s "
                            "(noisier)")
    speed.add_argument("--tiny", action="store_true",
                       help="three tiny rounds: checks that everything runs; numbers meaningless")
    bench.add_argument("-k", metavar="TEXT", dest="select",
                       help='only the rows whose "table: row" contains TEXT (any case)')
    bench.add_argument("--tables", metavar="NAMES",
                       help="comma-separated tables to run (default: all but creation; "
                            "with -k: all)")
    bench.add_argument("--json", metavar="FILE", help="write the results, every sample, as JSON")
    bench.add_argument("--pyperf", metavar="FILE", help="write the samples in pyperf's JSON format")
    bench.add_argument("--plot", metavar="FILE.png",
                       help="draw every table's ratios with their spread (needs matplotlib)")
    bench.add_argument("--no-progress", action="store_true", help="no progress line on stderr")

    compare = commands.add_parser(
        "compare", help="compare two --json results cell by cell",
        description="Each cell present in both runs: its change, and whether it is significant "
                    "(Mann-Whitney test on the samples, and a change wider than the spreads).")
    compare.add_argument("old", metavar="OLD.json")
    compare.add_argument("new", metavar="NEW.json")
    compare.add_argument("--only-significant", action="store_true",
                         help="list only the cells and ratios that changed significantly")
    commands.add_parser(
        "run", help="run a program with inspect patched (--report: what was served, at exit)",
        description="python -m posonly run [--report] (-m module | script) [args...]: run a "
                    "program as python would, with posonly.patch_inspect() on; with --report, "
                    "print at exit which calls posonly served and which fell back to inspect's "
                    "own code, by entry point, reason and caller.")
    parser.commands = dict(commands.choices)
    return parser


def _fail(command: str, message: str) -> int:
    """An error of the command line: one line on stderr, exit status 2."""
    print(f"posonly {command}: {message}", file=sys.stderr)
    return 2


def _writable(path: str) -> Optional[str]:
    """Why ``path`` cannot be written, or None (checked before the run)."""
    existed = os.path.exists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        return f"cannot write {path}: {error.strerror or error}"
    if not existed:
        os.remove(path)
    return None


def _bench(options: argparse.Namespace) -> int:
    from posonly import bench
    from posonly.bench import report

    tables = None if options.tables is None else [
        t.strip() for t in options.tables.split(",") if t.strip()]
    try:
        bench.check_options(options.select, tables)
    except ValueError as error:
        return _fail("bench", str(error))
    for path in (options.json, options.pyperf, options.plot):
        problem = path and _writable(path)
        if problem:
            return _fail("bench", problem)
    if options.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return _fail("bench", "--plot needs matplotlib, which is not installed "
                                  "(pip install 'posonly[plot]', or pip install matplotlib)")
    settings = bench.TINY if options.tiny else bench.QUICK if options.quick else bench.FULL
    result = bench.run(settings, select=options.select, tables=tables,
                       progress=not options.no_progress)
    print(report.format_report(result))
    if options.json:
        report.write_json(result, options.json)
        print(f"wrote {options.json}")
    if options.pyperf:
        report.write_pyperf(result, options.pyperf)
        print(f"wrote {options.pyperf}")
    if options.plot:
        report.plot(result, options.plot)
        print(f"wrote {options.plot}")
    return 0


def _load(path: str) -> Dict[str, Any]:
    """A result of the bench read from ``path``; ValueError saying what is
    wrong with it (the file named by the caller)."""
    from posonly.bench import SCHEMA
    from posonly.bench.report import check_result

    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except OSError as error:
        raise ValueError(error.strerror or str(error)) from None
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text, so not a result of this bench") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg} at line {error.lineno} column "
                         f"{error.colno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"not a result of this bench (a JSON {_json_type(data)}, "
                         "not an object)")
    if data.get("schema") != SCHEMA:
        raise ValueError(f"not a result of this bench (schema {data.get('schema')!r}, "
                         f"expected {SCHEMA!r})")
    check_result(data)
    return data


def _json_type(value: Any) -> str:
    return {list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number")


def _compare(options: argparse.Namespace) -> int:
    from posonly.bench import report

    loaded = []
    for path in (options.old, options.new):
        try:
            loaded.append(_load(path))
        except ValueError as error:
            return _fail("compare", f"{path}: {error}")
    text, rows = report.compare(loaded[0], loaded[1], only_significant=options.only_significant)
    print(text)
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["run"]:
        from posonly import _program

        return _program.main(args[1:])
    parser = _parser()
    options, unknown = parser.parse_known_args(argv)
    if unknown:
        command = parser.commands.get(options.command, parser)
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    if options.command == "bench":
        return _bench(options)
    if options.command == "compare":
        return _compare(options)
    parser.print_help()
    return 0 if options.command is None and argv is None and len(sys.argv) <= 1 else 2


if __name__ == "__main__":
    sys.exit(main())
