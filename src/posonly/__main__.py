"""The command line: ``python -m posonly bench``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

EXAMPLES = """\
examples:
  python -m posonly bench                    the full suite (about a minute)
  python -m posonly bench --quick            fewer, shorter rounds (a few seconds)
  python -m posonly bench -k keyword         only the cases whose name has "keyword"
  python -m posonly bench --json out.json    also write every number as JSON
  python -m posonly bench --plot out.png     also draw a bar chart (pip install 'posonly[plot]')

Ratios are to the floor: a plain def with the same signature, returning its
locals, called with the same literal arguments (the interpreter's own binding).
Set POSONLY_PURE_PYTHON=1 to run with the pure-Python binder as the default.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m posonly",
        description="posonly: bind call arguments to parameters at the interpreter's own speed.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    bench = commands.add_parser(
        "bench",
        help="time every way of binding a call against the interpreter's own binding",
        description=(
            "Time inspect.Signature.bind, the drop-in posonly.signature(f).bind (when "
            "available), the compiled binder (call, .bind, .vectorcall), the pure-Python "
            "binder and an exec-generated function called with *args, **kwargs, against the "
            "floor; then PEP 570's question (cost by parameter kind), a validating "
            "decorator's overhead per call, and what each way of wrapping a function "
            "(functools.wraps def, wrapt, the binder recipe, posonly.wrap, inspect) adds "
            "to a call."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument("--quick", action="store_true",
                       help="10 short rounds instead of 30 long ones (a few seconds; noisier)")
    bench.add_argument("--json", metavar="FILE", help="write the results as JSON to FILE")
    bench.add_argument("--plot", metavar="FILE.png",
                       help="draw the ratios as a bar chart (needs matplotlib)")
    bench.add_argument("-k", metavar="TEXT", dest="select",
                       help="only the main-table cases whose name contains TEXT")
    bench.add_argument("--no-progress", action="store_true",
                       help="no progress line on stderr")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = _parser()
    options = parser.parse_args(argv)
    if options.command != "bench":
        parser.print_help()
        return 0 if options.command is None and argv is None and len(sys.argv) <= 1 else 2

    if options.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print(
                "posonly bench: --plot needs matplotlib, which is not installed.\n"
                "Install it with:  pip install 'posonly[plot]'   (or: pip install matplotlib)",
                file=sys.stderr,
            )
            return 2

    from posonly import _bench

    result = _bench.run(quick=options.quick, select=options.select,
                        progress=not options.no_progress)
    if not result["cases"]:
        print(f"posonly bench: no case matches {options.select!r}", file=sys.stderr)
        return 2
    print(_bench.format_report(result))
    if options.json:
        with open(options.json, "w", encoding="utf-8") as stream:
            json.dump(result, stream, indent=2)
            stream.write("\n")
        print(f"wrote {options.json}")
    if options.plot:
        _bench.plot(result, options.plot)
        print(f"wrote {options.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
