# posonly.migrate: a function called in its future signature, and in its
# legacy one with a warning (included by _bind.pyx).
#
# A Migrated is called through vectorcall: the slot is C (_migrate.h), which
# sends a call in the future form to the function with the caller's own
# argument array, and any other call to the legacy path, _migrated_legacy
# below: the steps of the pure twin's Migration.legacy_call
# (_migrate_common.py), in C but for the calls of the binder, of
# warnings.warn and of the function, over what the Migration made once (the
# legacy binder, the words of each warning).  The slot adds no Python frame,
# so the warnings name the top frame, the caller's.

import warnings as _warnings_module
from types import CodeType as _CodeType

from posonly._migrate_common import _DEFAULTED, Migration, docstring_of, migrate_arguments

cdef extern from "_migrate.h":
    ctypedef void *posonly_migrated_legacy  # _migrated_legacy's C signature
    PyObject *posonly_migrated_call(PyObject *self, PyObject *func,
                                    posonly_migrated_legacy legacy, PyObject *legacy_names,
                                    Py_ssize_t max_nargs, PyObject **args, size_t nargsf,
                                    PyObject *kwnames)
    int posonly_migrated_lookup(PyObject *d, PyObject *key, PyObject **found) except -1
    object posonly_vectorcall(object callable, PyObject **args, size_t nargsf,
                              PyObject *kwnames)
    size_t PY_VECTORCALL_ARGUMENTS_OFFSET
    bint PyLong_CheckExact(PyObject *o)
    Py_ssize_t PyLong_AsSsize_t(PyObject *o)

cdef int _MIGRATED_STACKLEVEL = 1  # the caller's frame: the legacy path adds none
cdef enum:
    _FUTURE_STACK = 16  # arguments of the future call up to this many go on the C stack


# no_gc_clear: only the Migrated holding it refers to a legacy path, so
# clearing the Migrated breaks any cycle through it, and a call never meets
# a path half cleared.
@cython.final
@cython.no_gc_clear
cdef class _LegacyPath:
    """What the compiled legacy path reads, taken once from the Migration."""

    cdef object func
    cdef object binder  # the legacy layout's
    cdef object migration
    cdef object category
    cdef object stacklevel
    # A keyword name of the call -> the posonly index (an int) of a
    # deprecated positional-only parameter, or (new name, warning) of an
    # old name.
    cdef dict kinds
    cdef dict keyword_messages  # the migration's, by set of parameters
    cdef tuple positional_messages  # by how many keyword-only ones
    cdef tuple kwonly  # the future keyword-only names, in order
    cdef Py_ssize_t first_deprecated, argcount, n_keyword_only
    cdef Py_ssize_t varargs_slot, varkw_slot

    def __cinit__(self, migration):
        kinds = {}
        for name, index in migration.posonly_index.items():
            kinds[name] = index
        for old, new in migration.renamed.items():
            kinds[old] = (new, migration.renamed_messages[old])
        self.func = migration.func
        self.binder = migration.legacy_binder
        self.migration = migration
        self.category = migration.category
        self.stacklevel = migration.stacklevel
        self.kinds = kinds
        self.keyword_messages = migration.keyword_messages
        self.positional_messages = migration.positional_messages
        self.kwonly = migration.kwonly  # exact str, as a Layout keeps them
        self.first_deprecated = migration.first_deprecated
        self.argcount = migration.argcount
        self.n_keyword_only = len(migration.keyword_only)
        self.varargs_slot = migration.varargs_slot
        self.varkw_slot = migration.varkw_slot


@cython.final
cdef class Migrated:
    """A function migrated by :func:`migrate`: calls in its future form go
    straight to it; calls in a legacy form warn, then get what the future
    form of the call gives.

    Looks as :func:`functools.wraps` would make it (``__wrapped__``,
    ``__name__``, ``__qualname__``, ``__doc__`` with a note per
    deprecation, ``__module__``, ``__dict__``), binds as a method on a
    class, is a coroutine function when the function is, and pickles by
    reference as a function does."""

    cdef vectorcallfunc _vectorcall  # read by the interpreter on every call
    cdef object _func
    cdef _LegacyPath _path
    cdef object _legacy_names  # a tuple of exact str
    cdef Py_ssize_t _max_nargs
    cdef object _migration
    cdef object _claimed_class  # what __class__ answers, as a Wrapper's
    cdef dict __dict__
    cdef object __weakref__

    def __cinit__(self, func, migration):
        if not isinstance(migration, Migration):
            raise TypeError("Migrated() is made by posonly.migrate()")
        self._vectorcall = <vectorcallfunc>_migrated_vectorcall
        self._func = func
        self._migration = migration
        self._path = _LegacyPath(migration)
        self._legacy_names = tuple([str(name) for name in migration.legacy_names])
        self._max_nargs = migration.max_nargs
        _update_wrapper(self, func)
        self.__doc__ = migration.docstring(docstring_of(func))
        self._claimed_class = type(self)
        if isinstance(func, _FunctionType):
            self._claimed_class = _FunctionType
        if _is_coroutine_function(func):
            if _MARKS_COROUTINES:
                _inspect_module.markcoroutinefunction(self)
            elif self._claimed_class is not _FunctionType:
                setattr(self, "func", _coroutine_function_of(func))
                self._claimed_class = _partial

    @property
    def __class__(self):
        # As a Wrapper's: a migrated function says it is a function and
        # lends the function's code-level attributes, so inspect's tools
        # that accept only functions read the function.
        return self._claimed_class

    @property
    def __code__(self):
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
            raise AttributeError(f"'Migrated' object has no attribute '{name}'")
        return getattr(self._func, name)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return MethodType(self, instance)

    def __call__(self, *args, **kwargs):
        return PyVectorcall_Call(self, args, kwargs)

    def __reduce__(self):
        return self.__qualname__

    def __repr__(self):
        return f"<posonly migrated {self._func!r}>"


cdef PyObject *_migrated_vectorcall(Migrated self, PyObject **args, size_t nargsf,
                                    PyObject *kwnames) noexcept:
    return posonly_migrated_call(<PyObject *>self, <PyObject *>self._func,
                                 <posonly_migrated_legacy>_migrated_legacy,
                                 <PyObject *>self._legacy_names, self._max_nargs,
                                 args, nargsf, kwnames)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef object _migrated_legacy(Migrated self, PyObject **args, size_t nargsf, PyObject *kwnames):
    """A call the slot's check let through: Migration.legacy_call's steps.
    The legacy forms it uses, from the declaration (the deprecated
    positional-only parameters passed by keyword as bits of a mask, in
    signature order; the keyword-only ones passed by position; old names);
    a call that uses none goes to the function as it came.  Else: bound to
    the legacy layout (old names given as the new ones), one warning per
    form, then the future call (_migrated_future)."""
    cdef _LegacyPath path = self._path
    cdef Py_ssize_t nargs = PyVectorcall_NARGS(nargsf)
    cdef Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames) if kwnames != NULL else 0
    cdef Py_ssize_t i, index, extra
    cdef unsigned long long mask = 0
    cdef bint wide = False, old = False
    cdef PyObject *kind
    cdef PyObject *name
    if path is None:
        raise TypeError("call of a cleared migrated function")
    for i in range(nkw):
        if posonly_migrated_lookup(<PyObject *>path.kinds, PyTuple_GET_ITEM(kwnames, i), &kind):
            if PyLong_CheckExact(kind):
                index = PyLong_AsSsize_t(kind)
                if index >= nargs:
                    index -= path.first_deprecated
                    if index < 64:
                        mask |= (<unsigned long long>1) << index
                    else:
                        wide = True
            else:
                old = True
    extra = nargs - path.argcount
    if extra > 0 and path.n_keyword_only == 0:
        extra = 0
    if not (mask or wide or old or extra > 0):
        return PyObject_Vectorcall(path.func, args, nargsf, kwnames)

    if old:
        names = PyTuple_New(nkw)
        for i in range(nkw):
            name = PyTuple_GET_ITEM(kwnames, i)
            if (posonly_migrated_lookup(<PyObject *>path.kinds, name, &kind)
                    and not PyLong_CheckExact(kind)):
                name = PyTuple_GET_ITEM(kind, 0)
            Py_INCREF(name)
            PyTuple_SET_ITEM(<PyObject *>names, i, name)
        values = posonly_vectorcall(path.binder, args, <size_t>nargs, <PyObject *>names)
    else:
        values = posonly_vectorcall(path.binder, args, <size_t>nargs, kwnames)

    warn = _warnings_module.warn
    if mask or wide:
        if wide:
            key = _wide_mask(path, nargs, kwnames)
        else:
            key = mask
        message = path.keyword_messages.get(key)
        if message is None:
            message = path.migration.keyword_message_of(key)
        warn(message, path.category, path.stacklevel)
    if extra > 0:
        warn(path.positional_messages[(extra if extra < path.n_keyword_only
                                       else path.n_keyword_only) - 1],
             path.category, path.stacklevel)
    if old:
        for i in range(nkw):
            if (posonly_migrated_lookup(<PyObject *>path.kinds, PyTuple_GET_ITEM(kwnames, i), &kind)
                    and not PyLong_CheckExact(kind)):
                warn(<object>PyTuple_GET_ITEM(kind, 1), path.category, path.stacklevel)
    return _migrated_future(path, values)


cdef object _wide_mask(_LegacyPath path, Py_ssize_t nargs, PyObject *kwnames):
    """The mask of a call that passes by keyword a deprecated positional-only
    parameter past the 64th, as a Python int."""
    cdef PyObject *kind
    mask = 0
    for i in range(PyTuple_GET_SIZE(kwnames)):
        if (posonly_migrated_lookup(<PyObject *>path.kinds, PyTuple_GET_ITEM(kwnames, i), &kind)
                and PyLong_CheckExact(kind) and <object>kind >= nargs):
            mask |= 1 << (<object>kind - path.first_deprecated)
    return mask


@cython.boundscheck(False)
@cython.wraparound(False)
cdef object _migrated_future(_LegacyPath path, tuple values):
    """Migration._call_future: the function called in its future form with
    the values bound to the legacy layout, through one vectorcall: the
    positional parameters by position up to the last one given (one not
    given before it gets its default), the items of *args, the keyword-only
    parameters given by keyword (the names made once when all are given),
    then the items of **kwargs (a dict the binder made, which nothing else
    reaches while the call runs)."""
    cdef PyObject *small[_FUTURE_STACK + 1]
    cdef PyObject **stack = small
    cdef PyObject **out
    cdef PyObject *defaulted = <PyObject *>_DEFAULTED
    cdef PyObject *value
    cdef PyObject *key
    cdef PyObject *varargs = NULL
    cdef PyObject *varkw = NULL
    cdef PyObject *kwnames = NULL
    cdef Py_ssize_t argcount = path.argcount, last = argcount, n_kwonly = len(path.kwonly)
    cdef Py_ssize_t n_extra = 0, n_dict = 0, n_kw = 0, npos, total, i, k, pos = 0
    defaults = None
    names = None
    if path.varargs_slot >= 0:
        varargs = PyTuple_GET_ITEM(<PyObject *>values, path.varargs_slot)
        n_extra = PyTuple_GET_SIZE(varargs)
    if n_extra == 0:
        while last and PyTuple_GET_ITEM(<PyObject *>values, last - 1) == defaulted:
            last -= 1
    if path.varkw_slot >= 0:
        varkw = PyTuple_GET_ITEM(<PyObject *>values, path.varkw_slot)
        n_dict = PyDict_GET_SIZE(varkw)
    for i in range(n_kwonly):
        if PyTuple_GET_ITEM(<PyObject *>values, argcount + i) != defaulted:
            n_kw += 1
    npos = last + n_extra
    total = npos + n_kw + n_dict
    if total > _FUTURE_STACK:
        stack = <PyObject **>PyMem_Malloc((total + 1) * sizeof(PyObject *))
        if stack == NULL:
            raise MemoryError()
    try:
        out = stack + 1  # out[-1] is scratch for the callee
        for i in range(last):
            value = PyTuple_GET_ITEM(<PyObject *>values, i)
            if value == defaulted:
                if defaults is None:
                    defaults = _current_defaults(path)
                value = _default_of(path, <tuple>defaults, i)
            out[i] = value
        for i in range(n_extra):
            out[last + i] = PyTuple_GET_ITEM(varargs, i)
        if n_kw == n_kwonly and n_dict == 0:
            for i in range(n_kw):
                out[npos + i] = PyTuple_GET_ITEM(<PyObject *>values, argcount + i)
            if n_kw:
                kwnames = <PyObject *>path.kwonly
        else:
            names = PyTuple_New(n_kw + n_dict)
            k = 0
            for i in range(n_kwonly):
                value = PyTuple_GET_ITEM(<PyObject *>values, argcount + i)
                if value != defaulted:
                    key = PyTuple_GET_ITEM(<PyObject *>path.kwonly, i)
                    Py_INCREF(key)
                    PyTuple_SET_ITEM(<PyObject *>names, k, key)
                    out[npos + k] = value
                    k += 1
            while k < n_kw + n_dict and PyDict_Next(varkw, &pos, &key, &value):
                Py_INCREF(key)
                PyTuple_SET_ITEM(<PyObject *>names, k, key)
                out[npos + k] = value
                k += 1
            kwnames = <PyObject *>names
        return posonly_vectorcall(path.func, out, <size_t>npos | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                  kwnames)
    finally:
        if stack != small:
            PyMem_Free(stack)


cdef tuple _current_defaults(_LegacyPath path):
    """Migration.current_defaults, read here: a plain function's own
    positional defaults as they are now, else those read when it was
    migrated."""
    func = path.func
    if (isinstance(func, _FunctionType) and type(func.__code__) is _CodeType
            and not hasattr(func, "__wrapped__")):
        return func.__defaults__ or ()
    return path.migration.layout.defaults


cdef PyObject *_default_of(_LegacyPath path, tuple defaults, Py_ssize_t i) except NULL:
    """The default of the positional parameter ``i`` (borrowed from
    ``defaults``); the interpreter's error where it has none now."""
    cdef Py_ssize_t first_default = path.argcount - len(defaults)
    if i < first_default:
        migration = path.migration
        raise _errors.missing_arguments(migration.legacy_layout.name, "positional",
                                        [migration.layout.names[i]])
    return PyTuple_GET_ITEM(<PyObject *>defaults, i - first_default)


def migrate(*args, **kwargs):
    """migrate(func=None, /, *, positional_only=(), keyword_only=(), renamed=None, since=None, removal=None, category=DeprecationWarning)

    Keep the calls of ``func``'s former signature working, with a warning,
    while ``func`` is written in its future one (see the pure twin's
    docstring, which the documentation shows)."""
    func, declaration = migrate_arguments(*args, **kwargs)
    if func is None:
        return lambda func: migrate(func, **declaration)
    if isinstance(func, (classmethod, staticmethod)):
        return type(func)(migrate(func.__func__, **declaration))
    return Migrated(func, Migration(func, declaration, Binder, _MIGRATED_STACKLEVEL))


def _migrated_arguments(func, migration, /):
    return func, migration



def _migrated_signature(Migrated migrated):
    # The function's (future) signature, as inspect gives it: what
    # inspect.signature(m, follow_wrapped=False) answers for the pure twin.
    return _inspect_module.signature(migrated._func)


migrate.__signature__ = _inspect_module.signature(migrate_arguments)
posonly_set_type_attribute(<PyTypeObject *>Migrated, "__signature__",
                           ClassSignature(_migrated_arguments, _migrated_signature))
posonly_set_type_attribute(<PyTypeObject *>Migrated, "__call__", CallAttribute())


cdef Migrated _migrated_probe = Migrated(
    lambda a: None, Migration(lambda a: None, {"positional_only": (), "keyword_only": (),
                                               "renamed": {"b": "a"}, "since": None,
                                               "removal": None, "category": DeprecationWarning},
                              Binder, _MIGRATED_STACKLEVEL))
posonly_install_vectorcall(
    <PyTypeObject *>Migrated,
    <Py_ssize_t>(<char *>&_migrated_probe._vectorcall - <char *><PyObject *>_migrated_probe))
posonly_declare_method_descriptor(<PyTypeObject *>Migrated)
_migrated_probe = None
