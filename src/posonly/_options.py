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

Bound methods, ``functools.wraps`` chains, classes, callable objects and
partials whose signature inspect takes from a plain function are served
from that function's (a class's partialmethod ``__init__``, ``__new__`` or
metaclass ``__call__`` too), enums as the running inspect reads them, and
builtins from their text signatures parsed once (``kind_signature``).  Anything else (an unknown option, an
option value that is not a plain ``bool`` or ``Format``, an object none of
these serve) goes to inspect's own code.  ``signature_fallback`` is the one place the signature entry points
hand such calls to, and where they are reported to the observer (see
``_served``).

``getfullargspec`` and ``getcallargs`` are inspect's, step for step, reading
a plain function's (or a bound method's function's) signature from the core.
"""

from __future__ import annotations

import enum
import functools
import inspect
import threading
import types
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple

from . import _dropin, _errors, _impl
from ._dialect import (
    DIALECT,
    FALLBACK_REASONS,
    FUNCTION_TYPE,
    FUNCTION_TYPE_SIGNATURE_ATTRIBUTES,
    INSPECT_FROM_CALLABLE,
    INSPECT_SIGNATURE,
    SIGNATURE_ATTRIBUTES,
    UNWRAPPED_SIGNATURE_ATTRIBUTES,
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
_INSPECT_GETCALLARGS: Callable[..., Dict[str, Any]] = inspect.getcallargs

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
    if kind in _BUILTIN_KINDS:  # (PyPy's method-wrappers are methods: not these)
        return "builtin"
    if kind is _METHOD or isinstance(obj, (types.MethodWrapperType, types.WrapperDescriptorType,
                                           types.MethodDescriptorType,
                                           types.ClassMethodDescriptorType)):
        return "method"
    if isinstance(obj, types.BuiltinFunctionType):
        return "builtin"
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


# -- other kinds of callables --------------------------------------------------
#
# inspect's ``_signature_from_callable`` for the kinds of callables programs
# ask about most, served where each step inspect takes can be seen, without
# running any code of the user's, to end at a plain function whose signature
# the core (or ``options_signature``) makes:
#
# - a bound method of a plain function (a classmethod reached through its
#   class too): the function's signature without its first parameter;
# - a ``functools.wraps`` chain of plain functions: the innermost one's;
# - a class whose metaclass reads attributes as ``type`` does and has no
#   ``__call__`` of its own, with no ``__signature__``, ``__wrapped__`` or
#   partialmethod, that has a Python ``__init__`` found first in its MRO and
#   the builtin ``__new__`` of ``object`` (or of a builtin base, as
#   exceptions have), or a Python ``__new__`` and the builtin ``__init__``,
#   or both Python (the one the running inspect takes, ``_NEW_BY_MRO``):
#   that function's signature without its first parameter; with neither
#   anywhere but in ``object``, ``object``'s signature, or the first text
#   signature of its MRO (builtin types) as builtins' below; of a metaclass
#   with a Python ``__call__``, that ``__call__``'s, bound;
# - an instance of such a class with a Python ``__call__`` and nothing that
#   reads or answers attributes its own way: ``__call__``'s, bound;
# - a ``functools.partial`` (not a subclass) of any of these: inspect's own
#   ``_signature_get_partial`` on the signature served for its function;
# - enums and partialmethods, below.
#
# Which of these the running inspect answers so is learned at import
# (``_learn_kinds``), from probes of each; a kind it answers otherwise is
# left to inspect's own code.  Nothing is cached for these (builtins are
# below): every answer is made
# from what the objects hold when asked (the plain functions' signatures
# are the core's, cached as the core caches them).

_STATICMETHOD: Any = staticmethod
_BUILTIN_FUNCTION = types.BuiltinFunctionType
_WRAPPER_DESCRIPTOR = types.WrapperDescriptorType
_TYPE: Any = type
_OBJECT: Any = object
_MAX_WRAPPED = 64
"""Longer ``__wrapped__`` chains (and cycles) are unwrapped by inspect's own code."""


class _Nothing:
    """The type of ``_NOTHING``: no entry in a class's dict."""


_NOTHING: Any = _Nothing()
_LOOKED_UP_ON_CLASSES = frozenset(["__signature__", "__wrapped__", "_partialmethod",
                                   "__partialmethod__"])
"""Names inspect reads on a class before its ``__init__`` or ``__new__``."""
_LOOKED_UP = _LOOKED_UP_ON_CLASSES | {"__text_signature__", "__code__"}
"""Names inspect reads on a callable object before its type's ``__call__``
(``__code__`` would make it function-like)."""
_READ_THEIR_OWN_WAY = frozenset(["__getattr__", "__getattribute__", "__class__", "__eq__",
                                 "__get__"])
"""Names by which a class answers attribute reads, ``isinstance`` or
inspect's ``obj in (type, object)`` its own way, or makes its instances
method descriptors (and ``__dict__``, unless the one ``type`` makes)."""
_GETSET = types.GetSetDescriptorType
_REFUSED_IN_METACLASSES = _LOOKED_UP | _READ_THEIR_OWN_WAY | {"__call__", "__mro__"}
_REFUSED_IN_CLASSES_OF_CALLABLES = _LOOKED_UP | _READ_THEIR_OWN_WAY
_REFUSED_IN_METACLASS_OF_CALL = _LOOKED_UP | _READ_THEIR_OWN_WAY | {"__mro__"}
_PARTIAL: Any = functools.partial
_DICT_ENTRIES = (_Nothing, _GETSET)
"""What a class's own ``__dict__`` entry may be: none, or the one ``type`` makes."""


def _plain_metaclass(meta: Any) -> bool:
    """Whether a class of metaclass ``meta`` has its attributes read as
    ``type`` reads them, and is made by ``type.__call__``."""
    if meta is _TYPE:
        return True
    if type(meta) is not _TYPE:
        return False
    for base in meta.__mro__:
        if base is _TYPE or base is _OBJECT:
            continue
        if not _reads_as_type(base.__dict__, _REFUSED_IN_METACLASSES):
            return False
    return True


def _reads_as_type(attributes: Any, refused: FrozenSet[str]) -> bool:
    """Whether a metaclass base's own ``attributes`` leave a class's reads
    and making to ``type``: none of ``refused``, the ``__dict__`` entry
    ``type`` makes or none, and plain constructors."""
    return (refused.isdisjoint(attributes)
            and type(attributes.get("__dict__", _NOTHING)) in _DICT_ENTRIES
            and _constructors_plain(attributes))


def _constructors_plain(attributes: Any) -> bool:
    """Whether a metaclass base's own ``__new__`` and ``__init__``, where
    it has them, are functions or staticmethods (no data descriptors)."""
    for name in ("__new__", "__init__"):
        value = attributes.get(name, None)
        if value is not None and type(value) is not FUNCTION_TYPE and type(
                value) is not _STATICMETHOD:
            return False
    return True


def _unwrapped(func: Any) -> Any:
    """The function at the end of ``func``'s ``__wrapped__`` chain, as
    inspect's ``unwrap`` finds it, where every link is a plain function with
    no signature of its own; None for any other chain (a cycle too)."""
    for _ in range(_MAX_WRAPPED):
        attributes = func.__dict__
        if "__wrapped__" not in attributes:
            return func
        if not UNWRAPPED_SIGNATURE_ATTRIBUTES.isdisjoint(attributes):
            return None
        for name in FUNCTION_TYPE_SIGNATURE_ATTRIBUTES:
            if getattr(func, name, None):
                return None
        func = attributes["__wrapped__"]
        if type(func) is not FUNCTION_TYPE:
            return None
    return None


def _function_sig(cls: Any, func: Any, follow_wrapped: Any, options: Dict[str, Any]) -> Any:
    """inspect's signature of the plain function ``func`` as
    ``_signature_from_callable`` gets it, or None."""
    if follow_wrapped is True:
        if "__wrapped__" in func.__dict__:
            func = _unwrapped(func)
            if func is None:
                return None
    elif follow_wrapped is not False:
        return None
    if options:
        return options_signature(cls, func, follow_wrapped, options)[0]
    return _core.function_signature(cls, func, follow_wrapped)


def _bound(sig: Any) -> Any:
    """inspect's ``_signature_bound_method(sig)``, or None where it raises."""
    params = sig._parameters
    made = _PARAMETERS_DICT()
    first = True
    for name, param in params.items():
        if first:
            first = False
            kind = param._kind
            if kind is _VAR_POSITIONAL:
                return sig
            if kind is not _POSITIONAL_ONLY and kind is not _POSITIONAL_OR_KEYWORD:
                return None
            continue
        made[name] = param
    if first:
        return None  # no parameter at all
    bound = _new(type(sig))
    bound._parameters = _MappingProxy(made)
    bound._return_annotation = sig._return_annotation
    return bound


def _class_factory(obj: Any) -> Any:
    """The plain function inspect makes the class ``obj``'s signature of
    (its ``__init__`` or ``__new__``), where every version reads the same
    one and nothing else; else None."""
    if not _plain_metaclass(type(obj)) or obj is _OBJECT or obj is _TYPE:
        return None
    init: Any = _NOTHING
    new: Any = _NOTHING
    new_first = False
    for base in obj.__mro__:
        attributes = base.__dict__
        if not _LOOKED_UP_ON_CLASSES.isdisjoint(attributes):
            return None
        if new is _NOTHING:
            new = attributes.get("__new__", _NOTHING)
            new_first = init is _NOTHING and new is not _NOTHING
        if init is _NOTHING:
            init = attributes.get("__init__", _NOTHING)
    own = obj.__dict__
    if type(init) is FUNCTION_TYPE and type(new) is _STATICMETHOD:
        # Both Python: which one inspect reads is learned (_NEW_BY_MRO).
        if not _KINDS[8]:
            return None
        new = getattr(obj, "__new__", None)
        # (PyPy's object.__new__ and __init__ are functions of builtin code.)
        if (type(new) is not FUNCTION_TYPE or type(new.__code__) is not _CODE_TYPE
                or type(init.__code__) is not _CODE_TYPE):
            return None
        if _NEW_BY_MRO[0]:
            # 3.13 on: the first class of the MRO with either (__new__ first).
            return new if new_first else init
        # Before: the class's own __new__, its own __init__, an inherited __new__.
        return init if "__init__" in own and "__new__" not in own else new
    if type(init) is FUNCTION_TYPE or type(init) is _PARTIALMETHOD:
        # A builtin __new__ (object's, an exception's), none of the class's own.
        if "__new__" in own or type(new) is not _BUILTIN_FUNCTION or not _KINDS[2]:
            return None
        if type(getattr(obj, "__new__", None)) is not _BUILTIN_FUNCTION:
            return None
        if type(init) is _PARTIALMETHOD:
            return _partialmethod_way(0, obj, init)
        return init
    if type(init) is _WRAPPER_DESCRIPTOR and type(new) is _PARTIALMETHOD and _KINDS[3]:
        if "__init__" in own:
            return None
        return _partialmethod_way(1, obj, new)
    if type(init) is _WRAPPER_DESCRIPTOR and type(new) is _STATICMETHOD and _KINDS[3]:
        if "__init__" in own:
            return None
        new = getattr(obj, "__new__", None)
        if type(new) is FUNCTION_TYPE:
            return new
    return None


# -- partialmethods --------------------------------------------------------------
#
# A class's ``__init__`` or ``__new__``, or its metaclass's ``__call__``, may
# be a ``functools.partialmethod`` of a plain function.  inspect reads it one
# of two ways, which differ between releases and between the three names:
#
# 1. as ``getattr`` gives it, an unbound method carrying the partialmethod,
#    which inspect reads by its step for partialmethods (the function's
#    signature, its arguments applied after a first one, the first parameter
#    put back), then drops the first parameter as of any method;
# 2. as the partialmethod's ``__get__`` gives it bound to its class (or
#    metaclass): a partial of the bound function, read as partials are.
#
# Which way the running inspect takes for each name is learned at import.

_PARTIALMETHOD: Any = functools.partialmethod
_PLACEHOLDER: Any = getattr(functools, "Placeholder", _NOTHING)
_PARTIALMETHOD_WAYS = [0, 0, 0]
"""For a partialmethod as ``__init__``, ``__new__`` and metaclass
``__call__``: the way the running inspect reads it (above), or 0 where
neither is its (learned at import)."""


def _partialmethod_way(index: int, owner: Any, method: Any) -> Any:
    """``(way, owner, method)`` for a partialmethod found as the method
    ``index`` says of ``owner``, when it is one of a plain function that
    the running inspect reads one of the ways above; else None."""
    way = _PARTIALMETHOD_WAYS[index]
    if not way or type(method.func) is not FUNCTION_TYPE:
        return None
    return (way, owner, method)


def _partialmethod_signature(cls: Any, found: Any, follow_wrapped: Any,
                             options: Dict[str, Any], skip_bound: Any) -> Any:
    """inspect's signature of a class by the partialmethod ``found``
    (``(way, owner, method)``), or None where inspect's own code must
    answer."""
    way, owner, method = found
    if way == 2:
        # A partial of the function bound to the owner, and no more.
        return kind_signature(cls, method.__get__(owner, type(owner)), follow_wrapped, options,
                              skip_bound)
    if cls is not _Signature and cls not in SIGNATURE_CLASSES:
        return None
    for value in method.args:
        if value is _PLACEHOLDER:
            return None
    wrapped = _function_sig(cls, method.func, follow_wrapped, options)
    if wrapped is None:
        return None
    sig = _partial_step(wrapped, method, (None,))
    first = None
    for first in wrapped._parameters.values():
        break
    if first is not None and first._kind is not _VAR_POSITIONAL:
        params = _PARAMETERS_DICT()
        params[first._name] = first
        for name, param in sig._parameters.items():
            params[name] = param
        made = _new(type(sig))
        made._parameters = _MappingProxy(params)
        made._return_annotation = sig._return_annotation
        sig = made
    if not skip_bound:
        return sig
    return _bound(sig)


SIGNATURE_CLASSES: List[Any] = []
"""The Signature classes whose ``from_callable`` answers as inspect's own
(posonly's, added by ``_inspect``)."""
_OBJECT_PARAMETERS: Any = None
"""The parameters of inspect's signature of ``object`` (learned at import)."""


def _metaclass_call(obj: Any) -> Any:
    """The plain function that is the first ``__call__`` in the MRO of the
    class ``obj``'s metaclass, where the metaclass otherwise reads
    attributes as ``type`` does (or as the enum metaclass's own
    ``__getattr__`` does) and no class of ``obj``'s MRO has anything
    inspect reads before it; else None."""
    meta = type(obj)
    if type(meta) is not _TYPE or meta is _TYPE:
        return None
    call: Any = _NOTHING
    by_members = False
    for base in meta.__mro__:
        if base is _TYPE or base is _OBJECT:
            continue
        attributes = base.__dict__
        if type(attributes.get("__dict__", _NOTHING)) not in _DICT_ENTRIES:
            return None
        if not _REFUSED_IN_METACLASS_OF_CALL.isdisjoint(attributes):
            # The enum metaclass's __getattr__ answers a name inspect reads
            # on the class from its members (dunder names: never).
            if (base is not _ENUM_TYPE or _ENUM_GETATTR is None or not _KINDS[11]
                    or attributes.get("__getattr__") is not _ENUM_GETATTR
                    or not _REFUSED_BESIDE_GETATTR.isdisjoint(attributes)):
                return None
            by_members = True
        if not _constructors_plain(attributes):
            return None
        if call is _NOTHING:
            call = attributes.get("__call__", _NOTHING)
    if type(call) is _PARTIALMETHOD:
        call = _partialmethod_way(2, meta, call)
        if call is None:
            return None
    elif (type(call) is not FUNCTION_TYPE or type(call.__code__) is not _CODE_TYPE
            or "__wrapped__" in call.__dict__):
        return None
    members: Any = _NOTHING
    for base in obj.__mro__:
        attributes = base.__dict__
        if not _LOOKED_UP_ON_CLASSES.isdisjoint(attributes):
            return None
        if by_members and members is _NOTHING:
            members = attributes.get("_member_map_", _NOTHING)
    if by_members and (type(members) is not dict
                       or not _LOOKED_UP_ON_CLASSES.isdisjoint(members)):
        return None
    return call


# -- enums ---------------------------------------------------------------------
#
# inspect reads an enum class one of two ways, by where the enum module keeps
# what it says of it:
#
# - the metaclass's ``__call__`` (before 3.12, and PyPy 3.11), as for any
#   metaclass with one (``_metaclass_call``), but through the metaclass's
#   ``__getattr__``, which answers the names inspect reads on the class
#   (``__signature__``, ``__wrapped__``, a partialmethod's) from the class's
#   members, and raises AttributeError for dunder names;
# - the enum module's own ``__signature__`` (3.12 on): a classmethod of
#   ``Enum`` returning text that inspect parses, or a property of the
#   metaclass returning an ``inspect.Signature``; either answers by whether
#   the class has members.  The two answers (and whether they are of the
#   Signature class asked for) are learned from the running inspect at
#   import, and the class's members are read when asked.

_ENUM_TYPE: Any = enum.EnumMeta
_ENUM_GETATTR: Any = _ENUM_TYPE.__dict__.get("__getattr__")
_REFUSED_BESIDE_GETATTR = _REFUSED_IN_METACLASS_OF_CALL - {"__getattr__"}
_REFUSED_BESIDE_SIGNATURE = tuple(sorted(_REFUSED_IN_METACLASS_OF_CALL - {"__signature__"}))
_ENUM_HOLDER: Any = None
"""The metaclass (``EnumType``) or class (``Enum``) whose ``__signature__``
the enum module answers with, or None."""
for _holder in (enum.EnumMeta, enum.Enum):
    if "__signature__" in _holder.__dict__:
        _ENUM_HOLDER = _holder
        break
_ENUM_SIGNATURE: Any = None if _ENUM_HOLDER is None else _ENUM_HOLDER.__dict__["__signature__"]
_ENUM_PARAMETERS: List[Any] = [None, None]
"""The parameters of inspect's answer for an enum class without members,
and with (learned at import)."""
_ENUM_OWN_CLASS = [True]
"""Whether that answer is of the Signature class asked for (text parsed by
it), else always ``inspect.Signature`` (the metaclass's property)."""


def _enum_signature(cls: Any, obj: Any) -> Any:
    """inspect's signature of the enum class ``obj`` from the enum module's
    own ``__signature__``, where inspect reads that and nothing before it,
    and the class's ``_member_names_`` is a list; else None."""
    meta = type(obj)
    if meta is not _ENUM_TYPE:
        for base in meta.__mro__:
            if base is _ENUM_TYPE:
                break
            if not _reads_as_type(base.__dict__, _REFUSED_IN_METACLASS_OF_CALL):
                return None
    attributes = _ENUM_TYPE.__dict__
    for name in _REFUSED_BESIDE_SIGNATURE:
        if name in attributes:
            return None
    holder = _ENUM_HOLDER
    if holder is _ENUM_TYPE:
        # A data descriptor of the metaclass: read before the class's own.
        if attributes.get("__signature__", None) is not _ENUM_SIGNATURE:
            return None
    else:
        # The first __signature__ of the class's MRO must be the enum module's.
        if "__signature__" in attributes:
            return None
        for base in obj.__mro__:
            attributes = base.__dict__
            if "__signature__" in attributes:
                if base is not holder or attributes["__signature__"] is not _ENUM_SIGNATURE:
                    return None
                break
            if "__wrapped__" in attributes:
                return None
        else:
            return None
    members = getattr(obj, "_member_names_", None)
    if type(members) is not list:
        return None
    if _ENUM_OWN_CLASS[0]:
        if cls is not _Signature and cls not in SIGNATURE_CLASSES:
            return None
        sig = _new(cls)
    else:
        sig = _new(_Signature)
    sig._parameters = _ENUM_PARAMETERS[1 if members else 0]
    sig._return_annotation = _empty
    return sig


_NON_USER_DEFINED = frozenset([types.WrapperDescriptorType, types.MethodWrapperType,
                               types.ClassMethodDescriptorType, types.BuiltinFunctionType]) - {
                                   FUNCTION_TYPE, _METHOD, _STATICMETHOD}
"""inspect's ``_NonUserDefinedCallables``: a class's ``__new__`` or
``__init__`` of these types is not read."""


_NO_SIGNATURE: Any = _Nothing()
"""``_class_text``'s answer for a class inspect finds no signature for."""


def _class_text(obj: Any) -> Any:
    """The class of ``obj``'s MRO (``object`` aside) inspect reads the text
    signature of, where neither its ``__new__`` nor its ``__init__`` is
    the user's (builtin types, their subclasses, classes documented with a
    text signature) and nothing inspect reads first is there; where none
    has one, ``_NO_SIGNATURE`` if inspect then raises (a builtin
    constructor that is not ``object``'s); else None."""
    if not _plain_metaclass(type(obj)) or obj is _OBJECT or obj is _TYPE:
        return None
    if (type(getattr(obj, "__new__", None)) not in _NON_USER_DEFINED
            or type(getattr(obj, "__init__", None)) not in _NON_USER_DEFINED):
        return None
    found = None
    for base in obj.__mro__:
        if base is _TYPE:
            return None  # a metaclass
        if not _LOOKED_UP_ON_CLASSES.isdisjoint(base.__dict__):
            return None
        if found is None and base is not _OBJECT and base.__text_signature__:
            found = base
    if found is None and (obj.__init__ is not _OBJECT.__init__
                          or obj.__new__ is not _OBJECT.__new__):
        return _NO_SIGNATURE
    return found


def _made_by_object(obj: Any) -> bool:
    """Whether the class ``obj`` is made by ``object``'s own constructor as
    inspect sees it: no class of its MRO but ``object`` has an ``__init__``,
    a ``__new__``, a text signature (a docstring in that form) or anything
    inspect reads before them, and its metaclass reads attributes as
    ``type`` does; inspect then gives ``object``'s signature."""
    if not _plain_metaclass(type(obj)) or obj is _OBJECT or obj is _TYPE:
        return False
    for base in obj.__mro__:
        if base is _OBJECT:
            continue
        attributes = base.__dict__
        if ("__init__" in attributes or "__new__" in attributes
                or not _LOOKED_UP_ON_CLASSES.isdisjoint(attributes) or base.__text_signature__):
            return False
    return obj.__init__ is _OBJECT.__init__ and obj.__new__ is _OBJECT.__new__


def _call_of(obj: Any) -> Any:
    """The plain function inspect makes the callable object ``obj``'s
    signature of (its type's ``__call__``), where nothing else is read; else
    None."""
    kind = type(obj)
    if not _plain_metaclass(type(kind)) or isinstance(obj, _PARTIAL):
        return None
    call: Any = _NOTHING
    for base in kind.__mro__:
        if base is _OBJECT:
            break
        attributes = base.__dict__
        if not _REFUSED_IN_CLASSES_OF_CALLABLES.isdisjoint(attributes) or type(
                attributes.get("__dict__", _NOTHING)) not in _DICT_ENTRIES:
            return None
        if call is _NOTHING:
            call = attributes.get("__call__", _NOTHING)
    if type(call) is not FUNCTION_TYPE or type(call.__code__) is not _CODE_TYPE:
        return None
    own: Any = getattr(obj, "__dict__", None)
    if own is not None and (type(own) is not dict or not _LOOKED_UP.isdisjoint(own)):
        return None
    return call


# -- builtins ------------------------------------------------------------------
#
# inspect's signature of a builtin (a builtin function or method, a method or
# slot wrapper of a builtin type, bound or not) is made from its
# ``__text_signature__`` by ``_signature_fromstr``, which parses it with
# ``ast`` on every call.  What that makes depends only on the text, on
# whether the first (``$``) parameter is dropped (a bound ``__self__``, and a
# module or ``skip_bound_arg``), and on the values of the names the defaults
# mention, looked up in a module.  So the parameters it made are kept per text
# and dropping, for text signatures whose defaults name nothing: made once by
# inspect's own ``_signature_fromstr`` and shared (parameters cannot change)
# by every signature made of them after.  Those whose defaults name module
# constants (a few, such as ``sys.maxsize``), that inspect refuses, or that
# a Signature class of its own would make, are left to inspect's own code.
# At most ``maxsize`` texts are kept (the oldest dropped first), and only
# strings: nothing the builtin belongs to is kept alive.

_BUILTIN_KINDS = frozenset([types.BuiltinFunctionType, types.MethodWrapperType,
                            types.WrapperDescriptorType, types.MethodDescriptorType,
                            types.ClassMethodDescriptorType]) - {FUNCTION_TYPE, _METHOD}
"""The types of builtins inspect reads through ``_signature_from_builtin``
(not those of objects of the user's that look like them; on PyPy some of
these names are functions' or methods' types, which are not these)."""
_MODULE: Any = types.ModuleType
_SIGNATURE_FROMSTR: Any = inspect.__dict__.get("_signature_fromstr")
_SIGNATURE_FROM_BUILTIN: Any = inspect.__dict__.get("_signature_from_builtin")
_STRIP_SYNTAX: Any = inspect.__dict__.get("_signature_strip_non_python_syntax")
_REFUSED_TEXT: Any = _Nothing()
"""A kept text whose signature inspect's own code makes at every call."""
_texts: Dict[Any, Any] = {}
"""(text signature, first parameter dropped) -> the parameters' mappingproxy
inspect made of it, or ``_REFUSED_TEXT``."""
_texts_maxsize = 4096
_texts_lock = threading.Lock()


def set_builtin_maxsize(maxsize: int) -> None:
    """Keep the parameters of at most ``maxsize`` builtins' text signatures
    (0: none; builtins then go to inspect's own code)."""
    global _texts_maxsize
    with _texts_lock:
        _texts_maxsize = maxsize
        while len(_texts) > maxsize:
            del _texts[next(iter(_texts))]


def builtin_cache_info() -> Dict[str, int]:
    """How many builtins' text signatures are kept, and at most how many."""
    return {"texts": len(_texts), "maxsize": _texts_maxsize}


def _names_a_value(text: str) -> bool:
    """Whether the defaults of the text signature ``text`` name anything (or
    it does not parse: inspect's own code raises its error)."""
    import ast  # noqa: PLC0415 - once per text, as inspect imports it
    try:
        function: Any = ast.parse("def f" + _STRIP_SYNTAX(text)[0] + ": pass").body[0]
    except SyntaxError:
        return True
    arguments = function.args
    for default in arguments.defaults + arguments.kw_defaults:
        if default is not None:
            for node in ast.walk(default):
                if isinstance(node, ast.Name):
                    return True
    return False


def _builtin_signature(cls: Any, obj: Any, skip_bound: Any) -> Any:
    """inspect's ``_signature_from_builtin(cls, obj, skip_bound)`` for a
    builtin, from the parameters kept for its text signature; None where
    inspect's own code must answer.  Raises inspect's error for a builtin
    with no text signature."""
    text = obj.__text_signature__
    if not text:
        # inspect's own step: its ValueError, at once.
        return _SIGNATURE_FROM_BUILTIN(cls, obj, skip_bound)
    return _text_signature(cls, obj, text, skip_bound)


def _text_signature(cls: Any, obj: Any, text: str, skip_bound: Any) -> Any:
    """inspect's ``_signature_fromstr(cls, obj, text, skip_bound)``, from
    the parameters kept for ``text``; None where inspect's own code must
    answer."""
    if cls.__init__ is not DIALECT.signature_init or cls.__new__ is not _OBJECT.__new__:
        return None
    if cls._parameter_cls is not _Parameter or cls.empty is not _empty:
        return None
    drop = False
    if "$" in text:
        # As inspect reads them, in its order.
        bound_to = getattr(obj, "__self__", None)
        if isinstance(bound_to, _MODULE):
            drop = bound_to is not None
        else:
            drop = bound_to is not None and bool(skip_bound)
    key = (text, drop)
    proxy = _texts.get(key)
    if proxy is None:
        if not _texts_maxsize:
            return None
        if _names_a_value(text):
            proxy = _REFUSED_TEXT
        else:
            try:
                made = _SIGNATURE_FROMSTR(cls, obj, text, skip_bound)
            except Exception:  # noqa: BLE001 - inspect's own code raises it again
                made = None
            if type(made) is not cls or made._return_annotation is not _empty:
                proxy = _REFUSED_TEXT
            else:
                proxy = made._parameters
        with _texts_lock:
            while len(_texts) >= _texts_maxsize > 0:
                del _texts[next(iter(_texts))]
            if _texts_maxsize:
                _texts[key] = proxy
    if proxy is _REFUSED_TEXT:
        return None
    sig = _new(cls)
    sig._parameters = proxy
    sig._return_annotation = _empty
    return sig


def kind_signature(cls: Any, obj: Any, follow_wrapped: Any, options: Dict[str, Any],
                   skip_bound: bool = True) -> Any:
    """``cls.from_callable(obj, follow_wrapped=follow_wrapped, **options)``
    (inspect's ``_signature_from_callable`` of ``obj``, ``skip_bound_arg``
    as ``skip_bound`` says) for the kinds above, or None where inspect's own
    code must answer.  Raises what inspect raises evaluating annotations."""
    kind = type(obj)
    if kind is FUNCTION_TYPE:
        if follow_wrapped is not True or not _KINDS[1]:
            return None
        return _function_sig(cls, obj, True, options)
    if kind is _METHOD:
        func = obj.__func__
        # PyPy's builtin methods are functions too, of builtin code.
        if type(func) is not FUNCTION_TYPE or type(func.__code__) is not _CODE_TYPE or not _KINDS[0]:
            return None
        sig = _function_sig(cls, func, follow_wrapped, options)
    elif isinstance(obj, type):
        if isinstance(obj, _ENUM_TYPE) and "__call__" in _ENUM_TYPE.__dict__:
            # Under the enum metaclass, whose __call__ leaves out every kind
            # of class below but by a metaclass's __call__.
            if _ENUM_HOLDER is not None:
                # Read by inspect whatever the options say, and never unwrapped.
                if not _KINDS[11] or (follow_wrapped is not True
                                      and follow_wrapped is not False):
                    return None
                return _enum_signature(cls, obj)
            func = _metaclass_call(obj) if _KINDS[9] else None
            if func is None:
                return None
        else:
            func = _class_factory(obj)
        if func is None:
            if (_KINDS[7] and (cls is _Signature or cls in SIGNATURE_CLASSES)
                    and (follow_wrapped is True or follow_wrapped is False)
                    and _made_by_object(obj)):
                # inspect's sigcls.from_callable(object), the same for every
                # such class.
                sig = _new(cls)
                sig._parameters = _OBJECT_PARAMETERS
                sig._return_annotation = _empty
                return sig
            if _KINDS[10]:
                base = _class_text(obj)
                if base is not None:
                    if follow_wrapped is not True and follow_wrapped is not False:
                        return None
                    if base is _NO_SIGNATURE:
                        # inspect's error for a builtin constructor with no
                        # text signature.
                        if not _KINDS[12]:
                            return None
                        raise ValueError(f"no signature found for builtin type {obj!r}")
                    # inspect's _signature_fromstr(sigcls, base, text).
                    return _text_signature(cls, base, base.__text_signature__, True)
            if not _KINDS[9]:
                return None
            func = _metaclass_call(obj)
            if func is None:
                return None
        if type(func) is tuple:
            return _partialmethod_signature(cls, func, follow_wrapped, options, skip_bound)
        sig = _function_sig(cls, func, follow_wrapped, options)
    elif kind is _PARTIAL:
        # inspect's own step, on the signature served for the function.
        attributes = obj.__dict__
        if not _KINDS[5] or (attributes and not _LOOKED_UP.isdisjoint(attributes)):
            return None
        func = obj.func
        if type(func) is FUNCTION_TYPE:
            sig = _function_sig(cls, func, follow_wrapped, options)
        else:
            sig = kind_signature(cls, func, follow_wrapped, options, skip_bound)
        if sig is None:
            return None
        return _partial_step(sig, obj)
    elif kind in _BUILTIN_KINDS:
        # Read by inspect whatever the options say, and never unwrapped.
        if not _KINDS[6] or (follow_wrapped is not True and follow_wrapped is not False):
            return None
        return _builtin_signature(cls, obj, skip_bound)
    else:
        if not _KINDS[4]:
            return None
        func = _call_of(obj)
        if func is None:
            return None
        sig = _function_sig(cls, func, follow_wrapped, options)
    if sig is None or not skip_bound:
        return sig
    return _bound(sig)


_CODE_TYPE = types.CodeType
_KINDS = [True, True, True, True, True, True, True, True, True, True, True, True, True]
"""Which kinds the running inspect answers as ``kind_signature`` does: bound
methods, wraps chains, classes by ``__init__``, classes by ``__new__``,
callable objects, partials, builtins, classes made by ``object``'s own
constructor, classes with both a Python ``__new__`` and ``__init__``,
classes whose metaclass has a Python ``__call__``, classes read by their
text signature, enums, classes inspect finds no signature for (a builtin
constructor without a text signature: its ValueError) (learned at import)."""
_NEW_BY_MRO = [True]
"""Whether the running inspect takes, of a class's Python ``__new__`` and
``__init__``, the one found first in its MRO (3.13 on), else the class's
own ``__new__``, its own ``__init__``, then the inherited ``__new__``."""
if _SIGNATURE_FROMSTR is None or _SIGNATURE_FROM_BUILTIN is None or _STRIP_SYNTAX is None:
    _KINDS[6] = False
_SIGNATURE_GET_PARTIAL: Any = inspect.__dict__.get("_signature_get_partial")
if _SIGNATURE_GET_PARTIAL is None:
    _KINDS[5] = False


INSIDE = threading.local()
"""Per thread, ``depth``: how deep the drop-in is in inspect's own code that
it runs to answer a call (a partial's step binds partially).  An entry point
called there is part of the call answered, not a call of the user's: the
observer (``_served``) does not count it."""


def _partial_step(sig: Any, obj: Any, extra: Any = ()) -> Any:
    """inspect's own step for a partial (or a partialmethod, its arguments
    after ``extra``), on the signature served for its function; marked as
    inside a served call while someone observes."""
    if _core.get_observer() is None:
        return _SIGNATURE_GET_PARTIAL(sig, obj, extra)
    INSIDE.depth = getattr(INSIDE, "depth", 0) + 1
    try:
        return _SIGNATURE_GET_PARTIAL(sig, obj, extra)
    finally:
        INSIDE.depth -= 1


_PROBES = """
class Init:
    def __init__(self, a, b=1, *args, c, **kwargs):
        pass

    def method(self, x, /, y=2):
        pass

    def __call__(self, q, *, r=3):
        pass

class Inherits(Init):
    pass

class Error(Exception):
    def __init__(self, message, code=0):
        pass

class New:
    def __new__(cls, a, *, k=2):
        return object.__new__(cls)

class Bare:
    pass

class Both(New):
    def __init__(self, b, c=3):
        pass

class InitFirst(Init, New):
    pass

class NewFirst(New, Init):
    pass

class OwnInit(InitFirst):
    def __init__(self, d):
        pass

class Meta(type):
    def __call__(cls, m, /, *rest, k=1):
        pass

class Made(Init, metaclass=Meta):
    pass

class Remade(Meta):
    pass

class Unmade(New, metaclass=Remade):
    pass

class Texted:
    "Texted(a, b=1, /, *c, d)\\n--\\n\\nA class with a text signature."

class Retexted(Texted):
    pass

class Documented(Bare):
    "Not a text signature."
    __slots__ = ("x",)

@functools.wraps(Init.method)
def wrapper(*args, **kwargs):
    pass

class Colour(enum.Enum):
    RED = 1

class Unfilled(enum.Enum):
    pass

class Bits(enum.IntFlag):
    ONE = 1

Named = enum.Enum("Named", "A B")

def taking(self, a, b=2, *, c=3):
    pass

def starred(*args, k=1):
    pass

def keyword(*, k):
    pass
"""


def _outcome(call: Callable[[], Any]) -> Any:
    """What ``call()`` returns, or the type and message of what it raises."""
    try:
        return call()
    except Exception as error:  # noqa: BLE001 - compared, not handled
        return (type(error), str(error))


def _both_ways(obj: Any, skip_bound: Any) -> Tuple[Any, Any]:
    """What inspect's own code and ``kind_signature`` answer for ``obj``
    (a probe at import): each ``_outcome``."""
    expected = _outcome(lambda: inspect._signature_from_callable(  # type: ignore[attr-defined]
        obj, follow_wrapper_chains=skip_bound, skip_bound_arg=skip_bound, sigcls=_Signature))
    got = _outcome(lambda: kind_signature(_Signature, obj, skip_bound, {}, skip_bound))
    return expected, got


def _learn_builtins(ways: Any) -> None:
    """Serve builtins only where the running inspect answers a probe of each
    type of builtin (bound and not, with and without a ``$`` parameter, with
    no text signature) as ``kind_signature`` does, its errors included."""
    if not _KINDS[6]:
        return
    for builtin in (len, str.split, "".split, dict.fromkeys, int.__add__, object.__init__,
                    (1).__add__, dict.__dict__["fromkeys"], divmod, object.__init_subclass__,
                    next, getattr, iter, min, max):
        for skip_bound in ways:
            expected, got = _both_ways(builtin, skip_bound)
            if got is None:
                continue  # left to inspect's own code: exact
            if type(got) is not type(expected) or got != expected or (
                    type(got) is _Signature and list(got.parameters) != list(
                        expected.parameters)):
                _KINDS[6] = False
                return


def _same(got: Any, expected: Any) -> bool:
    """Whether ``got`` (a signature or an error's type and message) is
    ``expected``, or None (left to inspect's own code)."""
    if got is None:
        return True
    if type(got) is tuple or type(expected) is tuple:
        return bool(got == expected)
    return bool(type(got) is type(expected) and got == expected
                and list(got.parameters) == list(expected.parameters))


def _learn_partialmethods(namespace: Dict[str, Any], ways: Any) -> None:
    """Learn the way the running inspect reads a partialmethod as each of
    ``__init__``, ``__new__`` and a metaclass's ``__call__``: the first way
    whose answers (and errors) for probes of each are inspect's."""
    if not _KINDS[5]:
        return
    cases = [(namespace["taking"], (1,), {}), (namespace["taking"], (), {"c": 4}),
             (namespace["taking"], (1, 2), {"c": 4}), (namespace["starred"], (1,), {}),
             (namespace["keyword"], (), {})]
    for index, name in enumerate(("__init__", "__new__", "__call__")):
        probes = []
        for func, args, keywords in cases:
            method = functools.partialmethod(func, *args, **keywords)
            if index == 2:
                probes.append(type("Meta", (type,), {name: method})("Made", (), {}))
            else:
                probes.append(type("Made", (), {name: method}))
        for way in (1, 2):
            _PARTIALMETHOD_WAYS[index] = way
            served = False
            for probe in probes:
                for skip_bound in ways:
                    expected, got = _both_ways(probe, skip_bound)
                    if not _same(got, expected):
                        break
                    served = served or got is not None
                else:
                    continue
                break
            else:
                if served:
                    break
        else:
            _PARTIALMETHOD_WAYS[index] = 0


def _learn_no_signature(ways: Any) -> None:
    """Raise inspect's error for a class with a builtin constructor and no
    text signature only where the running inspect raises it for probes of
    such classes (builtin types and their subclasses, exceptions among
    them), word for word."""
    probes = []
    for builtin_type in (int, bool, Exception, ValueError, tuple, bytes, type(None)):
        if not builtin_type.__text_signature__:
            probes.append(builtin_type)
            scope: Dict[str, Any] = {"base": builtin_type}
            try:
                exec("class Sub(base):\n    pass\n", scope)  # noqa: S102 - a constant source
            except TypeError:  # not a base
                continue
            probes.append(scope["Sub"])
    for probe in probes:
        for skip_bound in ways:
            expected, got = _both_ways(probe, skip_bound)
            if not _same(got, expected):
                _KINDS[12] = False
                return


def _learn_kinds() -> None:
    """Ask the running inspect about a probe of each kind, and serve only
    the kinds it answers as ``kind_signature`` does."""
    # Made from source: this module may be compiled, and its functions are
    # then not plain functions.
    namespace: Dict[str, Any] = {"functools": functools, "enum": enum}
    exec(_PROBES, namespace)  # noqa: S102 - the constant source below
    Init = namespace["Init"]
    instance = object.__new__(Init)
    probes = [
        (0, instance.method), (0, Init.__init__.__get__(instance)),
        (1, namespace["wrapper"]),
        (2, Init), (2, namespace["Inherits"]), (2, namespace["Error"]),
        (3, namespace["New"]),
        (4, instance),
        (5, functools.partial(Init.method, instance, 1)),
        (5, functools.partial(namespace["wrapper"], instance, y=5)),
    ]
    # Which of a Python __new__ and __init__ the running inspect reads.
    try:
        _NEW_BY_MRO[0] = INSPECT_FROM_CALLABLE(_Signature, namespace["InitFirst"]) == (
            INSPECT_FROM_CALLABLE(_Signature, instance.__init__))
    except Exception:  # noqa: BLE001 - an inspect that answers otherwise
        _KINDS[8] = False
    probes += [(8, namespace[name]) for name in ("Both", "InitFirst", "NewFirst", "OwnInit")]
    probes += [(9, namespace["Made"]), (9, namespace["Unmade"])]
    probes += [(10, namespace["Texted"]), (10, namespace["Retexted"])]
    for builtin_type in (zip, map, bytearray, property, enumerate, int, dict, frozenset,
                         complex):
        if builtin_type.__text_signature__:
            probes.append((10, builtin_type))
            scope: Dict[str, Any] = {"base": builtin_type}
            exec("class Sub(base):\n    pass\n", scope)  # noqa: S102 - a constant source
            probes.append((10, scope["Sub"]))
    enums = [namespace[name] for name in ("Colour", "Unfilled", "Bits", "Named")]
    probes += [(11, probe) for probe in enums + [enum.Enum, enum.IntFlag]]
    if _ENUM_HOLDER is not None:
        # The enum module's two answers, and of which Signature class.
        try:
            answers = [INSPECT_FROM_CALLABLE(_Signature, namespace[name])
                       for name in ("Unfilled", "Colour")]
            sub: Any = type("Sub", (_Signature,), {"__slots__": ()})
            for made in answers:
                if type(made) is not _Signature or made._return_annotation is not _empty:
                    raise LookupError
            _ENUM_PARAMETERS[:] = [made._parameters for made in answers]
            _ENUM_OWN_CLASS[0] = type(INSPECT_FROM_CALLABLE(sub, namespace["Colour"])) is sub
        except Exception:  # noqa: BLE001 - an inspect that answers otherwise
            _KINDS[11] = False
    ways: Any = [True, False]
    _learn_builtins(ways)
    _learn_partialmethods(namespace, ways)
    _learn_no_signature(ways)
    global _OBJECT_PARAMETERS
    try:
        made = INSPECT_FROM_CALLABLE(_Signature, namespace["Bare"])
        if type(made) is _Signature and made._return_annotation is _empty:
            _OBJECT_PARAMETERS = made._parameters
            probes += [(7, namespace["Bare"]), (7, namespace["Documented"])]
        else:
            _KINDS[7] = False
    except Exception:  # noqa: BLE001 - an inspect that answers otherwise
        _KINDS[7] = False
    for index, probe in probes:
        try:
            for skip_bound in ways[:1] if index == 1 else ways:
                if skip_bound:
                    expected = INSPECT_FROM_CALLABLE(_Signature, probe)
                else:
                    expected = inspect._signature_from_callable(  # type: ignore[attr-defined]
                        probe, follow_wrapper_chains=False, skip_bound_arg=False,
                        sigcls=_Signature)
                got = kind_signature(_Signature, probe, skip_bound, {}, skip_bound)
                if (type(got) is not type(expected) or got != expected
                        or list(got.parameters) != list(expected.parameters)):
                    _KINDS[index] = False
        except Exception:  # noqa: BLE001 - an inspect that answers otherwise
            _KINDS[index] = False


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
    if reason is None and (not options or _OPTION_NAMES.issuperset(options)):
        try:
            sig = kind_signature(cls, obj, follow_wrapped, options)
        except BaseException:
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
            if options and not _OPTION_NAMES.issuperset(options):
                return None
            return kind_signature(_Signature, func, False, options, False)
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
    # Functions, methods, and what getfullargspec serves whose __name__ is
    # read as inspect reads it: classes (of a type-like metaclass) and builtins.
    if kind is FUNCTION_TYPE or kind is _METHOD or kind in _BUILTIN_KINDS or (
            isinstance(func, type) and _plain_metaclass(type(func))):
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
                raise TypeError(_errors.GETCALLARGS_UNEXPECTED_KEYWORD.format(f_name, kw))
            arg2value[varkw][kw] = value
            continue
        if kw in arg2value:
            raise TypeError(_errors.GETCALLARGS_MULTIPLE_VALUES.format(f_name, kw))
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


_learn_kinds()
