"""inspect's own steps, without a plan: what the drop-in's pure core does
for a signature it has no plan for, and for every call a plan leaves to it.

``bind_generic`` is ``Signature._bind``, ``args_generic``, ``kwargs_generic``
and ``apply_defaults_generic`` the ``BoundArguments`` members of those names,
each step for step in inspect's order, with inspect's messages; they read
the parameters' slots instead of their properties, and hand anything they
cannot read as inspect would (a ``Parameter`` subclass, a ``BoundArguments``
subclass, a signature class with its own ``parameters``) to inspect's own
code.  The errors are returned, not raised, for the caller to raise (as the
compiled core returns them).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Tuple

from . import _errors
from ._dialect import (
    DIALECT,
    POSONLY_KEYWORD_REFUSED,
    POSONLY_KEYWORD_REQUIRED_MISSING,
)

__all__ = ["apply_defaults_generic", "args_generic", "bind_generic", "kwargs_generic"]

_Parameter = DIALECT.Parameter
_BoundArguments = DIALECT.BoundArguments
_empty = DIALECT.empty
_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD, _VAR_POSITIONAL, _KEYWORD_ONLY, _VAR_KEYWORD = DIALECT.kinds
_PRIVATE_BIND = DIALECT.private_bind
_PARAMETERS = DIALECT.parameters_property
_KWONLY_MISSING_MESSAGE = DIALECT.kwonly_missing_message
_POSONLY_KEYWORD = DIALECT.posonly_keyword
_POSONLY_MISSING_IN_HANDLER = DIALECT.posonly_missing_in_handler
_INSPECT_ARGS = _BoundArguments.args.fget
_INSPECT_KWARGS = _BoundArguments.kwargs.fget
_INSPECT_APPLY_DEFAULTS = _BoundArguments.apply_defaults
_new = object.__new__
_NOT_GIVEN = object()
_PLAIN_TYPES = frozenset([_Parameter])  # parameters whose slots are read
refusal = _errors.refusal


def _posonly_missing(name: str) -> TypeError:
    """inspect's "missing a required positional-only argument" for ``name``,
    with the context inspect's has where it raises it while handling a
    ``StopIteration`` (the caller raises it there: see ``_inspect._pure_bind``)."""
    error = refusal(_errors.MISSING_POSITIONAL_ONLY_ARGUMENT.format(name), False)
    if _POSONLY_MISSING_IN_HANDLER:
        error.__context__ = StopIteration()
    return error


def bind_generic(sig: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any], partial: bool) -> Any:
    """``Signature._bind`` without a plan, for a signature of a plain class."""
    parameters = tuple(sig._parameters.values())
    if not _PLAIN_TYPES.issuperset(map(type, parameters)):
        return _PRIVATE_BIND(sig, args, kwargs, partial=partial)

    # The steps of inspect's Signature._bind, with the same checks in the
    # same order; only its iterators became indices.
    arguments: Dict[str, Any] = {}
    count = len(parameters)
    nargs = len(args)
    index = 0  # the next parameter
    start = -1  # the parameter the keyword phase starts from (parameters_ex)
    posonly_in_kwargs = []
    i = 0
    while True:
        if i == nargs:
            # No more positional arguments.
            if index == count:
                break
            param = parameters[index]
            index += 1
            kind = param._kind
            name = param._name
            if kind is _VAR_POSITIONAL:
                break
            elif name in kwargs:
                if kind is _POSITIONAL_ONLY:
                    if _POSONLY_KEYWORD == POSONLY_KEYWORD_REFUSED:
                        return refusal(_errors.POSITIONAL_ONLY_BY_KEYWORD.format(name), True)
                    if _POSONLY_KEYWORD == POSONLY_KEYWORD_REQUIRED_MISSING and param._default is _empty:
                        return _posonly_missing(name)
                    posonly_in_kwargs.append(name)
                    continue
                start = index - 1
                break
            elif kind is _VAR_KEYWORD or param._default is not _empty:
                start = index - 1
                break
            elif partial:
                start = index - 1
                break
            else:
                if _KWONLY_MISSING_MESSAGE and kind is _KEYWORD_ONLY:
                    return refusal(_errors.MISSING_KEYWORD_ONLY_ARGUMENT.format(name), True)
                return refusal(_errors.MISSING_ARGUMENT.format(name), True)
        else:
            # A positional argument to place.
            if index == count:
                return refusal(_errors.TOO_MANY_POSITIONAL, True)
            param = parameters[index]
            index += 1
            kind = param._kind
            if kind is _VAR_KEYWORD or kind is _KEYWORD_ONLY:
                return refusal(_errors.TOO_MANY_POSITIONAL, True)
            name = param._name
            if kind is _VAR_POSITIONAL:
                # args is the caller's own new tuple, as inspect's would be.
                arguments[name] = args[i:] if i else args
                break
            if kind is not _POSITIONAL_ONLY and name in kwargs:
                return refusal(_errors.MULTIPLE_VALUES_FOR.format(name), True)
            arguments[name] = args[i]
            i += 1

    # The keyword phase, from the parameter the positionals stopped at.
    kwargs_name = None
    for param in parameters[start if start >= 0 else index:]:
        kind = param._kind
        if kind is _VAR_KEYWORD:
            kwargs_name = param._name
            continue
        if kind is _VAR_POSITIONAL:
            continue
        name = param._name
        value = kwargs.pop(name, _NOT_GIVEN)
        if value is not _NOT_GIVEN:
            if _POSONLY_KEYWORD == POSONLY_KEYWORD_REFUSED and kind is _POSITIONAL_ONLY:
                return refusal(_errors.POSITIONAL_ONLY_BY_KEYWORD.format(name), False)
            arguments[name] = value
        elif not partial and param._default is _empty:
            return refusal(_errors.MISSING_ARGUMENT.format(name), True)

    if kwargs:
        if kwargs_name is not None:
            arguments[kwargs_name] = kwargs
        elif posonly_in_kwargs:
            return refusal(_errors.POSITIONAL_ONLY_KEYWORDS.format(", ".join(posonly_in_kwargs)), False)
        else:
            return refusal(_errors.UNEXPECTED_KEYWORD_ARGUMENT.format(next(iter(kwargs))), False)

    bound_class = sig._bound_arguments_cls
    if bound_class is _BoundArguments:
        bound: Any = _new(_BoundArguments)
        bound.arguments = arguments
        bound._signature = sig
        return bound
    return bound_class(sig, arguments)


def _parameters_of(bound: Any) -> Optional[Iterable[Any]]:
    """The parameters of a plain BoundArguments' plain signature, or None."""
    if type(bound) is not _BoundArguments:
        return None
    sig = bound._signature
    if type(sig).parameters is not _PARAMETERS or type(bound.arguments) is not dict:
        return None
    parameters = sig._parameters.values()
    if not _PLAIN_TYPES.issuperset(map(type, parameters)):
        return None
    return parameters  # type: ignore[no-any-return]


def args_generic(bound: Any) -> Tuple[Any, ...]:
    """``BoundArguments.args`` without a plan."""
    parameters = _parameters_of(bound)
    if parameters is None:
        return _INSPECT_ARGS(bound)  # type: ignore[no-any-return]
    arguments = bound.arguments
    args: List[Any] = []
    for param in parameters:
        kind = param._kind
        if kind is _VAR_KEYWORD or kind is _KEYWORD_ONLY:
            break
        name = param._name
        if name not in arguments:
            break
        if kind is _VAR_POSITIONAL:
            args.extend(arguments[name])
        else:
            args.append(arguments[name])
    return tuple(args)


def kwargs_generic(bound: Any) -> Dict[str, Any]:
    """``BoundArguments.kwargs`` without a plan."""
    parameters = _parameters_of(bound)
    if parameters is None:
        return _INSPECT_KWARGS(bound)  # type: ignore[no-any-return]
    arguments = bound.arguments
    kwargs: Dict[str, Any] = {}
    started = False
    for param in parameters:
        kind = param._kind
        name = param._name
        if not started:
            if kind is _VAR_KEYWORD or kind is _KEYWORD_ONLY:
                started = True
            else:
                if name not in arguments:
                    started = True
                continue
        if name in arguments:
            if kind is _VAR_KEYWORD:
                kwargs.update(arguments[name])
            else:
                kwargs[name] = arguments[name]
    return kwargs


def apply_defaults_generic(bound: Any) -> None:
    """``BoundArguments.apply_defaults()`` without a plan."""
    parameters = _parameters_of(bound)
    if parameters is None:
        _INSPECT_APPLY_DEFAULTS(bound)
        return
    arguments = bound.arguments
    new_arguments = {}
    for param in parameters:
        name = param._name
        if name in arguments:
            new_arguments[name] = arguments[name]
        elif param._default is not _empty:
            new_arguments[name] = param._default
        elif param._kind is _VAR_POSITIONAL:
            new_arguments[name] = ()
        elif param._kind is _VAR_KEYWORD:
            new_arguments[name] = {}
    bound.arguments = new_arguments
