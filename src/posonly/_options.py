# cython: annotation_typing=False
"""inspect's options, served fast: signatures made with ``eval_str``,
``globals``, ``locals`` and (3.14 and later) ``annotation_format``, and
``inspect.getfullargspec`` and ``inspect.getcallargs``.

A plain function's signature with options is the core's plain signature
(``function_signature``), with the annotations the running inspect would put
in it.  Those are the function's own ``__annotations__`` unless an option asks
for more; then they are what the running inspect's own ``get_annotations``
returns, called with the arguments inspect's ``_signature_from_function``
passes it, and written into a copy of the signature.  So the answer
and every error (a name that does not resolve, a syntax error in a string
annotation, ``eval_str`` with a format other than ``VALUE``) are inspect's;
only what inspect itself would do around the evaluation is saved.  The
annotations need no evaluation when:

- ``eval_str`` is true, the format is ``VALUE`` and no annotation is a
  ``str`` (and, for a function with type parameters, ``locals`` is None or a
  dict: inspect merges the type parameters into it);
- the format is ``FORWARDREF`` (the core read ``__annotations__`` without an
  error, and inspect then returns them as they are);
- the format is ``STRING``, the function has no ``__annotate__`` (none was
  compiled, or ``from __future__ import annotations`` made strings of them)
  and every annotation is a ``str``.

Anything else (an unknown option, an option value that is not a plain
``bool`` or ``Format``, an object the core does not serve) goes to inspect's
own code.  ``signature_fallback`` is the one place the signature entry points
hand such calls to, and where they are reported to the observer (see
``_served``).

``getfullargspec`` and ``getcallargs`` are inspect's, step for step, reading
a plain function's (or a bound method's function's) signature from the core.
"""

from __future__ import annotations

import inspect
import types
from typing import Any, Callable, Dict, Optional, Tuple

from . import _dropin, _impl
from ._dropin_common import (
    DIALECT,
    FALLBACK_REASONS,
    FUNCTION_TYPE,
    INSPECT_FROM_CALLABLE,
    INSPECT_SIGNATURE,
    SIGNATURE_ATTRIBUTES,
)

__all__ = ["getcallargs", "getfullargspec", "set_observer", "signature_fallback"]

_empty = DIALECT.empty
_Parameter = DIALECT.Parameter
_Signature = DIALECT.Signature
_BoundArguments = DIALECT.BoundArguments
_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD, _VAR_POSITIONAL, _KEYWORD_ONLY, _VAR_KEYWORD = DIALECT.kinds
_PARAMETERS_DICT = DIALECT.parameters_dict
_MappingProxy = types.MappingProxyType
_new = object.__new__
_FullArgSpec = inspect.FullArgSpec
_METHOD = types.MethodType
_INSPECT_GETFULLARGSPEC: Callable[..., Any] = inspect.getfullargspec
_INSPECT_GETCALLARGS: Callable[..., Any] = inspect.getcallargs

_OPTION_NAMES = frozenset(
    name
    for name, param in inspect.signature(INSPECT_FROM_CALLABLE).parameters.items()
    if param.kind is param.KEYWORD_ONLY and name != "follow_wrapped"
)
"""The options the running ``inspect.signature`` takes (none on 3.9)."""
_GETFULLARGSPEC_OPTIONS = frozenset(
    name
    for name, param in inspect.signature(_INSPECT_GETFULLARGSPEC).parameters.items()
    if param.kind is param.KEYWORD_ONLY
)
"""The options the running ``inspect.getfullargspec`` takes (3.15's
``annotation_format``)."""

_VALUE = 1
_FORWARDREF = 3
_STRING = 4
if DIALECT.annotation_format_value is not None:
    import annotationlib  # type: ignore[import-not-found]

    _Format: Any = annotationlib.Format
    _annotate_of: Any = FUNCTION_TYPE.__dict__.get("__annotate__")
else:
    _Format = None
    _annotate_of = None

_core: Any = _impl.dropin
"""The core that makes plain signatures here: the entry points' (see
:func:`serve_with`)."""


def serve_with(core: Any) -> None:
    """Make plain signatures with ``core`` from now on, as the entry points do."""
    global _core
    _core = core


def set_observer(observer: Optional[Callable[[str, Optional[str]], Any]]) -> None:
    """Tell ``observer(entry, reason)`` of every call of an entry point of
    the drop-in (None: tell no one).  ``entry`` names the entry point
    (``"inspect.signature"``, ``"Signature.bind"``, ...), ``reason`` is None
    for a call posonly served, else the key in ``FALLBACK_REASONS`` of why
    inspect's own code ran.  Both cores and the entry points are told."""
    if observer is not None and not callable(observer):
        raise TypeError(f"the observer must be callable or None, not {type(observer).__name__}")
    for core in {id(_impl.dropin): _impl.dropin, id(_dropin): _dropin}.values():
        core.set_observer(observer)


# -- why a call is not served -------------------------------------------------

def why_not(cls: Any, obj: Any) -> str:
    """The key in ``FALLBACK_REASONS`` of why the core does not serve
    ``cls.from_callable(obj)`` (asked only while someone observes)."""
    kind = type(obj)
    if kind is FUNCTION_TYPE:
        attributes = getattr(obj, "__dict__", None) or {}
        if "__wrapped__" in attributes:
            return "wrapped"
        if not SIGNATURE_ATTRIBUTES.isdisjoint(attributes) or getattr(
                obj, "__text_signature__", None):
            return "own-signature"
        if (cls.__init__ is not DIALECT.signature_init or cls.__new__ is not object.__new__
                or getattr(cls, "_parameter_cls", None) is not _Parameter):
            return "signature-subclass"
        try:
            obj.__annotations__
        except Exception:  # noqa: BLE001 - what inspect meets too
            return "annotations-unreadable"
        return "unusual-function"
    if isinstance(obj, type):
        return "class"
    if kind is _METHOD or isinstance(obj, (types.MethodWrapperType, types.WrapperDescriptorType,
                                           types.MethodDescriptorType,
                                           types.ClassMethodDescriptorType)):
        return "method"
    if isinstance(obj, types.BuiltinFunctionType):
        return "builtin"
    import functools

    if isinstance(obj, (functools.partial, functools.partialmethod)):
        return "partial"
    return "callable-object"


def bind_reason(sig: Any) -> Optional[str]:
    """Why a bind of ``sig`` runs inspect's own code, or None."""
    cls = type(sig)
    if (getattr(cls, "_bind", None) is not DIALECT.private_bind
            or getattr(cls, "parameters", None) is not DIALECT.parameters_property):
        return "signature-subclass"
    try:
        for param in sig._parameters.values():
            if type(param) is not _Parameter:
                return "signature-subclass"
    except AttributeError:
        return "signature-subclass"
    return None


def bound_reason(bound: Any) -> Optional[str]:
    """Why ``bound.apply_defaults()`` (or ``.args``, ``.kwargs``) runs
    inspect's own code, or None."""
    if type(bound) is not _BoundArguments:
        return "bound-arguments-subclass"
    return bind_reason(getattr(bound, "_signature", None))


# -- signatures with options --------------------------------------------------

def _format_code(value: Any) -> int:
    """``annotation_format``'s value as 1, 3 or 4, or 0 where inspect must
    answer (an other value, or one of a type that may compare otherwise)."""
    if type(value) is _Format or type(value) is int:
        code = int(value)
        if code == _VALUE or code == _FORWARDREF or code == _STRING:
            return code
    return 0


def _needs_evaluation(func: Any, eval_str: bool, code: int, locals_: Any) -> bool:
    """Whether inspect's annotations for ``func`` with these options may
    differ from its ``__annotations__`` (or raise), so that inspect's own
    ``get_annotations`` must make them."""
    if code == _VALUE:
        if not eval_str:
            return False
        annotations = func.__annotations__
        if not annotations:
            return False
        for value in annotations.values():
            if isinstance(value, str):
                return True
        # inspect merges the type parameters into locals: an error unless a dict.
        return (locals_ is not None and type(locals_) is not dict
                and bool(getattr(func, "__type_params__", ())))
    if eval_str:
        return True  # inspect's ValueError
    if code == _FORWARDREF:
        return False
    # STRING: __annotate__ is called when there is one.
    if _annotate_of.__get__(func) is not None:
        return True
    for value in func.__annotations__.values():
        if not isinstance(value, str):
            return True
    return False


def _with_annotations(sig: Any, annotations: Dict[str, Any]) -> Any:
    """A copy of ``sig`` (of its class, made by the core) with
    ``annotations`` in place of its parameters' own: parameters and
    signature made as the core makes them, so that nothing the core may
    share is changed."""
    params = _PARAMETERS_DICT()
    for param in sig._parameters.values():
        name = param._name
        made = _new(_Parameter)
        made._name = name
        made._kind = param._kind
        made._default = param._default
        made._annotation = annotations.get(name, _empty)
        params[name] = made
    copy = _new(type(sig))
    copy._parameters = _MappingProxy(params)
    copy._return_annotation = annotations.get("return", _empty)
    return copy


def options_signature(cls: Any, func: Any, follow_wrapped: Any,
                      options: Dict[str, Any]) -> Tuple[Any, Optional[str]]:
    """``(cls.from_callable(func, follow_wrapped=follow_wrapped, **options),
    None)`` made here for a plain
    function, or ``(None, reason)`` where inspect's own code must answer.
    Raises what inspect raises evaluating the annotations."""
    eval_str = False
    globals_ = locals_ = None
    code = _VALUE
    annotation_format = None
    for name, value in options.items():
        if name not in _OPTION_NAMES:
            return None, "option"
        if name == "eval_str":
            if type(value) is not bool:
                return None, "option"
            eval_str = value
        elif name == "globals":
            globals_ = value
        elif name == "locals":
            locals_ = value
        elif name == "annotation_format":
            code = _format_code(value)
            if not code:
                return None, "option"
            annotation_format = value
        else:
            return None, "option"
    sig = _core.function_signature(cls, func, follow_wrapped)
    if sig is None:
        return None, None
    if _needs_evaluation(func, eval_str, code, locals_):
        get_annotations = inspect.__dict__["get_annotations"]
        if annotation_format is None:
            annotations = get_annotations(func, globals=globals_, locals=locals_,
                                          eval_str=eval_str)
        else:
            annotations = get_annotations(func, globals=globals_, locals=locals_,
                                          eval_str=eval_str, format=annotation_format)
        sig = _with_annotations(sig, annotations)
    return sig, None


def signature_fallback(entry: str, cls: Any, obj: Any, follow_wrapped: Any,
                       options: Dict[str, Any]) -> Any:
    """What the signature entry point ``entry`` answers for ``obj`` when
    options are passed or the core did not serve it: served here where it
    can be (a plain function, the options above), else by inspect's own
    code; reported to the observer either way.

    ``entry`` is ``"inspect.signature"``, ``"Signature.from_callable"`` (of
    ``cls``) or ``"posonly.signature"`` (``cls`` is posonly's Signature; an
    object's own ``__signature__`` is made one).  Without options the core
    has already been asked."""
    reason: Optional[str] = None
    if options and type(obj) is FUNCTION_TYPE:
        try:
            sig, reason = options_signature(cls, obj, follow_wrapped, options)
        except BaseException:
            # inspect's own error, evaluating the annotations: served so.
            if (observer := _core.get_observer()) is not None:
                observer(entry, None)
            raise
        if sig is not None:
            if (observer := _core.get_observer()) is not None:
                observer(entry, None)
            return sig
    if (observer := _core.get_observer()) is not None:
        observer(entry, reason or why_not(cls, obj))
    if entry == "inspect.signature" and options and not _OPTION_NAMES.issuperset(options):
        # inspect.signature's own error for an option it does not take.
        return INSPECT_SIGNATURE(obj, follow_wrapped=follow_wrapped, **options)
    # inspect.signature calls Signature.from_callable; called here directly,
    # lest the patched one be asked (and report) again.
    sig = INSPECT_FROM_CALLABLE(cls, obj, follow_wrapped=follow_wrapped, **options)
    if entry == "posonly.signature" and not isinstance(sig, cls):
        # An object's own __signature__ is returned by inspect as it is.
        sig = cls(sig.parameters.values(), return_annotation=sig.return_annotation,
                  __validate_parameters__=False)
    return sig


# -- getfullargspec and getcallargs --------------------------------------------

def _spec_signature(func: Any, options: Dict[str, Any]) -> Any:
    """The signature ``getfullargspec`` reads for ``func``, or None where
    inspect's own code must answer."""
    if type(func) is not FUNCTION_TYPE:
        if type(func) is not _METHOD:
            return None
        # getfullargspec keeps a bound method's first parameter: its
        # function's signature.
        func = func.__func__
        if type(func) is not FUNCTION_TYPE:
            return None
    # As inspect reads it: without unwrapping.
    if not options:
        return _core.function_signature(_Signature, func, False)
    sig, _ = options_signature(_Signature, func, False, options)
    return sig


def _spec_of(sig: Any, with_annotations: bool = True) -> Any:
    """inspect's ``getfullargspec`` of ``sig``, step for step (its
    annotations left empty where not ``with_annotations``)."""
    args = []
    varargs = None
    varkw = None
    kwonlyargs = []
    annotations = {}
    defaults: Any = ()
    kwdefaults: Any = {}
    if with_annotations and sig._return_annotation is not _empty:
        annotations["return"] = sig._return_annotation
    for param in sig._parameters.values():
        kind = param._kind
        name = param._name
        if kind is _POSITIONAL_ONLY or kind is _POSITIONAL_OR_KEYWORD:
            args.append(name)
            if param._default is not _empty:
                defaults += (param._default,)
        elif kind is _VAR_POSITIONAL:
            varargs = name
        elif kind is _KEYWORD_ONLY:
            kwonlyargs.append(name)
            if param._default is not _empty:
                kwdefaults[name] = param._default
        else:
            varkw = name
        if with_annotations and param._annotation is not _empty:
            annotations[name] = param._annotation
    if not with_annotations:
        return args, varargs, varkw, defaults or None, kwonlyargs, kwdefaults or None, None
    return _FullArgSpec(args, varargs, varkw, defaults or None, kwonlyargs, kwdefaults or None,
                        annotations)


def getfullargspec(func: Any, **options: Any) -> Any:
    """``inspect.getfullargspec(func, **options)``, the same answer."""
    if not options or _GETFULLARGSPEC_OPTIONS.issuperset(options):
        try:
            sig = _spec_signature(func, options)
        except Exception as ex:
            raise TypeError("unsupported callable") from ex
        if sig is not None:
            if (observer := _core.get_observer()) is not None:
                observer("inspect.getfullargspec", None)
            return _spec_of(sig)
    if (observer := _core.get_observer()) is not None:
        observer("inspect.getfullargspec",
                  "option" if options and not _GETFULLARGSPEC_OPTIONS.issuperset(options)
                  else why_not(_Signature, func))
    return _INSPECT_GETFULLARGSPEC(func, **options)


def getcallargs(func: Any, /, *positional: Any, **named: Any) -> Dict[str, Any]:
    """``inspect.getcallargs(func, *positional, **named)``, the same answer."""
    sig = None
    kind = type(func)
    if kind is FUNCTION_TYPE or kind is _METHOD:
        try:
            sig = _spec_signature(func, {})
        except Exception:  # noqa: BLE001 - inspect's own code raises it
            sig = None
    if sig is None:
        if (observer := _core.get_observer()) is not None:
            observer("inspect.getcallargs", why_not(_Signature, func))
        return _INSPECT_GETCALLARGS(func, *positional, **named)
    if (observer := _core.get_observer()) is not None:
        observer("inspect.getcallargs", None)
    # inspect's getcallargs, step for step, from its getfullargspec's fields.
    args, varargs, varkw, defaults, kwonlyargs, kwonlydefaults, _ = _spec_of(sig, False)
    f_name = func.__name__
    arg2value: Dict[str, Any] = {}
    if kind is _METHOD and func.__self__ is not None:
        positional = (func.__self__,) + positional
    num_pos = len(positional)
    num_args = len(args)
    num_defaults = len(defaults) if defaults else 0
    n = min(num_pos, num_args)
    for i in range(n):
        arg2value[args[i]] = positional[i]
    if varargs:
        arg2value[varargs] = tuple(positional[n:])
    possible_kwargs = set(args + kwonlyargs)
    if varkw:
        arg2value[varkw] = {}
    for kw, value in named.items():
        if kw not in possible_kwargs:
            if not varkw:
                raise TypeError("%s() got an unexpected keyword argument %r" % (f_name, kw))
            arg2value[varkw][kw] = value
            continue
        if kw in arg2value:
            raise TypeError("%s() got multiple values for argument %r" % (f_name, kw))
        arg2value[kw] = value
    if num_pos > num_args and not varargs:
        inspect._too_many(f_name, args, kwonlyargs, varargs,  # type: ignore[attr-defined]
                          num_defaults, num_pos, arg2value)
    if num_pos < num_args:
        req = args[:num_args - num_defaults]
        for arg in req:
            if arg not in arg2value:
                inspect._missing_arguments(f_name, req, True, arg2value)  # type: ignore[attr-defined]
        for i, arg in enumerate(args[num_args - num_defaults:]):
            if arg not in arg2value:
                arg2value[arg] = defaults[i]
    missing = 0
    for kwarg in kwonlyargs:
        if kwarg not in arg2value:
            if kwonlydefaults and kwarg in kwonlydefaults:
                arg2value[kwarg] = kwonlydefaults[kwarg]
            else:
                missing += 1
    if missing:
        inspect._missing_arguments(f_name, kwonlyargs, False, arg2value)  # type: ignore[attr-defined]
    return arg2value


assert set(FALLBACK_REASONS) >= {"option", "signature-subclass"}
