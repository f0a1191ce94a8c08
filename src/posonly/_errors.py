"""The interpreter's call errors, word for word.

Each function mirrors a helper of ``initialize_locals`` in CPython's
``Python/ceval.c`` and returns the ``TypeError`` to raise.  They run only on
the error path, for the compiled binder and the pure-Python one alike.
"""

from __future__ import annotations

import sys
from typing import Iterable, List, Sequence

_SUGGESTS_KEYWORDS = sys.version_info >= (3, 13)


def keywords_must_be_strings(name: str) -> TypeError:
    """A keyword name that is not a ``str``, met in a vectorcall's kwnames."""
    return TypeError(f"{name}() keywords must be strings")


def dict_keywords_must_be_strings() -> TypeError:
    """A non-``str`` key in a ``**kwargs`` mapping, refused before binding."""
    return TypeError("keywords must be strings")


def multiple_values(name: str, keyword: str) -> TypeError:
    return TypeError(f"{name}() got multiple values for argument '{keyword!s}'")


def unexpected_keyword(
    name: str,
    posonly: Sequence[str],
    keyword_names: Iterable[object],
    candidates: Sequence[str],
    keyword: str,
) -> TypeError:
    """A keyword that matches no parameter, with no ``**kwargs`` to take it.

    As in CPython, a function with positional-only parameters first reports
    every keyword (of the whole call) that names one of them.  From 3.13 the
    message suggests a close keyword-capable name.
    """
    if posonly:
        keyword_names = list(keyword_names)
        conflicts: List[object] = []
        for posonly_name in posonly:
            for kwname in keyword_names:
                if kwname is posonly_name or posonly_name == kwname:
                    conflicts.append(kwname)
        if conflicts:
            return TypeError(
                f"{name}() got some positional-only arguments passed as keyword "
                f"arguments: '{', '.join(conflicts)}'"  # type: ignore[arg-type]
            )
    if _SUGGESTS_KEYWORDS and candidates:
        import _suggestions  # type: ignore[import-not-found]

        suggestion = _suggestions._generate_suggestions(list(candidates), keyword)
        if suggestion is not None:
            return TypeError(
                f"{name}() got an unexpected keyword argument '{keyword!s}'. "
                f"Did you mean '{suggestion!s}'?"
            )
    return TypeError(f"{name}() got an unexpected keyword argument '{keyword!s}'")


def too_many_positional(
    name: str, argcount: int, ndefaults: int, given: int, kwonly_given: int
) -> TypeError:
    if ndefaults:
        plural = True
        takes = f"from {argcount - ndefaults} to {argcount}"
    else:
        plural = argcount != 1
        takes = str(argcount)
    if kwonly_given:
        kwonly_part = (
            f" positional argument{'s' if given != 1 else ''} "
            f"(and {kwonly_given} keyword-only argument{'s' if kwonly_given != 1 else ''})"
        )
    else:
        kwonly_part = ""
    verb = "was" if given == 1 and not kwonly_given else "were"
    return TypeError(
        f"{name}() takes {takes} positional argument{'s' if plural else ''} "
        f"but {given}{kwonly_part} {verb} given"
    )


def missing_arguments(name: str, kind: str, missing: Sequence[str]) -> TypeError:
    """``kind`` is ``"positional"`` or ``"keyword-only"``."""
    names = [repr(n) for n in missing]
    if len(names) == 1:
        listed = names[0]
    elif len(names) == 2:
        listed = f"{names[0]} and {names[1]}"
    else:
        listed = f"{', '.join(names[:-2])}, {names[-2]}, and {names[-1]}"
    return TypeError(
        f"{name}() missing {len(names)} required {kind} "
        f"argument{'' if len(names) == 1 else 's'}: {listed}"
    )

