# posonly.migrate: a function called in its future signature, and in its
# legacy one with a warning (included by _bind.pyx).
#
# A Migrated is called through vectorcall: the slot is C (_migrate.h), which
# sends a call in the future form to the function with the caller's own
# argument array, and any other call to the legacy path both twins share
# (Migration.legacy_call in _migrate_common.py).  The slot adds no Python
# frame, so the legacy path's warnings name the caller two levels up.

from posonly._migrate_common import Migration, docstring_of, migrate_arguments

cdef extern from "_migrate.h":
    PyObject *posonly_migrated_call(PyObject *func, PyObject *legacy, PyObject *legacy_names,
                                    Py_ssize_t max_nargs, PyObject **args, size_t nargsf,
                                    PyObject *kwnames)

cdef int _MIGRATED_STACKLEVEL = 2  # legacy_call's frame, then the caller's


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
    cdef object _legacy  # the migration's legacy_call
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
        self._legacy = migration.legacy_call
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
    return posonly_migrated_call(<PyObject *>self._func, <PyObject *>self._legacy,
                                 <PyObject *>self._legacy_names, self._max_nargs,
                                 args, nargsf, kwnames)


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
