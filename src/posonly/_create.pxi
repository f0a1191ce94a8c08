# Binders and wrappers of plain functions, made straight from the function
# (included by _bind.pyx).
#
# Making them is on the clock: a library that wraps thousands of functions
# pays it at every start.  A plain function's parameters are read from its
# code object, which the compiler made valid (identifiers, no duplicates,
# order), so nothing is checked again; the binder holds the code's own name
# tuple and the function's own defaults tuple, and the Layout, the Plan and
# the arguments() order, which no call of the binder reads, are built on
# first use (_complete_binder).

cdef extern from "Python.h":
    ctypedef struct PyCodeObject:
        int co_argcount
        int co_posonlyargcount
        int co_kwonlyargcount
        int co_flags
    ctypedef struct PyFunctionObject:
        PyObject *func_code
        PyObject *func_defaults
        PyObject *func_kwdefaults
        PyObject *func_dict
        PyObject *func_qualname
    PyTypeObject PyFunction_Type
    PyTypeObject PyCode_Type
    PyObject *PyDict_GetItemWithError(PyObject *d, PyObject *key) except? NULL

# The parameter names as the code object holds them, in frame order at the
# start of the tuple, referenced rather than copied (3.11's co_varnames makes
# a new tuple on each read; 3.12's caches one, which would be made here):
# posonly_code_names, declared with the drop-in's reads of code objects.

import threading

# What the interpreter calls a function in its call errors (_layout's
# QUALIFIED_NAMES: __qualname__ from 3.10 on, the code object's co_name
# before), as a C flag for the creation path.
cdef bint _QUALIFIED_NAMES = QUALIFIED_NAMES
cdef object _completing = threading.Lock()  # one thread builds what a binder left for later
cdef str _WRAPPED = "__wrapped__"
cdef str _SIGNATURE = "__signature__"
cdef dict _no_defaults = {}  # n -> (NO_DEFAULT,) * n, shared by binders without defaults


cdef inline PyObject *_plain_code(object func) except? NULL:
    """``func``'s code object when ``func`` is a plain Python function, one
    whose ``__dict__`` holds neither ``__wrapped__`` nor ``__signature__``
    (which would make it advertise another signature); else NULL.  The C
    copy of ``_layout.is_plain_function`` and ``advertises`` for the
    creation path, where a Python call would cost more than the rest."""
    if Py_TYPE(func) != &PyFunction_Type:
        return NULL
    cdef PyFunctionObject *f = <PyFunctionObject *>func
    if Py_TYPE(<object>f.func_code) != &PyCode_Type:
        return NULL
    if f.func_dict != NULL and PyDict_GET_SIZE(f.func_dict) and (
            PyDict_Contains(f.func_dict, <PyObject *>_WRAPPED)
            or PyDict_Contains(f.func_dict, <PyObject *>_SIGNATURE)):
        return NULL
    return f.func_code


cdef tuple _no_default_tuple(Py_ssize_t n):
    cdef tuple shared = _no_defaults.get(n)
    if shared is None:
        shared = (NO_DEFAULT,) * n
        if n <= 64:
            _no_defaults[n] = shared
    return shared


def binder(target, follow_wrapped=True):
    """``posonly.binder`` of the compiled twin: a plain function's binder
    made in C from its code object (no Python-level call on the way),
    anything else's by the general path."""
    cdef PyObject *code = _plain_code(target)
    if code != NULL:
        made = _binder_of_function(target, code)
        if made is not None:
            return made
    return make_binder(Binder, target, follow_wrapped)


def binder_of_function(func):
    """A Binder of ``func`` made from its code object, or None where ``func``
    is not a plain function (the general path then makes the binder, or
    raises its error)."""
    cdef PyObject *code = _plain_code(func)
    if code == NULL:
        return None
    return _binder_of_function(func, code)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef object _binder_of_function(object func, PyObject *code_object):
    cdef PyFunctionObject *f = <PyFunctionObject *>func
    cdef PyCodeObject *code = <PyCodeObject *>code_object
    cdef Py_ssize_t argcount = code.co_argcount
    cdef Py_ssize_t n_posonly = code.co_posonlyargcount
    cdef Py_ssize_t n_kwonly = code.co_kwonlyargcount
    cdef Py_ssize_t total = argcount + n_kwonly
    cdef Py_ssize_t n_locals = total
    cdef Py_ssize_t varargs_slot = -1, varkw_slot = -1
    cdef Py_ssize_t i, ndefaults, first_default
    cdef bint required_kwonly = False
    cdef PyObject *value
    cdef tuple kwdefaults, fill
    if code.co_flags & _CO_VARARGS:
        varargs_slot = n_locals
        n_locals += 1
    if code.co_flags & _CO_VARKEYWORDS:
        varkw_slot = n_locals
        n_locals += 1
    defaults = <object>f.func_defaults if f.func_defaults != NULL else ()
    name = <object>f.func_qualname if _QUALIFIED_NAMES else (<object>code_object).co_name
    if type(defaults) is not tuple or type(name) is not str:
        return None  # a subclass: the general path copies it into an exact one
    ndefaults = PyTuple_GET_SIZE(<PyObject *>defaults)
    if ndefaults > argcount:
        return None  # the general path's ValueError
    # The body's own locals (and cells) may follow the parameters: what
    # reads the names reads only the first n_locals.
    names = <tuple>posonly_code_names(code_object)

    # Keyword-only defaults, per slot: the interpreter looks up only the
    # keyword-only names in __kwdefaults__.
    if n_kwonly == 0:
        kwdefaults = ()
    elif f.func_kwdefaults == NULL or PyDict_GET_SIZE(f.func_kwdefaults) == 0:
        kwdefaults = _no_default_tuple(n_kwonly)
        required_kwonly = True
    else:
        # A lookup can run Python code (a key's own __eq__), which may read
        # every object the collector tracks or change the dict: the values
        # go into a list, the dict is held, and the tuple is made after.
        kwdefaults_dict = <object>f.func_kwdefaults
        found = []
        for i in range(n_kwonly):
            value = PyDict_GetItemWithError(<PyObject *>kwdefaults_dict,
                                            PyTuple_GET_ITEM(<PyObject *>names, argcount + i))
            if value == NULL:
                value = _NO_DEFAULT
                required_kwonly = True
            found.append(<object>value)
        kwdefaults = tuple(found)

    first_default = argcount - ndefaults
    if ndefaults == 0 and (n_kwonly == 0 or kwdefaults is _no_defaults.get(n_kwonly)):
        fill = _no_default_tuple(total)
    else:
        fill = PyTuple_New(total)
        for i in range(total):
            if i < first_default:
                value = _NO_DEFAULT
            elif i < argcount:
                value = PyTuple_GET_ITEM(<PyObject *>defaults, i - first_default)
            else:
                value = PyTuple_GET_ITEM(<PyObject *>kwdefaults, i - argcount)
            Py_INCREF(value)
            PyTuple_SET_ITEM(<PyObject *>fill, i, value)

    cdef Binder b = Binder.__new__(Binder, _FROM_FUNCTION)
    b._name = name
    b._prefix = ()
    b._names = names
    b._defaults = defaults
    b._kwdefaults = kwdefaults
    # _posonly and _keyword_candidates, for the unexpected-keyword message
    # alone, are sliced from _names when that message is made.
    b._fill = fill
    b.n_kwonly = n_kwonly
    b.ndefaults = ndefaults
    b._c.bound = False
    b._c.n_posonly = n_posonly
    b._c.argcount = argcount
    b._c.total_args = total
    b._c.n_locals = n_locals
    b._c.varargs_slot = varargs_slot
    b._c.varkw_slot = varkw_slot
    b._c.names = tuple_items(<PyObject *>names, 0)  # kept alive by b
    b._c.fill = tuple_items(<PyObject *>fill, 0)
    b._c.no_default = _NO_DEFAULT
    b._c.plain_min = first_default
    b._c.plain_max = -1 if varargs_slot >= 0 or varkw_slot >= 0 or required_kwonly else argcount
    if required_kwonly:
        b.max_positional = -1
    elif varargs_slot >= 0:
        b.max_positional = PY_SSIZE_T_MAX
    else:
        b.max_positional = argcount
    return b


cdef int _complete_binder(Binder b) except -1:
    """Build what a binder made from a function left for later: its Layout
    (equal to Layout.from_callable's for the function as it was), its Plan
    and the order of arguments()."""
    cdef Py_ssize_t argcount = b._c.argcount, total = b._c.total_args
    with _completing:
        if b._layout is None:
            names = b._names
            if PyTuple_GET_SIZE(<PyObject *>names) != b._c.n_locals:
                names = names[:b._c.n_locals]
            b._layout = Layout._of_code(
                b._name, names, b._c.n_posonly, argcount, total,
                names[b._c.varargs_slot] if b._c.varargs_slot >= 0 else None,
                names[b._c.varkw_slot] if b._c.varkw_slot >= 0 else None,
                b._defaults,
                tuple((n, d) for n, d in zip(names[argcount:total], b._kwdefaults)
                      if d is not NO_DEFAULT))
        if b._plan is None:
            b._plan = Plan(b._layout)
        if b._argument_slots == NULL:
            plan = b._plan
            b._argument_names = tuple(name for name, _ in plan.arguments_order)
            b._argument_slots = _slot_array([slot for _, slot in plan.arguments_order])
    return 0


# functools.update_wrapper, step for step (it is the same on every
# supported version; the attributes are the running one's), without the
# cost of its Python frame: a wrapper made in C pays no interpreted code.
cdef tuple _WRAPPER_ASSIGNMENTS = tuple(functools.WRAPPER_ASSIGNMENTS)
cdef tuple _WRAPPER_UPDATES = tuple(functools.WRAPPER_UPDATES)


cdef object _update_wrapper(wrapper, wrapped):
    for attr in _WRAPPER_ASSIGNMENTS:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            pass
        else:
            setattr(wrapper, attr, value)
    for attr in _WRAPPER_UPDATES:
        getattr(wrapper, attr).update(getattr(wrapped, attr, {}))
    wrapper.__wrapped__ = wrapped
    return wrapper


cdef bint _is_coroutine_function(func) except -1:
    """inspect.iscoroutinefunction(func), read from the code's flags for a
    plain function with an empty ``__dict__`` (which holds no coroutine mark)."""
    cdef PyObject *code = _plain_code(func)
    cdef PyFunctionObject *f = <PyFunctionObject *>func
    if code != NULL and (f.func_dict == NULL or PyDict_GET_SIZE(f.func_dict) == 0):
        return (<PyCodeObject *>code).co_flags & _CO_COROUTINE != 0
    return _inspect_module.iscoroutinefunction(func)

