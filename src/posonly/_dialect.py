"""What the running ``inspect`` does, read once: the record both twins of
the drop-in (``_dropin`` and the compiled ``_dropin.pxi``) bind from.

The drop-in answers as the running ``inspect`` does, not as a version
number says it should: where ``Signature._bind`` changed between releases
(the message for a missing keyword-only argument, what a keyword naming a
positional-only parameter means), ``inspect`` itself is asked here, once,
with small probe signatures.
"""

from __future__ import annotations

import inspect
import keyword
import types
from typing import Any, Callable, FrozenSet, NamedTuple, Tuple

from . import _errors

__all__ = ["Dialect", "DIALECT", "ENTRIES", "FALLBACK_REASONS", "POSONLY_KEYWORD_REFUSED",
           "POSONLY_KEYWORD_DEFERRED", "POSONLY_KEYWORD_REQUIRED_MISSING"]

# What ``_bind`` does with a keyword naming a positional-only parameter that
# was not given by position, when it meets that parameter:
POSONLY_KEYWORD_REFUSED = 0
"""raise "'a' parameter is positional only, but was passed as a keyword" (up to 3.12)"""
POSONLY_KEYWORD_DEFERRED = 1
"""note it, and raise "got some positional-only arguments passed as keyword
arguments" at the end unless a ``**kwargs`` takes the keyword (3.13)"""
POSONLY_KEYWORD_REQUIRED_MISSING = 2
"""as DEFERRED, but a parameter without a default raises "missing a required
positional-only argument" at once (3.14 and later)"""


class Dialect(NamedTuple):
    """The running ``inspect``'s classes, constants, originals and habits."""

    Signature: Any
    Parameter: Any
    BoundArguments: Any
    empty: Any
    kinds: Tuple[Any, ...]
    """The five ``Parameter`` kinds, in order: positional-only,
    positional-or-keyword, ``*args``, keyword-only, ``**kwargs``."""
    parameters_dict: Any
    """The mapping type ``Signature`` keeps its parameters in (under a
    mappingproxy): ``OrderedDict`` or ``dict``."""
    signature_init: Callable[..., Any]
    private_bind: Callable[..., Any]
    parameters_property: Any
    keywords: FrozenSet[str]
    kwonly_missing_message: bool
    """Whether a missing keyword-only argument found while positionals run
    out is "missing a required keyword-only argument" (3.12 and later)."""
    posonly_keyword: int
    """One of the ``POSONLY_KEYWORD_*`` constants."""
    posonly_missing_in_handler: bool
    """Whether "missing a required positional-only argument" is raised
    while ``_bind`` handles the ``StopIteration`` of its arguments' iterator,
    without ``from None``, so that the error's context is that
    ``StopIteration`` (3.14 and later)."""
    annotation_format_value: Any
    """``annotationlib.Format.VALUE`` where ``inspect.signature`` takes an
    ``annotation_format`` (3.14 and later), else ``None``."""


def _refused(sig: inspect.Signature, *args: Any, **kwargs: Any) -> Any:
    """The TypeError inspect's ``_bind`` raises for the call, or None."""
    try:
        inspect.Signature._bind(sig, args, kwargs)  # type: ignore[attr-defined]
    except TypeError as exc:
        return exc
    return None


def _message(sig: inspect.Signature, *args: Any, **kwargs: Any) -> str:
    return str(_refused(sig, *args, **kwargs) or "")


def _read_dialect() -> Dialect:
    P = inspect.Parameter
    kinds = (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD, P.VAR_POSITIONAL, P.KEYWORD_ONLY,
             P.VAR_KEYWORD)
    kwonly = inspect.Signature([P("a", P.KEYWORD_ONLY)])
    posonly_then_varkw = inspect.Signature([P("a", P.POSITIONAL_ONLY), P("kw", P.VAR_KEYWORD)])
    message = _message(posonly_then_varkw, a=1)
    if message == _errors.POSITIONAL_ONLY_BY_KEYWORD.format("a"):
        posonly_keyword = POSONLY_KEYWORD_REFUSED
    elif message == _errors.MISSING_POSITIONAL_ONLY_ARGUMENT.format("a"):
        posonly_keyword = POSONLY_KEYWORD_REQUIRED_MISSING
    else:
        posonly_keyword = POSONLY_KEYWORD_DEFERRED
    try:
        import annotationlib  # type: ignore[import-not-found]

        annotation_format_value = annotationlib.Format.VALUE
    except ImportError:
        annotation_format_value = None
    probe = inspect.Signature([P("a", P.POSITIONAL_ONLY)])
    posonly_missing = _refused(probe, a=1)
    return Dialect(
        Signature=inspect.Signature,
        Parameter=P,
        BoundArguments=inspect.BoundArguments,
        empty=P.empty,
        kinds=kinds,
        parameters_dict=type(probe.parameters.copy()),
        signature_init=inspect.Signature.__init__,
        private_bind=inspect.Signature._bind,  # type: ignore[attr-defined]
        parameters_property=inspect.Signature.__dict__["parameters"],
        keywords=frozenset(keyword.kwlist),
        kwonly_missing_message=_message(kwonly) == _errors.MISSING_KEYWORD_ONLY_ARGUMENT.format("a"),
        posonly_keyword=posonly_keyword,
        posonly_missing_in_handler=(
            posonly_keyword == POSONLY_KEYWORD_REQUIRED_MISSING
            and type(posonly_missing.__context__) is StopIteration
            and not posonly_missing.__suppress_context__
        ),
        annotation_format_value=annotation_format_value,
    )


DIALECT = _read_dialect()

# Names a function's ``__dict__`` may hold that change what
# ``inspect.signature`` answers for it; a function holding none of them has
# the signature its code object, defaults and annotations say.
SIGNATURE_ATTRIBUTES = frozenset(
    ["__wrapped__", "__signature__", "__text_signature__", "_partialmethod",
     "__partialmethod__"]
)
UNWRAPPED_SIGNATURE_ATTRIBUTES = SIGNATURE_ATTRIBUTES - {"__wrapped__"}
"""Those that matter where inspect does not unwrap (``follow_wrapped=False``,
``getfullargspec``)."""
FUNCTION_TYPE = types.FunctionType
FUNCTION_TYPE_SIGNATURE_ATTRIBUTES = tuple(
    sorted(name for name in SIGNATURE_ATTRIBUTES if name in vars(FUNCTION_TYPE))
)
"""Those of them every function has, from its type, to be read each time
(PyPy 3.11's ``__text_signature__``; none on CPython)."""


# -- what an observer is told -------------------------------------------------
#
# With an observer set (``set_observer(fn)`` of either core), each call of a
# patched entry point reports ``fn(entry, reason)``: ``entry`` one of
# ENTRIES, ``reason`` None where posonly served it, else the key of
# FALLBACK_REASONS saying why inspect's own code answered.  Without one (the
# default) the check costs one pointer comparison per call.

ENTRIES = (
    "inspect.signature",
    "Signature.from_callable",
    "posonly.signature",
    "Signature.bind",
    "Signature.bind_partial",
    "BoundArguments.apply_defaults",
    "inspect.getfullargspec",
    "inspect.getcallargs",
)

FALLBACK_REASONS = {
    "class": "a class: inspect's own code reads its __init__, __new__ or metaclass",
    "method": "a bound method, or a method descriptor: inspect's own code unbinds it",
    "builtin": "a builtin or extension function, or a method of a builtin type, whose text "
               "signature inspect's own code parses (none, one whose defaults name module "
               "constants, one inspect refuses)",
    "partial": "a functools.partial or partialmethod: inspect's own code binds its arguments",
    "callable-object": "another callable object: inspect's own code finds its __call__",
    "wrapped": "a function with __wrapped__ (a decorator's functools.wraps): inspect's "
               "own code unwraps it",
    "own-signature": "a function carrying __signature__, __text_signature__ or a "
                     "partialmethod: inspect's own code reads it",
    "unusual-function": "a function whose parameters or defaults inspect's Parameter() "
                        "must check (names that are not identifiers, defaults for no parameter)",
    "annotations-unreadable": "reading the function's __annotations__ raised (an annotation "
                              "naming something not yet defined): inspect's own code answers",
    "signature-subclass": "a Signature subclass with its own construction, _bind or "
                          "parameters: inspect's own code runs",
    "parameter-subclass": "a parameter that is not a plain inspect.Parameter: inspect's own "
                          "code runs",
    "bound-arguments-subclass": "a BoundArguments subclass, or one of a Signature subclass: "
                                "inspect's own code runs",
    "option": "an option, or an option's value, posonly does not serve (inspect's own code "
              "answers, and raises what it raises)",
    "call": "the entry point itself was called with arguments it refuses (inspect's own "
            "error)",
}
"""Why an entry point of the drop-in handed a call to inspect's own code:
reason key -> one line.  The observer (see ``_served``) is told one of these
keys, or None for a call served by posonly."""


# -- inspect's own entry points -----------------------------------------------
#
# Read when posonly is imported, before any patch: what a fallback calls, and
# what the patched objects pose as.

INSPECT_SIGNATURE: Callable[..., Any] = inspect.signature
INSPECT_FROM_CALLABLE: Callable[..., Any] = inspect.Signature.__dict__["from_callable"].__func__


def like_inspect(function: Any, original: Any, qualname: str) -> Any:
    """``function`` named and documented as inspect's ``original``."""
    function.__module__ = original.__module__
    function.__qualname__ = qualname
    function.__name__ = qualname.rpartition(".")[2]
    function.__doc__ = original.__doc__
    return function
