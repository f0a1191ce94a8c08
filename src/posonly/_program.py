"""``python -m posonly run [--report] (-m module | script) [args...]``: run a
program with ``inspect`` patched, as ``python`` would run it.

As ``coverage run`` does: ``sys.argv`` is the program's (its script or
module file, then its arguments), ``sys.path[0]`` is the script's directory
(the current directory for ``-m``), and the program runs as ``__main__``
(``runpy``: a script, a directory or zip file with ``__main__.py``, or a
module or package with ``-m``).  ``posonly.patch_inspect()`` is called
first; with ``--report``, a :class:`posonly.Served` record counts every call
of the drop-in's entry points and its report is printed on standard error
at exit (after the program's own exit handlers).  The program's exit status
is the command's; an uncaught exception prints its traceback without
posonly's frames and exits with 1.
"""

from __future__ import annotations

import atexit
import importlib
import os
import runpy
import sys
import traceback
from typing import List, Optional, Tuple

__all__ = ["main", "USAGE", "HELP"]

_IMPORTLIB = os.path.dirname(os.path.abspath(importlib.__file__))
"""The import system's own files (not the program's)."""

USAGE = "usage: python -m posonly run [--report] (-m module | script) [args...]"
HELP = USAGE + """

Run a program as python runs it, with posonly.patch_inspect() on: sys.argv
is the program's (its script or module file, then its arguments), sys.path[0]
is the script's directory (the current directory for -m), and the program
runs as __main__ (a script, a directory or zip file with __main__.py, or a
module or package with -m).  The program's exit status is the command's; an
uncaught exception prints its traceback as python prints it and exits with 1.

options:
  -m module   run a module (or a package's __main__) as python -m does
  --report    at exit, after the program's own exit handlers, print on standard
              error which calls of inspect posonly served and which fell back to
              inspect's own code, by entry point, reason and caller
  -h, --help  show this help and exit
"""


def _parse(argv: List[str]) -> Tuple[bool, Optional[str], Optional[str], List[str]]:
    """(report, module, script, the program's arguments)."""
    report = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--report":
            report = True
        elif arg == "-m":
            if i + 1 == len(argv):
                raise ValueError("-m needs a module name")
            return report, argv[i + 1], None, argv[i + 2:]
        elif arg.startswith("-m") and len(arg) > 2:
            return report, arg[2:], None, argv[i + 1:]
        elif arg == "--":
            if i + 1 == len(argv):
                raise ValueError("no script given")
            return report, None, argv[i + 1], argv[i + 2:]
        elif arg in ("-h", "--help"):
            raise LookupError
        elif arg.startswith("-"):
            raise ValueError(f"unknown option {arg!r}")
        else:
            return report, None, arg, argv[i + 1:]
        i += 1
    raise ValueError("no program given")


def _print_report(record: object) -> None:
    sys.stdout.flush()
    print("\n" + record.report(), file=sys.stderr)  # type: ignore[attr-defined]
    sys.stderr.flush()


def _ours(filename: str) -> bool:
    here = os.path.dirname(os.path.abspath(__file__))
    return (os.path.abspath(filename).startswith(here + os.sep) or filename == runpy.__file__
            or filename == "<frozen runpy>")


def main(argv: List[str]) -> int:
    """Run the program ``argv`` describes; its exit status."""
    try:
        report, module, script, args = _parse(argv)
    except LookupError:
        print(HELP, end="")
        return 0
    except ValueError as error:
        print(f"posonly run: {error} ({USAGE})", file=sys.stderr)
        return 2

    import posonly

    posonly.patch_inspect()
    if report:
        record = posonly.record_served().start()
        atexit.register(_print_report, record)

    if module is not None:
        sys.argv = [module, *args]  # runpy puts the module's file first
        sys.path[0:1] = [os.getcwd()] if sys.path else [os.getcwd()]
    else:
        assert script is not None
        if not os.path.exists(script):
            print(f"posonly run: can't open file {script!r}: no such file", file=sys.stderr)
            return 2
        sys.argv = [script, *args]
        if os.path.isdir(script) or not script.endswith((".py", ".pyw")) and _is_zip(script):
            del sys.path[0]  # runpy puts the directory or zip file there
        else:
            sys.path[0] = os.path.dirname(os.path.abspath(script))
    try:
        if module is not None:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        elif os.path.isfile(script) and not _is_zip(script):  # type: ignore[arg-type]
            _run_source(script)  # type: ignore[arg-type]
        else:
            runpy.run_path(script, run_name="__main__")  # type: ignore[arg-type]
    except SystemExit as exit_:
        code = exit_.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except ImportError as error:
        if module is not None and not _users_frames(error):
            # The module was not found: one line, as python -m says it.
            atexit.unregister(_print_report)
            print(f"posonly run: {error}", file=sys.stderr)
            return 1
        _print_exception(error)
        return 1
    except BaseException as error:  # noqa: BLE001 - reported as python reports it
        _print_exception(error)
        return 1
    return 0


def _print_exception(error: BaseException) -> None:
    """The traceback python would print, without posonly's frames."""
    tb = error.__traceback__
    while tb is not None and _ours(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb)


def _users_frames(error: BaseException) -> bool:
    """Whether the traceback of ``error`` passes through code that is not
    posonly's, runpy's or the import system's: the program's own."""
    tb = error.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if not (_ours(filename) or filename.startswith("<frozen importlib")
                or os.path.dirname(os.path.abspath(filename)) == _IMPORTLIB):
            return True
        tb = tb.tb_next
    return False



def _run_source(script: str) -> None:
    """Run the source file ``script`` as python runs it: in a new
    ``__main__`` module whose ``__file__`` (and code's file name) is the
    absolute path, with ``sys.argv[0]`` as given."""
    import builtins
    import types
    from importlib.machinery import SourceFileLoader

    path = os.path.abspath(script)
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = builtins  # type: ignore[attr-defined]
    main.__loader__ = SourceFileLoader("__main__", path)
    main.__cached__ = None  # type: ignore[attr-defined]
    sys.modules["__main__"] = main
    with open(path, "rb") as stream:
        source = stream.read()
    code = compile(source, path, "exec", dont_inherit=True)
    exec(code, main.__dict__)  # noqa: S102 - the program the user asked to run


def _is_zip(path: str) -> bool:
    import zipfile

    return zipfile.is_zipfile(path)
