"""The immutable description of a signature that every binder works from,
and how the interpreter calls a callable (:func:`resolve`), from which
:meth:`Layout.from_callable` finds the layout a callable advertises."""

from __future__ import annotations

import ast
import functools
import keyword
import sys
import types
import unicodedata
from inspect import CO_VARARGS, CO_VARKEYWORDS
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Final,
    Iterable,
    List,
    Mapping,
    Optional,
    Tuple,
)

from . import _values

if TYPE_CHECKING:
    from typing_extensions import TypeGuard

__all__ = ["Layout", "MISSING", "QUALIFIED_NAMES"]


class _MissingType:
    """The type of :data:`MISSING`: a required parameter that was not given."""

    __slots__ = ()
    _instance: Optional["_MissingType"] = None

    def __new__(cls) -> "_MissingType":
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "posonly.MISSING"

    def __reduce__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Final[_MissingType] = _MissingType()
"""Left by ``Binder.partial`` in the slot of a required parameter not given."""


QUALIFIED_NAMES: Final[bool] = sys.version_info >= (3, 10)
"""Whether the interpreter names a function in its call errors (what it puts
before "()") by the function's ``__qualname__``, as from 3.10 on; on 3.9 it
names it by the code object's ``co_name`` (CPython) or the function's
``__name__`` (PyPy)."""


def _name_of_function(func: types.FunctionType) -> str:
    """What the interpreter's call errors call ``func`` (``QUALIFIED_NAMES``)."""
    if QUALIFIED_NAMES:
        return func.__qualname__
    if sys.implementation.name == "pypy":
        return func.__name__
    return func.__code__.co_name


def _exact_str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    # An exact, interned copy: str subclasses must not leak into a layout, and
    # interned names let the compiled binder match keywords by identity.
    return sys.intern(str.__getitem__(value, slice(None)))


def _name_tuple(values: Iterable[str], what: str) -> Tuple[str, ...]:
    if isinstance(values, str):
        raise TypeError(f"{what} must be a sequence of names, not a str")
    try:
        items = tuple(values)
    except TypeError:
        raise TypeError(
            f"{what} must be a sequence of names, not {type(values).__name__}"
        ) from None
    return tuple(_exact_str(item, f"a name in {what}") for item in items)


def _optional_name(value: Optional[str], what: str) -> Optional[str]:
    return None if value is None else _exact_str(value, what)


def _count(n: int, noun: str) -> str:
    """``1 default``, ``2 defaults``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class Layout:
    """A signature analysed once: the parameter names by kind and the defaults.

    ``Layout`` is immutable, hashable, equal by value and picklable.  Build one
    from a callable (:meth:`from_callable`), an :class:`inspect.Signature`
    (:meth:`from_signature`), a parameter list (:meth:`parse`), or directly::

        Layout(name="f", posonly=("a", "b"), positional=("c", "d"),
               kwonly=("e", "g"), defaults=(4,), kwdefaults={"g": 7})

    ``defaults`` belong to the last positional parameters, as in
    ``__defaults__``; ``kwdefaults`` maps keyword-only names to their defaults,
    as in ``__kwdefaults__``.  An invalid layout raises :class:`ValueError`
    naming the problem; arguments of the wrong type raise :class:`TypeError`.

    A call's values (the locals tuple a binder returns and a
    :func:`~posonly.wrap` handler gets, in frame order) are read and changed
    by name with :meth:`arguments` (a dict in signature order),
    :meth:`values` (the way back), :meth:`replace` (an argument changed,
    for ``proceed``), :meth:`key` (a hashable key of the call, for
    memoizers) and :meth:`instance` (a method call's ``self``).
    """

    __slots__ = (
        "name",
        "posonly",
        "positional",
        "varargs",
        "kwonly",
        "varkw",
        "defaults",
        "_kwdefaults",
        "names",
        "_hash",
        "_function",  # a layout read from a function on first use (_deferred)
        "_access",  # what the methods on values need, made on first use (_Access)
        "__weakref__",
    )

    name: str
    posonly: Tuple[str, ...]
    positional: Tuple[str, ...]
    varargs: Optional[str]
    kwonly: Tuple[str, ...]
    varkw: Optional[str]
    defaults: Tuple[Any, ...]
    names: Tuple[str, ...]
    _kwdefaults: Tuple[Tuple[str, Any], ...]
    _hash: int
    _access: "_values._Access"

    def __init__(
        self,
        name: str = "f",
        posonly: Iterable[str] = (),
        positional: Iterable[str] = (),
        varargs: Optional[str] = None,
        kwonly: Iterable[str] = (),
        varkw: Optional[str] = None,
        defaults: Iterable[Any] = (),
        kwdefaults: Optional[Mapping[str, Any]] = None,
    ) -> None:
        if hasattr(self, "_hash"):
            raise TypeError("Layout is immutable; __init__ cannot be called again")
        set_ = object.__setattr__
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        set_(self, "name", str.__getitem__(name, slice(None)))
        set_(self, "posonly", _name_tuple(posonly, "posonly"))
        set_(self, "positional", _name_tuple(positional, "positional"))
        set_(self, "varargs", _optional_name(varargs, "varargs"))
        set_(self, "kwonly", _name_tuple(kwonly, "kwonly"))
        set_(self, "varkw", _optional_name(varkw, "varkw"))
        try:
            set_(self, "defaults", tuple(defaults))
        except TypeError:
            raise TypeError(
                f"defaults must be a sequence, not {type(defaults).__name__}"
            ) from None
        if kwdefaults is None:
            kwdefaults = {}
        if not isinstance(kwdefaults, Mapping):
            raise TypeError(
                f"kwdefaults must be a mapping, not {type(kwdefaults).__name__}"
            )
        kwdefault_pairs = []
        for key in kwdefaults:
            kwdefault_pairs.append((_exact_str(key, "a kwdefaults key"), kwdefaults[key]))
        # Stored in keyword-only order, so equal layouts store equal tuples.
        order = {n: i for i, n in enumerate(self.kwonly)}
        kwdefault_pairs.sort(key=lambda pair: order.get(pair[0], -1))
        set_(self, "_kwdefaults", tuple(kwdefault_pairs))

        names = self.posonly + self.positional + self.kwonly
        if self.varargs is not None:
            names += (self.varargs,)
        if self.varkw is not None:
            names += (self.varkw,)
        set_(self, "names", names)
        self._validate()
        # Defaults may be unhashable: the hash covers the names and how many
        # defaults there are, which equal layouts share.
        kwdefault_names = tuple(k for k, _ in self._kwdefaults)
        set_(self, "_hash", hash(self._fields()[:6] + (len(self.defaults), kwdefault_names)))

    @classmethod
    def _deferred(cls, func: types.FunctionType) -> "Layout":
        """``Layout.from_callable(func)`` for a plain function, read from
        ``func`` when a field is first asked for (a wrapper's layout, which
        only some handlers read, costs nothing until then)."""
        self = object.__new__(_DeferredLayout)
        object.__setattr__(self, "_function", func)
        return self

    def _validate(self) -> None:
        seen = set()
        for name in self.names:
            if not name.isidentifier() or keyword.iskeyword(name):
                raise ValueError(f"parameter name {name!r} is not an identifier")
            normal = unicodedata.normalize("NFKC", name)
            if normal != name:
                # The parser normalises identifiers: no def can have this name.
                raise ValueError(
                    f"parameter name {name!r} is not an identifier as Python "
                    f"reads it (it reads {normal!r})"
                )
            if name in seen:
                raise ValueError(f"duplicate parameter name {name!r}")
            seen.add(name)
        if len(self.defaults) > self.argcount:
            raise ValueError(
                f"{_count(len(self.defaults), 'default')} given for "
                f"{_count(self.argcount, 'positional parameter')}"
            )
        for key, _ in self._kwdefaults:
            if key not in self.kwonly:
                raise ValueError(
                    f"kwdefaults names {key!r}, which is not a keyword-only parameter"
                )

    @staticmethod
    def _validate_name(name: object) -> None:
        """A name given for a layout described as text: what a ``def`` or a
        qualified name could say (``f``, ``C.method``, ``f.<locals>.g``)."""
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        for part in name.split("."):
            bracketed = part[:1] == "<" and part[-1:] == ">"  # <locals>, <lambda>
            word = part[1:-1] if bracketed else part
            if not word.isidentifier() or (keyword.iskeyword(word) and not bracketed):
                raise ValueError(
                    f"name {name!r} is not a function's name (an identifier, or "
                    "identifiers joined by dots as in a qualified name)"
                )

    # -- derived counts -----------------------------------------------------

    @property
    def argcount(self) -> int:
        """How many parameters can be passed by position (``co_argcount``)."""
        return len(self.posonly) + len(self.positional)

    @property
    def kwdefaults(self) -> Mapping[str, Any]:
        """The keyword-only defaults, a read-only mapping."""
        return types.MappingProxyType(dict(self._kwdefaults))

    # -- constructors -------------------------------------------------------

    @classmethod
    def from_callable(cls, obj: Callable[..., Any], *, follow_wrapped: bool = True) -> "Layout":
        """The layout of the signature a callable advertises.

        A plain Python function is read straight from ``__code__``,
        ``__defaults__`` and ``__kwdefaults__``, and named as the interpreter
        names it in its call errors.  Anything else goes as
        :func:`inspect.signature` goes: a ``__wrapped__`` chain is followed
        (unless ``follow_wrapped`` is false) and a ``__signature__`` honoured;
        bound methods leave ``self`` out; partials, callable instances,
        builtins and classes have the signature ``inspect`` gives them.  The
        name is that of the function whose parameters a call binds.  A
        :class:`ValueError` or :class:`TypeError` from ``inspect`` propagates.
        """
        if isinstance(obj, types.FunctionType) and type(obj.__code__) is types.CodeType:
            attributes = obj.__dict__
            if not attributes or not ("__wrapped__" in attributes or "__signature__" in attributes):
                return cls._from_function(obj)
        if not callable(obj) and not isinstance(obj, (classmethod, staticmethod)):
            raise TypeError(f"{type(obj).__name__!r} object is not callable")
        return resolve(obj, follow_wrapped).advertised()

    @classmethod
    def _from_function(cls, func: types.FunctionType) -> "Layout":
        code = func.__code__
        n_posonly = code.co_posonlyargcount
        argcount = code.co_argcount
        total = argcount + code.co_kwonlyargcount
        varnames = code.co_varnames
        index = total
        varargs = varkw = None
        if code.co_flags & CO_VARARGS:
            varargs = varnames[index]
            index += 1
        if code.co_flags & CO_VARKEYWORDS:
            varkw = varnames[index]
        kwonly = varnames[argcount:total]
        # The interpreter only ever looks up keyword-only names in
        # __kwdefaults__; anything else stored there is ignored, here too.
        kwdefaults = func.__kwdefaults__ or {}
        name = _name_of_function(func)
        defaults = func.__defaults__ or ()
        if type(name) is str and type(defaults) is tuple and len(defaults) <= argcount:
            # The compiler made the names valid: nothing to check again.
            return cls._of_code(
                name, varnames[:index + (varkw is not None)], n_posonly, argcount, total,
                varargs, varkw, defaults,
                tuple((k, kwdefaults[k]) for k in kwonly if k in kwdefaults),
            )
        return cls(
            name=name,
            posonly=varnames[:n_posonly],
            positional=varnames[n_posonly:argcount],
            varargs=varargs,
            kwonly=kwonly,
            varkw=varkw,
            defaults=func.__defaults__ or (),
            kwdefaults={k: kwdefaults[k] for k in kwonly if k in kwdefaults},
        )

    @classmethod
    def _of_code(
        cls,
        name: str,
        names: Tuple[str, ...],
        n_posonly: int,
        argcount: int,
        total: int,
        varargs: Optional[str],
        varkw: Optional[str],
        defaults: Tuple[Any, ...],
        kwdefault_pairs: Tuple[Tuple[str, Any], ...],
    ) -> "Layout":
        """A layout from what a code object holds, which the compiler made
        valid, taken as it is: ``names`` in frame order, exact interned
        strings; ``kwdefault_pairs`` in keyword-only order."""
        self = object.__new__(cls)
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "posonly", names[:n_posonly])
        set_(self, "positional", names[n_posonly:argcount])
        set_(self, "varargs", varargs)
        set_(self, "kwonly", names[argcount:total])
        set_(self, "varkw", varkw)
        set_(self, "defaults", defaults)
        set_(self, "_kwdefaults", kwdefault_pairs)
        set_(self, "names", names)
        # As __init__ computes it: equal layouts hash equal however made.
        kwdefault_names = tuple(k for k, _ in kwdefault_pairs)
        set_(self, "_hash", hash((
            name, self.posonly, self.positional, varargs, self.kwonly, varkw,
            len(defaults), kwdefault_names,
        )))
        return self

    @classmethod
    def from_signature(cls, sig: Any, name: str = "f") -> "Layout":
        """The layout of an :class:`inspect.Signature`; annotations are dropped."""
        import inspect

        if not isinstance(sig, inspect.Signature):
            raise TypeError(
                f"from_signature() needs an inspect.Signature, not {type(sig).__name__}"
            )
        posonly: List[str] = []
        positional: List[str] = []
        kwonly: List[str] = []
        varargs = varkw = None
        defaults = []
        kwdefaults = {}
        for param in sig.parameters.values():
            kind = param.kind
            has_default = param.default is not inspect.Parameter.empty
            if kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
                (posonly if kind is param.POSITIONAL_ONLY else positional).append(param.name)
                if has_default:
                    defaults.append(param.default)
                elif defaults:
                    raise ValueError(
                        f"parameter {param.name!r} without a default follows "
                        "a parameter with a default"
                    )
            elif kind is param.VAR_POSITIONAL:
                varargs = param.name
            elif kind is param.KEYWORD_ONLY:
                kwonly.append(param.name)
                if has_default:
                    kwdefaults[param.name] = param.default
            else:
                varkw = param.name
        return cls(name, posonly, positional, varargs, kwonly, varkw, defaults, kwdefaults)

    @classmethod
    def parse(cls, text: str, name: str = "f") -> "Layout":
        """The layout of a parameter list written as in a ``def``.

        Defaults must be Python literals (:func:`ast.literal_eval`);
        annotations are allowed and dropped.  Text that is not one
        parameter list, and a ``name`` that is not a function's (an
        identifier, or a qualified name such as ``C.method``), raise
        :class:`ValueError` saying why.
        """
        if not isinstance(text, str):
            raise TypeError(f"parse() needs a str, not {type(text).__name__}")
        cls._validate_name(name)
        # The text on lines of its own: a comment in it ends at its line.
        source = f"def _(\n{text}\n):\n pass\n"
        try:
            tree = ast.parse(source, mode="exec")
        except SyntaxError as exc:
            raise ValueError(f"invalid parameter list {text!r}: {exc.msg}") from None
        except ValueError as exc:  # null bytes, a ValueError on some versions
            raise ValueError(f"invalid parameter list {text!r}: {exc}") from None
        except (MemoryError, RecursionError):  # the parser's stack overflowed
            raise ValueError(
                f"invalid parameter list {text!r}: nested too deeply to parse"
            ) from None
        node = tree.body[0] if len(tree.body) == 1 else None
        if not (
            isinstance(node, ast.FunctionDef)
            and node.returns is None
            and not node.decorator_list
            and len(node.body) == 1
            and isinstance(node.body[0], ast.Pass)
        ):
            # It parsed, so its own ")" closed the def's parameter list.
            raise ValueError(
                f"invalid parameter list {text!r}: a ')' closes the list before the text ends"
            )
        args = node.args

        def literal(node: ast.expr) -> Any:
            try:
                return ast.literal_eval(node)
            except ValueError:
                # The default as written (the node's offsets are the
                # generated def's).
                written = ast.get_source_segment(source, node)
                raise ValueError(f"default {written!r} is not a Python literal") from None
            except (TypeError, MemoryError, RecursionError) as exc:  # {[]: 1}, deep nesting
                written = ast.get_source_segment(source, node)
                reason = str(exc) or "nested too deeply"
                raise ValueError(f"default {written!r} cannot be made: {reason}") from None

        kwdefaults = {
            arg.arg: literal(default)
            for arg, default in zip(args.kwonlyargs, args.kw_defaults)
            if default is not None
        }
        return cls(
            name=name,
            posonly=[a.arg for a in args.posonlyargs],
            positional=[a.arg for a in args.args],
            varargs=args.vararg.arg if args.vararg else None,
            kwonly=[a.arg for a in args.kwonlyargs],
            varkw=args.kwarg.arg if args.kwarg else None,
            defaults=[literal(d) for d in args.defaults],
            kwdefaults=kwdefaults,
        )

    # -- value semantics ----------------------------------------------------

    def _fields(self) -> Tuple[Any, ...]:
        return (
            self.name,
            self.posonly,
            self.positional,
            self.varargs,
            self.kwonly,
            self.varkw,
            self.defaults,
            dict(self._kwdefaults),
        )

    def __setattr__(self, attr: str, value: Any) -> None:
        raise AttributeError(f"Layout is immutable; cannot set {attr!r}")

    def __delattr__(self, attr: str) -> None:
        raise AttributeError(f"Layout is immutable; cannot delete {attr!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self is other or (
            self._hash == other._hash
            and self._fields()[:7] == other._fields()[:7]
            and self._kwdefaults == other._kwdefaults
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> Tuple[Any, ...]:
        return (Layout, self._fields())

    def __copy__(self) -> "Layout":
        return self

    # -- a call's values ------------------------------------------------------
    #
    # The methods on the values of a call, the locals tuple a binder returns
    # and a wrapper's handler gets (frame order, ``names``): the pure-Python
    # versions, written in ``_values``; where the compiled binder is used,
    # the selector (``_impl``) puts its compiled versions (``_values.pxi``)
    # in their place, with the same behaviour.

    arguments = _values.arguments
    values = _values.values
    replace = _values.replace
    key = _values.key
    instance = _values.instance

    def to_signature(self) -> Any:
        """This layout as an :class:`inspect.Signature` (without annotations)."""
        import inspect

        P = inspect.Parameter
        params = []
        first_default = self.argcount - len(self.defaults)
        for i, name in enumerate(self.posonly + self.positional):
            kind = P.POSITIONAL_ONLY if i < len(self.posonly) else P.POSITIONAL_OR_KEYWORD
            default = self.defaults[i - first_default] if i >= first_default else P.empty
            params.append(P(name, kind, default=default))
        if self.varargs is not None:
            params.append(P(self.varargs, P.VAR_POSITIONAL))
        kwdefaults = dict(self._kwdefaults)
        for name in self.kwonly:
            params.append(P(name, P.KEYWORD_ONLY, default=kwdefaults.get(name, P.empty)))
        if self.varkw is not None:
            params.append(P(self.varkw, P.VAR_KEYWORD))
        return inspect.Signature(params)

    def __str__(self) -> str:
        return str(self.to_signature())

    def __repr__(self) -> str:
        return f"<Layout {self.name}{self}>"


# -- how the interpreter calls a callable --------------------------------------


class Call:
    """How the interpreter calls a callable, as :func:`resolve` finds it.

    ``layout`` is the parameter list the interpreter binds, named as its
    errors name the function; ``prefix`` the positional values the call puts
    before the caller's (a bound method's ``self``, a partial's ``args``);
    ``preset`` the keywords it merges under the caller's (a partial's);
    ``output`` the layout of the values a binder returns, the signature the
    callable advertises (``None``: ``layout`` less what ``prefix`` fills).
    ``target`` is what the interpreter ends up calling with ``layout``'s
    parameters, where that is a Python function, else ``None``.
    """

    __slots__ = ("layout", "prefix", "preset", "output", "target", "callee")

    def __init__(
        self,
        layout: Layout,
        prefix: Tuple[Any, ...] = (),
        preset: Optional[Dict[str, Any]] = None,
        output: Optional[Layout] = None,
        target: Any = None,
    ) -> None:
        self.layout = layout
        self.prefix = prefix
        self.preset = preset or None
        self.output = output
        self.target = target
        self.callee: Any = None  # a function or method whose name PyPy's messages use

    def bound_to(self, first: Any) -> "Call":
        """This call as a method bound to ``first``: the interpreter puts
        ``first`` after this call's own prefix."""
        return Call(self.layout, self.prefix + (first,), self.preset, None, self.target)

    def advertised(self) -> Layout:
        """The layout of the signature the callable advertises: ``output``,
        else ``layout`` less what ``prefix`` fills."""
        if self.output is not None:
            return self.output
        return without_first(self.layout, len(self.prefix)) if self.prefix else self.layout


def without_first(layout: Layout, n: int) -> Layout:
    """``layout`` less what ``n`` leading positional values fill: its first
    ``n`` positional parameters (then none of ``*args``'s name: the values
    keep the rest of the tuple)."""
    positional = layout.posonly + layout.positional
    drop = min(n, len(positional))
    n_posonly = max(0, len(layout.posonly) - drop)
    kept = positional[drop:]
    return Layout(
        layout.name, kept[:n_posonly], kept[n_posonly:], layout.varargs, layout.kwonly,
        layout.varkw, layout.defaults[max(0, len(layout.defaults) - len(kept)):],
        layout.kwdefaults,
    )


_ABSENT: Any = object()


def advertises(func: types.FunctionType) -> bool:
    """Whether a plain function says its signature is another's: a
    ``__wrapped__`` or ``__signature__`` of its own (a function's type has
    neither, so only its ``__dict__`` can).  Looked up as attributes, which
    leaves a function without a ``__dict__`` without one (reading
    ``func.__dict__`` would make and keep an empty dict)."""
    return (
        getattr(func, "__wrapped__", _ABSENT) is not _ABSENT
        or getattr(func, "__signature__", _ABSENT) is not _ABSENT
    )


def is_plain_function(obj: Any) -> "TypeGuard[types.FunctionType]":
    """Whether ``obj`` is a Python function whose parameters its code object
    says (with :func:`advertises` false: whose signature is its own).  The
    one test of the pure modules; the compiled one reads the same in C
    (``_plain_code`` in ``_create.pxi``)."""
    # PyPy's builtins are functions too, with a code object of their own
    # kind that does not know their signature.
    return isinstance(obj, types.FunctionType) and type(obj.__code__) is types.CodeType


def _stop_unwrapping(obj: Any) -> bool:
    return hasattr(obj, "__signature__") or isinstance(obj, types.MethodType)


def _error_name(obj: Any) -> str:
    """What a call's errors would call ``obj``: its qualified name, else its
    name, else its type's."""
    while isinstance(obj, functools.partial):
        obj = obj.func  # a partial's errors are its function's
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    return name if isinstance(name, str) else type(obj).__name__


def _placeholder() -> Any:
    return getattr(functools, "Placeholder", None)


WRAPPER_TYPES: List[type] = []
"""Wrapper types that are not functions (the compiled one): each says how
it binds with its ``_posonly_call``.  A registry, filled by the compiled
module when it is imported: that module imports this one (``Layout``,
``resolve``), so this one cannot import its ``Wrapper`` without a cycle."""


def _target(obj: Any, follow_wrapped: bool) -> Optional[Call]:
    """What the interpreter binds when ``obj`` is called: a Python function's
    parameters (found through bound methods, ``__wrapped__`` chains,
    partials and ``__call__``), or a ``__signature__`` it honours as
    :func:`inspect.signature` does; ``None`` where it is neither (builtins,
    classes), and the advertised signature stands alone."""
    if isinstance(obj, types.MethodType):
        inner = _target(obj.__func__, follow_wrapped)
        return None if inner is None else inner.bound_to(obj.__self__)
    if isinstance(obj, (classmethod, staticmethod)):
        return _target(obj.__func__, follow_wrapped)
    if type(obj) in WRAPPER_TYPES:
        return obj._posonly_call  # type: ignore[no-any-return]
    if follow_wrapped:
        import inspect

        obj = inspect.unwrap(obj, stop=_stop_unwrapping)
        if isinstance(obj, types.MethodType):
            return _target(obj, follow_wrapped)
    sig = getattr(obj, "__signature__", None)
    if sig is not None:
        return Call(Layout.from_signature(sig, name=_error_name(obj)))
    if is_plain_function(obj):
        return Call(Layout._from_function(obj), target=obj)
    if isinstance(obj, functools.partial):
        inner = _target(obj.func, follow_wrapped)
        if inner is None:
            return None
        placeholder = _placeholder()
        if placeholder is not None and any(
            arg is placeholder and len(inner.prefix) + i >= inner.layout.argcount
            for i, arg in enumerate(obj.args)
        ):
            return None  # a Placeholder in *args: inspect's signature stands alone
        preset = {**(inner.preset or {}), **obj.keywords}
        return Call(inner.layout, inner.prefix + obj.args, preset, None, inner.target)
    if isinstance(obj, type):
        return None
    call = getattr(type(obj), "__call__", None)
    if is_plain_function(call) or hasattr(call, "__wrapped__"):
        # A callable instance: the interpreter calls its class's __call__
        # with the instance first.
        inner = _target(call, follow_wrapped)
        return None if inner is None else inner.bound_to(obj)
    return None


def _same_shape(a: Layout, b: Layout) -> bool:
    return a._fields()[1:6] == b._fields()[1:6]


def resolve(obj: Any, follow_wrapped: bool = True) -> Call:
    """How the interpreter calls ``obj``, and the signature it advertises.

    The advertised signature is :func:`inspect.signature`'s (following
    ``__wrapped__`` unless ``follow_wrapped`` is false, honouring
    ``__signature__``); the call is bound as the interpreter binds it, so
    that its errors are the interpreter's.  Where what the interpreter binds
    cannot carry the advertised values, the advertised signature is bound
    alone, named as the function.
    """
    if is_plain_function(obj) and not advertises(obj):
        return Call(Layout._from_function(obj), target=obj)
    if (
        isinstance(obj, types.MethodType)
        and is_plain_function(obj.__func__)
        and not advertises(obj.__func__)
    ):
        return Call(Layout._from_function(obj.__func__), (obj.__self__,), target=obj.__func__)
    if not callable(obj) and not isinstance(obj, (classmethod, staticmethod)):
        raise TypeError(f"{type(obj).__name__!r} object is not callable")
    import inspect

    advertised = obj.__func__ if isinstance(obj, (classmethod, staticmethod)) else obj
    signature = inspect.signature(advertised, follow_wrapped=follow_wrapped)
    target = _target(obj, follow_wrapped)
    name = target.layout.name if target is not None else _error_name(obj)
    output = Layout.from_signature(signature, name=name)
    if target is None:
        return Call(output)
    if not target.prefix and not target.preset and _same_shape(target.layout, output):
        return Call(target.layout, (), None, None, target.target)
    if set(output.names) <= set(target.layout.names):
        return Call(target.layout, target.prefix, target.preset, output, target.target)
    return Call(output)


class ClassSignature:
    """A class's ``__signature__``: what :func:`inspect.signature` answers
    for the class (the parameters of ``constructor``, a function that takes
    the class's arguments), while an instance answers ``of_instance(obj)``,
    or as if the class had no ``__signature__``."""

    __slots__ = ("constructor", "of_instance", "signature")

    def __init__(self, constructor: Callable[..., Any],
                 of_instance: Optional[Callable[[Any], Any]] = None) -> None:
        self.constructor = constructor
        self.of_instance = of_instance
        self.signature: Any = None

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is not None:
            if self.of_instance is None:
                raise AttributeError("__signature__")
            return self.of_instance(instance)
        if self.signature is None:
            import inspect

            self.signature = inspect.signature(self.constructor)
        return self.signature


class _DeferredLayout(Layout):
    """A layout made by :meth:`Layout._deferred`, until its first use: the
    fields are then read from the function, and it becomes a Layout (no
    ``__getattr__`` stays in the way of a Layout's attribute reads)."""

    __slots__ = ()

    def __getattr__(self, attr: str) -> Any:
        # Called only for a slot not set: the fields, read now.
        if attr in _FIELDS:
            made = Layout._from_function(object.__getattribute__(self, "_function"))
            for field in _FIELDS:
                object.__setattr__(self, field, getattr(made, field))
            object.__setattr__(self, "__class__", Layout)
            return object.__getattribute__(self, attr)
        raise AttributeError(f"'Layout' object has no attribute {attr!r}")


_FIELDS = (
    "name", "posonly", "positional", "varargs", "kwonly", "varkw", "defaults", "_kwdefaults",
    "names", "_hash",
)
