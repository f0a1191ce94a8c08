"""The pure-Python wrapper: the twin of the compiled ``Wrapper``; its
public face, ``wrap`` and ``Wrapper``.

Its parts, one concern each (imports flow down this list):

- ``_wrapper_pickle``: what a wrapper is, for ``isinstance`` and pickling;
- ``_wrapper_templates``: a plain function's wrapper, made with no compile
  from a template per shape;
- ``_wrapper_source``: the source text of a generated function (whose
  docstring shows it), and the forwarding wrapper;
- ``_wrapper_stale``: the function's defaults at the call, read again when
  they change;
- ``_wrapper_layout``: ``wrapper.layout``, read when first asked for;
- ``_coroutine``: a coroutine function's wrapper before 3.12 (``migrate``'s
  too).

A wrapper is a plain function: on a class it is a method as any function is,
with no Python-level ``__get__`` or ``__call__`` in the way.  A wrapper of a
coroutine function is marked as one with :func:`inspect.markcoroutinefunction`
(3.12 and later); before 3.12 a function cannot be marked, so the wrapper is a
:class:`functools.partial` of the coroutine function (what
:func:`inspect.iscoroutinefunction` looks through) whose calls go to the
generated function.
A wrapper of a bound method is the generated function (with ``self`` first)
bound to the same object, so that the interpreter counts ``self`` in its
messages as it does for the method, and the values leave it out, as the
method's binder does.

What both implementations do alike (``tests/test_wrap_twins.py`` drives them
side by side):

- Defaults are the function's at the call, as the interpreter's: the values
  the handler gets, and the call of the function.  A keyword-only default is
  looked up in the function's own ``__kwdefaults__`` dict at the call, as
  the interpreter looks it up, so a dict changed in place is seen: the
  compiled wrapper's binder holds that dict and looks there, and a
  generated function (and the pure binder a forwarding wrapper calls) has
  that very dict as its own ``__kwdefaults__``.  A replaced ``__defaults__``
  tuple or ``__kwdefaults__`` dict is seen too.  The compiled wrapper
  compares the two objects with those its binder read (two pointer compares
  per call) and remakes its binder on a change.  A generated function has
  positional defaults of its own: where the function has defaults, its
  first lines compare the function's objects with those it was made with
  (constants of its code), and on a change ``_stale`` gives it the new
  defaults and makes the call again from the arguments given (on that first
  call after the change, an argument passed that is the former default
  object itself counts as not given).  In the pure wrapper, a parameter
  without a default in what it last read (none when it was made, or a
  keyword-only default deleted in place) stays required when a replaced
  tuple or dict gives it one, until a call passes it: the interpreter
  refuses the call before the wrapper's code runs.
- ``wrapper.layout`` is the layout of the values the handler gets (as
  ``binder.layout`` is of a binder's: a bound method's ``self`` and a
  partial's arguments in neither), with the defaults as they were read when
  the wrapper was made, and again at the first call after either object was
  replaced (``_stale`` or the remade binder sets it again); a dict changed
  in place leaves it as it was, in both.
- ``inspect.iscoroutinefunction`` answers as for the function;
  ``inspect.isgeneratorfunction`` and ``isasyncgenfunction`` answer False, as
  for a ``functools.wraps`` def: a wrapper is a function that returns the
  generator.
- A wrapper pickles by reference where a function would (a module-level
  name, a method or class or static method on a module-level class), and
  loads as itself, its handler in place; a wrapper of a bound method, a
  callable instance or a partial raises :class:`pickle.PicklingError`, as
  nothing could load it as what was dumped.
"""

from __future__ import annotations

import functools
import inspect
import sys
import types
from typing import TYPE_CHECKING, Any, Callable, Generic, Literal, Optional, Tuple, TypeVar, overload

from ._plan import descriptor_refused, wrapper_arguments
from ._coroutine import _CoroutineWrapper
from ._callform import CallForm
from ._layout import Call, ClassSignature, Layout, advertises
from ._wrapper_layout import _layout_as_made
from ._wrapper_pickle import _is_wrapper, _RefusedName
from ._wrapper_source import _FILENAME, _forwarding_wrapper, _generated_wrapper
from ._wrapper_templates import _wrapper_of_function

__all__ = ["Wrapper", "wrap"]

if TYPE_CHECKING:
    from typing_extensions import ParamSpec

    _P = ParamSpec("_P")
else:
    try:  # only type checkers read it; 3.9 has no ParamSpec
        from typing import ParamSpec

        _P = ParamSpec("_P")
    except ImportError:
        _P = TypeVar("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")
_Values = Tuple[Any, ...]
_Before = Callable[[_Values], object]
_BeforeForm = Callable[[_Values, CallForm], object]
_Around = Callable[[Callable[[_Values], _R], _Values], _R]
_AroundForm = Callable[[Callable[[_Values], _R], _Values, CallForm], _R]

def _check_callable(value: Any, what: str) -> None:
    if not callable(value):
        raise TypeError(f"wrap() {what} must be callable, not {type(value).__name__}")


@overload
def wrap(
    func: "classmethod[_T, _P, _R]",
    *,
    before: Optional[_Before] = None,
    around: Optional[_Around[_R]] = None,
    form: Literal[False] = False,
) -> "classmethod[_T, _P, _R]": ...


@overload
def wrap(
    func: "classmethod[_T, _P, _R]",
    *,
    before: Optional[_BeforeForm] = None,
    around: Optional[_AroundForm[_R]] = None,
    form: Literal[True],
) -> "classmethod[_T, _P, _R]": ...


@overload
def wrap(  # type: ignore[overload-overlap]
    func: "staticmethod[_P, _R]",
    *,
    before: Optional[_Before] = None,
    around: Optional[_Around[_R]] = None,
    form: Literal[False] = False,
) -> "staticmethod[_P, _R]": ...


@overload
def wrap(  # type: ignore[overload-overlap]
    func: "staticmethod[_P, _R]",
    *,
    before: Optional[_BeforeForm] = None,
    around: Optional[_AroundForm[_R]] = None,
    form: Literal[True],
) -> "staticmethod[_P, _R]": ...


@overload
def wrap(
    func: Callable[_P, _R],
    *,
    before: Optional[_Before] = None,
    around: Optional[_Around[_R]] = None,
    form: Literal[False] = False,
) -> "Wrapper[_P, _R]": ...


@overload
def wrap(
    func: Callable[_P, _R],
    *,
    before: Optional[_BeforeForm] = None,
    around: Optional[_AroundForm[_R]] = None,
    form: Literal[True],
) -> "Wrapper[_P, _R]": ...


def wrap(
    func: Any,
    *,
    before: Optional[Callable[..., object]] = None,
    around: Optional[Callable[..., Any]] = None,
    form: bool = False,
) -> Any:
    """Wrap ``func`` so that each call's values reach one handler.

    ``before(values)`` gets the values of each call (frame order, as
    ``binder(func)(...)`` returns them); what it returns is ignored, and then
    ``func`` is called with the caller's arguments.  ``around(proceed,
    values)`` gets the tuple and ``proceed``, which calls ``func`` with a
    values tuple (the same or another) and returns its result; the call
    returns what ``around`` returns.  A call that does not bind raises the
    interpreter's own ``TypeError`` before any handler runs; a call binds
    with the defaults ``func`` has at the call: a replaced ``__defaults__``
    or ``__kwdefaults__``, or that dict changed in place, is seen at the
    next call, as the interpreter sees it (``wrapper.layout`` keeps the
    defaults it last read, not a dict's in-place changes).  The signature
    bound is the one ``func`` advertises, as :func:`posonly.binder` binds
    it.  A ``classmethod`` or ``staticmethod`` object gives the same kind of
    object around a wrapper of its function.

    With ``form=True`` the handler also gets how the call was made, a
    :class:`CallForm` over ``wrapper.layout`` (which parameters came by
    position, which by keyword and under which name, which were not
    given): ``before(values, form)``, ``around(proceed, values, form)``.
    Only such a wrapper pays for it, at each call.

    Raises :class:`TypeError` if ``func`` or the handler is not callable, or
    unless exactly one handler is given, or if ``form`` is not a bool, and
    whatever :func:`inspect.signature` raises for a callable without a
    signature.
    """
    if isinstance(func, (classmethod, staticmethod)):
        inner: Any = wrap
        return type(func)(inner(func.__func__, before=before, around=around, form=form))
    _check_callable(func, "func")
    if (before is None) == (around is None):
        raise TypeError("wrap() takes exactly one handler: before= or around=")
    _check_callable(before if before is not None else around, "before=" if before is not None else "around=")
    if type(form) is not bool:
        raise TypeError(f"wrap() form= must be True or False, not {type(form).__name__}")
    if form:
        # The call's form is what only a (*args, **kwargs) function sees:
        # the number of positional arguments and the keyword names.
        forwarded, layout = _forwarding_wrapper(func, before, around, form=True)
        return _finish(forwarded, func, layout, forwarding=True)
    # None unless a plain function:
    generated: Optional[types.FunctionType] = _wrapper_of_function(func, before, around)
    # A plain function goes the generated way on every interpreter (on PyPy
    # it is not made from templates, but its own signature, generated, words
    # the errors as PyPy does); anything else forwards the caller's arguments.
    forwarding = generated is None and before is not None and not (
        type(func) is types.FunctionType and not advertises(func)
    )
    if generated is not None:
        layout = _layout_as_made(func)  # read from func on first use
    elif forwarding:
        generated, layout = _forwarding_wrapper(func, before)
    else:
        generated, plan, call = _generated_wrapper(func, before, around)
        return _finish(generated, func, plan.output, forwarding=False, call=call)
    return _finish(generated, func, layout, forwarding)


def _finish(
    generated: types.FunctionType, func: Any, layout: Layout, forwarding: bool, call: Optional[Call] = None
) -> Any:
    """The wrapper around ``generated``, a wrapper's function: named as
    ``func``, with its layout; the function bound to what ``call`` puts
    first, if anything."""
    prefix, preset = (call.prefix, call.preset) if call is not None else ((), None)
    bound = bool(prefix or preset)
    one_first = len(prefix) == 1 and not preset
    functools.update_wrapper(generated, func)
    # wrapper.layout: the layout of the values the handler gets.
    generated.layout = layout  # type: ignore[attr-defined]
    if forwarding:
        # inspect.signature(w, follow_wrapped=False): the signature bound.
        generated.__signature__ = inspect.signature(func)  # type: ignore[attr-defined]
    wrapper: Any = generated
    if call is not None and bound:
        # inspect.signature of the bound wrapper: the parameters bound
        # (the function's, with self), less what the call puts first.
        target = call.target
        generated.__signature__ = (  # type: ignore[attr-defined]
            inspect.signature(target, follow_wrapped=False)
            if target is not None else call.layout.to_signature()
        )
    if inspect.iscoroutinefunction(func):
        if sys.version_info >= (3, 12):  # inspect.markcoroutinefunction
            inspect.markcoroutinefunction(generated)
        else:
            wrapper = _CoroutineWrapper.around(func, generated)
    if one_first:
        # A method pickles as getattr(self, name), which would load as the
        # method unwrapped: its name refuses to pickle, so the method does,
        # as the compiled wrapper of a bound method does.
        wrapper.__name__ = _RefusedName(wrapper.__name__)
        wrapper = types.MethodType(wrapper, prefix[0])
    elif bound:
        # inspect finds the function's signature through __wrapped__, and
        # with follow_wrapped=False the partial's, from the generated one's.
        inner = wrapper
        wrapper = functools.partial(inner, *prefix, **(preset or {}))
        wrapper.__dict__.update(generated.__dict__)
        del wrapper.__dict__["__signature__"]
        for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
            setattr(wrapper, attr, getattr(generated, attr))
        # A partial pickles its function by reference: the function bound
        # names no module, so the partial refuses to pickle, as the compiled
        # wrapper of a partial does.
        inner.__module__ = _FILENAME
    return wrapper


_wrapper_arguments = wrapper_arguments("Wrapper")


class _WrapperType(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return _is_wrapper(obj)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        func, before, around, form = _wrapper_arguments(*args, **kwargs)
        if isinstance(func, (classmethod, staticmethod)):
            raise descriptor_refused(func)
        return wrap(func, before=before, around=around, form=form)


if TYPE_CHECKING:
    # The type as type checkers see it, under its public name.
    from . import Wrapper as Wrapper
else:

    class Wrapper(Generic[_P, _R], metaclass=_WrapperType):
        """What :func:`wrap` returns: a callable with ``func``'s signature that
        hands each call's values to a handler.

        It looks as :func:`functools.wraps` makes a wrapper look (``__wrapped__``,
        ``__name__``, ``__qualname__``, ``__doc__``, ``__module__``,
        ``__dict__``), is a method on a class, a coroutine function when ``func``
        is one, and pickles by reference as a function does.  It holds no
        per-call state.  ``wrapper.layout`` is the :class:`Layout` of the
        values its handler gets.  In the pure-Python implementation a wrapper is a
        generated function (see ``posonly._wrapper``), and ``Wrapper`` is the
        type ``isinstance`` recognises it by; ``Wrapper(func, before=...)`` is
        ``wrap(func, before=...)``.  For type checkers it is generic in the
        function's parameters and return type: ``Wrapper[P, R]``.
        """

        # Named as the twin of the compiled module, whose class is _bind.Wrapper.
        __module__ = "posonly._bind_py"

        def __init_subclass__(cls, **kwargs: Any) -> None:
            raise TypeError("type 'posonly._bind_py.Wrapper' is not an acceptable base type")

        @classmethod
        def __class_getitem__(cls, item: Any) -> Any:
            # As the compiled class's: the subscript names the same class (3.9
            # has no ParamSpec for typing's own checks to accept).
            return types.GenericAlias(cls, item)

        # inspect.signature(Wrapper): wrap's arguments, as the compiled class
        # answers (no instance of this class is ever made).
        __signature__ = ClassSignature(_wrapper_arguments)


# inspect.signature(wrap), as the compiled wrap answers: the parameters
# without the annotations, which are for type checkers.
wrap.__signature__ = inspect.signature(wrapper_arguments("wrap"))  # type: ignore[attr-defined]
