"""The drop-in for ``inspect``, in pure Python: the twin of ``_dropin.pxi``.

Each function here does what one piece of ``inspect`` does, step for step in
the same order, so that every answer and every message is ``inspect``'s; it
is faster because it reads the parameters' slots instead of their
properties and makes its objects without re-validating them:

- ``bind_signature(sig, args, kwargs, partial)``: ``Signature._bind``
  (``kwargs`` is the caller's own new dict, consumed as ``_bind`` consumes
  it);
- ``bound_args(ba)``, ``bound_kwargs(ba)``, ``apply_defaults(ba)``: the
  ``BoundArguments`` members of those names (``bound_args`` is inspect's
  own getter: see there);
- ``function_signature(cls, func)``: ``cls.from_callable(func)`` for a plain
  Python function, or ``None`` where ``inspect`` must answer.

Anything these cannot read as ``inspect`` itself would (a ``Signature``
subclass overriding ``_bind`` or ``parameters``, a ``Parameter`` subclass)
is handed to ``inspect``'s own code.
"""

from __future__ import annotations

from types import MappingProxyType as _MappingProxy
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ._dropin_common import (
    DIALECT,
    FUNCTION_TYPE,
    FUNCTION_TYPE_SIGNATURE_ATTRIBUTES,
    POSONLY_KEYWORD_REFUSED,
    POSONLY_KEYWORD_REQUIRED_MISSING,
    SIGNATURE_ATTRIBUTES,
)

__all__ = ["apply_defaults", "bind_signature", "bound_args", "bound_kwargs", "function_signature"]

_Parameter = DIALECT.Parameter
_BoundArguments = DIALECT.BoundArguments
_empty = DIALECT.empty
_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD, _VAR_POSITIONAL, _KEYWORD_ONLY, _VAR_KEYWORD = DIALECT.kinds
_PRIVATE_BIND = DIALECT.private_bind
_PARAMETERS = DIALECT.parameters_property
_SIGNATURE_INIT = DIALECT.signature_init
_KWONLY_MISSING_MESSAGE = DIALECT.kwonly_missing_message
_POSONLY_KEYWORD = DIALECT.posonly_keyword
_KEYWORDS = DIALECT.keywords
_PARAMETERS_DICT = DIALECT.parameters_dict
_INSPECT_ARGS = _BoundArguments.args.fget
_INSPECT_KWARGS = _BoundArguments.kwargs.fget
_INSPECT_APPLY_DEFAULTS = _BoundArguments.apply_defaults
_new = object.__new__
_OBJECT_NEW: Any = object.__new__
_NOT_GIVEN = object()
_PLAIN_TYPES = frozenset([_Parameter])  # parameters whose slots are read



def _refusal(message: str, suppress_context: bool) -> TypeError:
    """The TypeError inspect raises with ``message`` (``from None`` where
    ``suppress_context``), to be raised by the caller."""
    error = TypeError(message)
    if suppress_context:
        error.__suppress_context__ = True
    return error


def bind_signature(sig: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any], partial: bool) -> Any:
    """``sig._bind(args, kwargs, partial=partial)``, as inspect's own: the
    BoundArguments, or the TypeError inspect raises, returned for the caller
    to raise (as the compiled twin returns it)."""
    cls = type(sig)
    # Signatures of a class with its own _bind or parameters bind its way.
    if cls._bind is not _PRIVATE_BIND or cls.parameters is not _PARAMETERS:
        return sig._bind(args, kwargs, partial=True) if partial else sig._bind(args, kwargs)
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
                        return _refusal(
                            f"{name!r} parameter is positional only, but was passed as a keyword", True)
                    if _POSONLY_KEYWORD == POSONLY_KEYWORD_REQUIRED_MISSING and param._default is _empty:
                        return _refusal(f"missing a required positional-only argument: {name!r}", False)
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
                argtype = " keyword-only" if _KWONLY_MISSING_MESSAGE and kind is _KEYWORD_ONLY else ""
                return _refusal(f"missing a required{argtype} argument: {name!r}", True)
        else:
            # A positional argument to place.
            if index == count:
                return _refusal("too many positional arguments", True)
            param = parameters[index]
            index += 1
            kind = param._kind
            if kind is _VAR_KEYWORD or kind is _KEYWORD_ONLY:
                return _refusal("too many positional arguments", True)
            name = param._name
            if kind is _VAR_POSITIONAL:
                # args is the caller's own new tuple, as inspect's would be.
                arguments[name] = args[i:] if i else args
                break
            if kind is not _POSITIONAL_ONLY and name in kwargs:
                return _refusal(f"multiple values for argument {name!r}", True)
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
                return _refusal(f"{name!r} parameter is positional only, but was passed as a keyword", False)
            arguments[name] = value
        elif not partial and param._default is _empty:
            return _refusal(f"missing a required argument: {name!r}", True)

    if kwargs:
        if kwargs_name is not None:
            arguments[kwargs_name] = kwargs
        elif posonly_in_kwargs:
            return _refusal(
                "got some positional-only arguments passed as keyword arguments: "
                f"{', '.join(posonly_in_kwargs)!r}", False)
        else:
            return _refusal(f"got an unexpected keyword argument {next(iter(kwargs))!r}", False)

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


# ``BoundArguments.args``: inspect's own.  Its loop stops at the first
# parameter not given, and in pure Python the checks that reading the slots
# directly needs cost more than they save (3.11: 1.31 -> 1.60 us, 3.14:
# 0.84 -> 0.86 us for a seven-parameter signature).
bound_args = _INSPECT_ARGS


def bound_kwargs(bound: Any) -> Dict[str, Any]:
    """``BoundArguments.kwargs``."""
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


def apply_defaults(bound: Any) -> None:
    """``BoundArguments.apply_defaults()``."""
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


_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08


def function_signature(cls: type, func: Any) -> Any:
    """``cls.from_callable(func)`` for a plain Python function whose
    signature is what its code, defaults and annotations say; ``None`` for
    anything else, and for ``cls`` other than a plain ``Signature`` class.

    The parameters are made as ``inspect._signature_from_function`` makes
    them, without ``Parameter()``'s checks: a code object's names are
    identifiers, and the few that are not are left to inspect.
    """
    if type(func) is not FUNCTION_TYPE or not SIGNATURE_ATTRIBUTES.isdisjoint(func.__dict__):
        return None
    for name in FUNCTION_TYPE_SIGNATURE_ATTRIBUTES:
        if getattr(func, name, None):
            return None
    if cls.__init__ is not _SIGNATURE_INIT or cls.__new__ is not _OBJECT_NEW:  # type: ignore[misc]
        return None
    if cls._parameter_cls is not _Parameter:  # type: ignore[attr-defined]
        return None
    code = func.__code__
    pos_count = code.co_argcount
    kwonly_count = code.co_kwonlyargcount
    flags = code.co_flags
    total = pos_count + kwonly_count + bool(flags & _CO_VARARGS) + bool(flags & _CO_VARKEYWORDS)
    names = code.co_varnames[:total]
    for name in names:
        if not name.isidentifier() or name in _KEYWORDS:
            return None
    defaults = func.__defaults__ or ()
    if len(defaults) > pos_count:
        return None
    kwdefaults = func.__kwdefaults__
    try:
        annotations = func.__annotations__
    except Exception:  # noqa: BLE001 - inspect raises it, or answers otherwise
        return None
    posonly_count = code.co_posonlyargcount
    first_default = pos_count - len(defaults)
    params = _PARAMETERS_DICT()
    # Each Parameter is made inline, its four slots set: a helper function
    # per parameter would be a fifth of this function's time.
    for i in range(pos_count):
        name = names[i]
        param = _new(_Parameter)
        param._name = name
        param._kind = _POSITIONAL_ONLY if i < posonly_count else _POSITIONAL_OR_KEYWORD
        param._default = defaults[i - first_default] if i >= first_default else _empty
        param._annotation = annotations.get(name, _empty)
        params[name] = param
    index = pos_count + kwonly_count
    if flags & _CO_VARARGS:
        name = names[index]
        param = _new(_Parameter)
        param._name = name
        param._kind = _VAR_POSITIONAL
        param._default = _empty
        param._annotation = annotations.get(name, _empty)
        params[name] = param
        index += 1
    for name in names[pos_count : pos_count + kwonly_count]:
        param = _new(_Parameter)
        param._name = name
        param._kind = _KEYWORD_ONLY
        param._default = _empty if kwdefaults is None else kwdefaults.get(name, _empty)
        param._annotation = annotations.get(name, _empty)
        params[name] = param
    if flags & _CO_VARKEYWORDS:
        name = names[index]
        param = _new(_Parameter)
        param._name = name
        param._kind = _VAR_KEYWORD
        param._default = _empty
        param._annotation = annotations.get(name, _empty)
        params[name] = param
    sig: Any = _new(cls)
    sig._parameters = _MappingProxy(params)
    sig._return_annotation = annotations.get("return", _empty)
    return sig
