"""Every error message of the binders and the drop-in, word for word.

First the interpreter's call errors: each function mirrors a helper of
``initialize_locals`` in CPython's ``Python/ceval.c`` and returns the
``TypeError`` to raise.  Then inspect's: ``Signature.bind``'s refusals, for
the drop-in's cores.  They run only on the error path, for the compiled
implementation and the pure-Python one alike.
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



# -- inspect's refusals ----------------------------------------------------------
#
# ``Signature.bind``'s messages, word for word (``Signature._bind`` in
# ``Lib/inspect.py``), for the drop-in's cores, which return the error for
# their caller to raise.  They are ``str.format`` templates of a parameter's
# name, not functions: the compiled core formats them in C, so that a failed
# bind through it runs no Python frame of posonly's (a profiler sees none),
# and makes the TypeError in C as ``refusal`` does.


def refusal(message: str, suppress_context: bool) -> TypeError:
    """The TypeError inspect raises with ``message`` (``from None`` where
    ``suppress_context``), to be raised by the caller."""
    error = TypeError(message)
    if suppress_context:
        error.__suppress_context__ = True
    return error


TOO_MANY_POSITIONAL = "too many positional arguments"
MISSING_ARGUMENT = "missing a required argument: {!r}"
MISSING_KEYWORD_ONLY_ARGUMENT = "missing a required keyword-only argument: {!r}"
"""3.12's and later's words for the first keyword-only parameter missing
while the positional arguments are placed."""
MISSING_POSITIONAL_ONLY_ARGUMENT = "missing a required positional-only argument: {!r}"
MULTIPLE_VALUES_FOR = "multiple values for argument {!r}"
POSITIONAL_ONLY_BY_KEYWORD = "{!r} parameter is positional only, but was passed as a keyword"
"""Up to 3.12: the first positional-only parameter given by keyword."""
POSITIONAL_ONLY_KEYWORDS = "got some positional-only arguments passed as keyword arguments: {!r}"
"""From 3.13: the positional-only parameters given by keyword with no
``**kwargs`` to take them, formatted with their names joined by ", "."""
UNEXPECTED_KEYWORD_ARGUMENT = "got an unexpected keyword argument {!r}"


# ``inspect.getcallargs``'s own words (its other errors come from inspect's
# ``_too_many`` and ``_missing_arguments``, which the drop-in calls).
GETCALLARGS_UNEXPECTED_KEYWORD = "{}() got an unexpected keyword argument {!r}"
GETCALLARGS_MULTIPLE_VALUES = "{}() got multiple values for argument {!r}"
