# posonly.wrap: a wrapper that binds each call (included by _bind.pyx).
#
# A Wrapper is called through vectorcall: the slot is a C function of
# _wrapper.h, which binds the caller's array with the wrapper's Binder (its C
# fast path, or its general path for errors), then runs the handler.  The
# Cython slot functions below only read the wrapper's fields and hand them to
# C: they return the C answer as is, so an exception raised on the way
# reaches the caller with no frame of this module added.

from posonly._callform import CallForm
from posonly._defaults import defaults_source

cdef extern from "_wrapper.h":
    bint posonly_defaults_changed(PyObject *source, PyObject *seen_defaults,
                                  PyObject *seen_kwdefaults)
    void posonly_set_error(object error)
    PyObject *posonly_wrapper_before_form(PyObject *binder, PyObject *func, PyObject *handler,
                                          PyObject *callform, PyObject *layout,
                                          PyObject **args, size_t nargsf, PyObject *kwnames)
    PyObject *posonly_wrapper_around_form(PyObject *binder, PyObject *proceed, PyObject *handler,
                                          PyObject *callform, PyObject *layout,
                                          PyObject **args, size_t nargsf, PyObject *kwnames)
    int posonly_callform_names() except -1

cdef object _wrapper_arguments = wrapper_arguments("Wrapper")
cdef object _wrap_arguments = wrapper_arguments("wrap")
cdef object _PARSED = object()  # wrap()'s first argument to Wrapper: the rest are parsed
cdef object _NOT_GIVEN = object()
cdef object _CallForm = CallForm
posonly_callform_names()


cdef tuple _handler_arguments(tuple args, dict kwargs, parser):
    """``(func, before, around, form)`` as ``parser`` takes them from a call.

    Making a wrapper is on the clock (at import, once per function): the
    usual call, a function and one handler by keyword, is read here in C;
    anything else goes to ``parser``, a Python function with wrap's
    signature, for the interpreter's own messages."""
    if PyTuple_GET_SIZE(<PyObject *>args) == 1 and kwargs is not None and len(kwargs) == 1:
        before = kwargs.get("before", _NOT_GIVEN)
        if before is not _NOT_GIVEN:
            return args[0], before, None, False
        around = kwargs.get("around", _NOT_GIVEN)
        if around is not _NOT_GIVEN:
            return args[0], None, around, False
    return parser(*args, **kwargs)
cdef int _CO_GENERATORS = _inspect_module.CO_GENERATOR | _inspect_module.CO_ASYNC_GENERATOR
cdef object _partial = functools.partial
cdef object _FunctionType = FunctionType
# Before 3.12, inspect.iscoroutinefunction accepts only real functions with
# CO_COROUTINE, looking through bound methods and functools.partial objects
# (by isinstance) to the function; from 3.12 it honours
# inspect.markcoroutinefunction's marker.
cdef bint _MARKS_COROUTINES = sys.version_info >= (3, 12)


def _coroutine_function_of(func):
    """The function inspect.iscoroutinefunction looks at in ``func``."""
    while True:
        if _inspect_module.ismethod(func):
            func = func.__func__
        elif isinstance(func, _partial):
            func = func.func
        else:
            return func


@cython.final
cdef class Proceed:
    """``proceed(values)``: call the wrapped function with a locals tuple,
    as ``Binder.apply`` does.  One per wrapper, made with it; holds no
    per-call state."""

    cdef posonly_proceed_plan _c  # its vectorcall pointer is read by the interpreter
    cdef object _func
    cdef tuple _kwonly_names
    cdef object _apply
    cdef str _name  # the function's, for proceed's errors

    def __cinit__(self, func, Binder binder not None):
        plan = binder._get_plan()
        self._c.vectorcall = <vectorcallfunc>_proceed_vectorcall
        self._c.size = plan.out_size
        self._c.n_positional = plan.out_positional
        self._c.varargs_slot = plan.out_varargs
        self._c.n_kwonly = len(plan.out_kwonly)
        self._c.varkw_slot = plan.out_varkw
        for i, (_, slot) in enumerate(plan.out_kwonly):
            if slot != plan.out_positional + i:  # the C side reads them there
                raise SystemError("posonly: keyword-only values out of place")
        self._func = func
        self._kwonly_names = tuple(name for name, _ in plan.out_kwonly)
        self._name = plan.name
        self._apply = plan.apply

    def __call__(self, *args, **kwargs):
        return PyVectorcall_Call(self, args, kwargs)

    def __repr__(self):
        return f"<posonly proceed of {self._func!r}>"


cdef PyObject *_proceed_vectorcall(Proceed self, PyObject **args, size_t nargsf,
                                   PyObject *kwnames) noexcept:
    return posonly_proceed(&self._c, <PyObject *>self._func, <PyObject *>self._kwonly_names,
                           _MISSING, <PyObject *>self._apply, <PyObject *>self._name,
                           args, nargsf, kwnames)


_HIDDEN_FROM_DIR = frozenset(["__pyx_vtable__", "__class_getitem__", "__getattr__", "_posonly_call",
                              "_posonly_defaults_source"])
"""A Wrapper's workings, which dir() of a wrapper leaves out."""


@cython.final
cdef class Wrapper:
    """A function wrapped by :func:`wrap`: each call binds its arguments to the
    function's parameters, then runs the handler.

    Looks as :func:`functools.wraps` would make it (``__wrapped__``,
    ``__name__``, ``__qualname__``, ``__doc__``, ``__module__``, ``__dict__``),
    binds as a method on a class, is a coroutine function when the function
    is (never a generator function, as a ``functools.wraps`` def is none), and
    pickles by reference as a function does (a wrapper of a bound method or a
    partial raises ``pickle.PicklingError``).  Each call binds with the
    defaults the function has then, as the interpreter does (see
    ``posonly._wrapper`` for the rule both implementations follow).
    ``wrapper.layout`` is the :class:`Layout` of the values its handler gets.
    """

    cdef vectorcallfunc _vectorcall  # read by the interpreter on every call
    cdef object _binder
    cdef object _func
    cdef object _handler
    cdef object _proceed  # around= only, made at the first call
    # The function whose __defaults__ and __kwdefaults__ the binder read (None
    # where the values' defaults come from a __signature__), and those two
    # objects as it read them: a call that finds others remakes the binder
    # first, so that a call binds with the defaults the function has then.
    cdef object _source
    cdef object _seen_defaults
    cdef object _seen_kwdefaults
    cdef object _claimed_class  # what __class__ answers: see there
    # form=True: the layout of the calls' CallForms (the values' layout, as
    # the binder read it); None otherwise.
    cdef object _form_layout
    cdef dict __dict__
    cdef object __weakref__  # as a function's

    def __cinit__(self, *args, **kwargs):
        if PyTuple_GET_SIZE(<PyObject *>args) == 5 and args[0] is _PARSED:
            func, before, around, form = args[1], args[2], args[3], args[4]
        else:
            func, before, around, form = _handler_arguments(args, kwargs, _wrapper_arguments)
        if isinstance(func, (classmethod, staticmethod)):
            raise descriptor_refused(func)
        if not callable(func):
            raise TypeError(f"wrap() func must be callable, not {type(func).__name__}")
        if (before is None) == (around is None):
            raise TypeError("wrap() takes exactly one handler: before= or around=")
        handler = before if around is None else around
        if not callable(handler):
            kind = "before" if around is None else "around"
            raise TypeError(f"wrap() {kind}= must be callable, not {type(handler).__name__}")
        if type(form) is not bool:
            raise TypeError(f"wrap() form= must be True or False, not {type(form).__name__}")
        self._func = func
        self._handler = handler
        self._proceed = None
        self._source = func if _plain_code(func) != NULL else defaults_source(func)
        self._form_layout = False if form else None  # (set by _new_binder)
        _new_binder(self)
        if form:
            # Another slot: a wrapper that does not ask pays nothing.
            if around is None:
                self._vectorcall = <vectorcallfunc>_wrapper_before_form_vectorcall
            else:
                self._vectorcall = <vectorcallfunc>_wrapper_around_form_vectorcall
        elif around is None:
            self._vectorcall = <vectorcallfunc>_wrapper_before_vectorcall
        else:
            self._vectorcall = <vectorcallfunc>_wrapper_around_vectorcall
        _update_wrapper(self, func)
        attributes = getattr(self, "__dict__")
        if "__name__" not in attributes:
            # As the pure twin's, which is a function named as the function
            # bound (a partial's, a callable instance's __call__).
            name = self._binder.layout.name
            attributes["__qualname__"] = name
            attributes["__name__"] = name.rpartition(".")[2]
        self._claimed_class = type(self)
        if isinstance(func, _FunctionType):
            self._claimed_class = _FunctionType
        if _is_coroutine_function(func):
            if _MARKS_COROUTINES:
                _inspect_module.markcoroutinefunction(self)
            elif self._claimed_class is not _FunctionType:
                # inspect looks through a partial (isinstance, so by
                # __class__) to its func: here the coroutine function.
                setattr(self, "func", _coroutine_function_of(func))
                self._claimed_class = _partial

    @property
    def __class__(self):
        # isinstance() asks __class__ when type() says no; type(self) is
        # unchanged.  A function's wrapper says it is a function, and lends
        # the function's code-level attributes below, as wrapt's proxies
        # do: inspect.getfile, getsourcefile, iscoroutinefunction and the
        # other tools that accept only functions then read the function.
        # Before 3.12, a wrapper of any other coroutine function (a bound
        # method's, a partial's) says it is a functools.partial, as the
        # pure twin's is, so that inspect.iscoroutinefunction finds the
        # function in its func.
        return self._claimed_class

    @property
    def __code__(self):
        # The function's code, but for the generator flags: a wrapper is no
        # generator (or async generator) function, as a functools.wraps def
        # is none, in both implementations; it is a coroutine function when
        # the function is one.
        code = self._function_attribute("__code__")
        if code.co_flags & _CO_GENERATORS:
            return code.replace(co_flags=code.co_flags & ~_CO_GENERATORS)
        return code

    @property
    def __globals__(self):
        return self._function_attribute("__globals__")

    @property
    def __closure__(self):
        return self._function_attribute("__closure__")

    @property
    def __defaults__(self):
        return self._function_attribute("__defaults__")

    @property
    def __kwdefaults__(self):
        return self._function_attribute("__kwdefaults__")

    @property
    def __builtins__(self):
        return self._function_attribute("__builtins__")

    cdef _function_attribute(self, str name):
        if self._claimed_class is not _FunctionType:
            raise AttributeError(f"'Wrapper' object has no attribute '{name}'")
        return getattr(self._func, name)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return MethodType(self, instance)

    @classmethod
    def __class_getitem__(cls, item):
        # Generic for type checkers (the pure twin's annotations): the
        # subscript names the same class, as typing's aliases do.
        return _GenericAlias(cls, item)

    @property
    def layout(self):
        """The :class:`Layout` of the values a handler gets, as
        ``binder.layout`` is of the values a binder returns: the signature
        bound less what the call puts first (a bound method's ``self``, a
        partial's arguments), which the values leave out; its defaults are
        those the wrapper binds with (the function's when it was made, and
        from the first call after a change, the new ones).  Its methods read the values by name
        (:meth:`Layout.arguments`, :meth:`Layout.replace`,
        :meth:`Layout.key`, :meth:`Layout.instance`)."""
        return (<Binder>self._binder)._get_plan().output

    @property
    def _posonly_call(self):
        _prepare(self, False)  # the defaults the function has now
        return (<Binder>self._binder)._get_plan().call()

    @property
    def _posonly_defaults_source(self):
        # What a wrapper of this wrapper reads defaults from (see _defaults).
        return self._source

    def __call__(self, *args, **kwargs):
        # What callable() and collections.abc.Callable look for; the
        # interpreter's calls take the vectorcall slot.
        return PyVectorcall_Call(self, args, kwargs)

    def __reduce__(self):
        return self.__qualname__

    def __repr__(self):
        # As the pure twin's, a function named as the function bound.
        return f"<function {self.__qualname__} at {id(self):#x}>"

    def __dir__(self):
        # What object.__dir__ finds (the attributes of __class__, the
        # instance's __dict__) but the type's own workings, and the layout:
        # what the pure twin's wrapper, a function, lists.
        names = [name for name in object.__dir__(self) if name not in _HIDDEN_FROM_DIR]
        for name in ("layout", "__annotations__"):
            if name not in names:
                names.append(name)
        return names

    def __getattr__(self, name):
        # Only where the usual lookup failed.  A function's __annotations__
        # (the pure twin's wrapper is a function): a dict made at the first
        # read and kept; anything else gets the usual error again.
        if name == "__annotations__":
            annotations = getattr(self, "__dict__")["__annotations__"] = {}
            return annotations
        return object.__getattribute__(self, name)


cdef int _new_binder(Wrapper self) except -1:
    """Make the binder of the function as it is now, and note the source's
    defaults objects as the binder read them; the binder binds keyword-only
    defaults as the source's dict holds them at the call, as the interpreter
    does (a snapshot kept until the dict changes, then a lookup at each
    call: Binder._fill_kwdefaults_at_call)."""
    cdef PyFunctionObject *f
    made = binder(self._func)
    if self._source is None:
        self._seen_defaults = self._seen_kwdefaults = None
    else:
        f = <PyFunctionObject *>self._source
        self._seen_defaults = <object>f.func_defaults if f.func_defaults != NULL else None
        self._seen_kwdefaults = <object>f.func_kwdefaults if f.func_kwdefaults != NULL else None
        (<Binder>made)._fill_kwdefaults_at_call(self._seen_kwdefaults)
    if self._form_layout is not None:
        self._form_layout = (<Binder>made)._get_plan().output
    self._binder = made
    return 0


cdef int _prepare(Wrapper self, bint around) except -1:
    """Make the wrapper ready for a call: remake the binder where the
    function's defaults changed since the binder read them (it reads the
    function as it is now); make an around= wrapper's proceed at its first
    call."""
    if posonly_defaults_changed(<PyObject *>self._source, <PyObject *>self._seen_defaults,
                                <PyObject *>self._seen_kwdefaults):
        _new_binder(self)
    if around and self._proceed is None:
        self._proceed = Proceed(self._func, self._binder)
    return 0


cdef PyObject *_prepared_call(Wrapper self, PyObject **args, size_t nargsf,
                              PyObject *kwnames, bint around) noexcept:
    """A call that finds the wrapper not ready (_prepare), then as any other."""
    try:
        _prepare(self, around)
    except BaseException as error:
        posonly_set_error(error)
        return NULL
    if self._form_layout is not None:
        return _form_call(self, args, nargsf, kwnames, around)
    if not around:
        return posonly_wrapper_before(<PyObject *>self._binder, <PyObject *>self._func,
                                      <PyObject *>self._handler, args, nargsf, kwnames)
    return posonly_wrapper_around(<PyObject *>self._binder, <PyObject *>self._proceed,
                                  <PyObject *>self._handler, args, nargsf, kwnames)


cdef PyObject *_wrapper_before_vectorcall(Wrapper self, PyObject **args, size_t nargsf,
                                          PyObject *kwnames) noexcept:
    if posonly_defaults_changed(<PyObject *>self._source, <PyObject *>self._seen_defaults,
                                <PyObject *>self._seen_kwdefaults):
        return _prepared_call(self, args, nargsf, kwnames, False)
    return posonly_wrapper_before(<PyObject *>self._binder, <PyObject *>self._func,
                                  <PyObject *>self._handler, args, nargsf, kwnames)


cdef PyObject *_wrapper_around_vectorcall(Wrapper self, PyObject **args, size_t nargsf,
                                          PyObject *kwnames) noexcept:
    if self._proceed is None or posonly_defaults_changed(
            <PyObject *>self._source, <PyObject *>self._seen_defaults,
            <PyObject *>self._seen_kwdefaults):
        return _prepared_call(self, args, nargsf, kwnames, True)
    return posonly_wrapper_around(<PyObject *>self._binder, <PyObject *>self._proceed,
                                  <PyObject *>self._handler, args, nargsf, kwnames)


cdef inline PyObject *_form_call(Wrapper self, PyObject **args, size_t nargsf,
                                 PyObject *kwnames, bint around) noexcept:
    if not around:
        return posonly_wrapper_before_form(
            <PyObject *>self._binder, <PyObject *>self._func, <PyObject *>self._handler,
            <PyObject *>_CallForm, <PyObject *>self._form_layout, args, nargsf, kwnames)
    return posonly_wrapper_around_form(
        <PyObject *>self._binder, <PyObject *>self._proceed, <PyObject *>self._handler,
        <PyObject *>_CallForm, <PyObject *>self._form_layout, args, nargsf, kwnames)


cdef PyObject *_wrapper_before_form_vectorcall(Wrapper self, PyObject **args, size_t nargsf,
                                               PyObject *kwnames) noexcept:
    if posonly_defaults_changed(<PyObject *>self._source, <PyObject *>self._seen_defaults,
                                <PyObject *>self._seen_kwdefaults):
        return _prepared_call(self, args, nargsf, kwnames, False)
    return _form_call(self, args, nargsf, kwnames, False)


cdef PyObject *_wrapper_around_form_vectorcall(Wrapper self, PyObject **args, size_t nargsf,
                                               PyObject *kwnames) noexcept:
    if self._proceed is None or posonly_defaults_changed(
            <PyObject *>self._source, <PyObject *>self._seen_defaults,
            <PyObject *>self._seen_kwdefaults):
        return _prepared_call(self, args, nargsf, kwnames, True)
    return _form_call(self, args, nargsf, kwnames, True)


def wrap(*args, **kwargs):
    """wrap(func, *, before=None, around=None, form=False)

    Wrap ``func`` so that each call binds its arguments to ``func``'s
    parameters and runs exactly one handler.

    ``before(values)`` gets the locals tuple (frame order, as a binder returns
    it); what it returns is ignored, then ``func`` is called with the caller's
    own arguments.  ``around(proceed, values)`` gets a callable and the locals
    tuple, and the call returns what it returns; ``proceed(values)`` calls
    ``func`` with a locals tuple.  A call that does not bind raises the
    interpreter's ``TypeError`` for ``func`` before any handler runs.  Each
    call binds with the defaults ``func`` has at the call.  Raises
    ``TypeError`` unless exactly one handler is given, or when ``func`` or the
    handler is not callable, or ``form`` not a bool.  A ``classmethod`` or
    ``staticmethod`` object gives the same kind of object around a wrapper of
    its function.  With ``form=True`` the handler also gets the call's
    :class:`CallForm`: ``before(values, form)``, ``around(proceed, values,
    form)`` (see the pure twin's docstring, which the documentation shows).
    """
    func, before, around, form = _handler_arguments(args, kwargs, _wrap_arguments)
    if isinstance(func, (classmethod, staticmethod)):
        return type(func)(wrap(func.__func__, before=before, around=around, form=form))
    return Wrapper(_PARSED, func, before, around, form)


def _wrapper_signature(Wrapper wrapper):
    # The signature bound, as inspect gives it for the function (with its
    # annotations): what inspect.signature(w, follow_wrapped=False) answers
    # for a functools.wraps wrapper and for the pure twin's.
    return _inspect_module.signature(wrapper._func)


# inspect.signature of the classes and of wrap, as the pure twin's answer.
wrap.__signature__ = _inspect_module.signature(_wrap_arguments)
posonly_set_type_attribute(<PyTypeObject *>Wrapper, "__signature__",
                           ClassSignature(_wrapper_arguments, _wrapper_signature))
posonly_set_type_attribute(<PyTypeObject *>Binder, "__signature__",
                           ClassSignature(_binder_arguments))

WRAPPER_TYPES.append(Wrapper)
posonly_set_type_attribute(<PyTypeObject *>Wrapper, "__call__", CallAttribute())


cdef Proceed _proceed_probe = Proceed(len, Binder(Layout()))
posonly_install_vectorcall(
    <PyTypeObject *>Proceed,
    <Py_ssize_t>(<char *>&_proceed_probe._c.vectorcall - <char *><PyObject *>_proceed_probe))
_proceed_probe = None
cdef Wrapper _wrapper_probe = Wrapper(lambda: None, before=len)
posonly_install_vectorcall(
    <PyTypeObject *>Wrapper,
    <Py_ssize_t>(<char *>&_wrapper_probe._vectorcall - <char *><PyObject *>_wrapper_probe))
posonly_declare_method_descriptor(<PyTypeObject *>Wrapper)
_wrapper_probe = None
