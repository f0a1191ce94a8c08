# cython: language_level=3, embedsignature=True
"""The compiled binder: the twin of ``_bind_py``, bound in C.

One extension module, in one file per concern (calls between the parts stay
C calls), each with its pure twin of the same stem (``_bind_py`` imports
their names as this module includes them):

- ``_binder.h``: the C hot path of a binder and the type patches Cython
  cannot express;
- ``_binder.pxi``: the ``Binder`` type, its general path and entry points
  (twin: ``_binder.py``);
- ``_dropin.pxi`` and ``_dropin.h``: the drop-in for ``inspect``
  (``bind_signature``, ``bound_args``, ``bound_kwargs``, ``apply_defaults``,
  ``function_signature``; twin: ``_dropin.py``, with ``_dropin_generic``,
  ``_dropin_plans``, ``_dropin_cache`` and ``_dropin_signature``);
- ``_create.pxi``: ``binder`` (what ``posonly.binder`` calls), binders of
  plain functions made straight from the code object
  (``binder_of_function``), and what making a wrapper shares (twin:
  ``_create.py``);
- ``_wrapper.pxi`` and ``_wrapper.h``: ``wrap`` and its ``Wrapper`` (the
  type in Cython, its calls in C; twin: ``_wrapper.py``);
- ``_values.pxi``: ``Layout``'s methods on a call's values (``arguments``,
  ``values``, ``replace``, ``key``, ``instance``), compiled (twin:
  ``_values.py``);
- ``_migrate.pxi`` and ``_migrate.h``: ``migrate`` and its ``Migrated``
  (the type in Cython, its call in C; twin: ``_migrate.py``; the legacy
  path both share is ``_migrate_common.py``).

Calling a ``Binder`` is a real vectorcall: the interpreter hands the argument
array and the keyword names straight to ``posonly_binder_vectorcall`` (C, in
``_binder.h``).  Its fast path, ``posonly_fast_bind``, answers every call
that binds without a problem; any other call goes to ``_bind``, which follows
``initialize_locals`` of CPython's ``Python/ceval.c`` step by step, in the
same order, with the same errors.  Only the result tuple (and the
``*args``/``**kwargs`` containers when the layout has them) is allocated on
the way.
"""

cimport cython
from cpython.object cimport PyObject, PyTypeObject
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memcpy

import functools
import inspect as _inspect_module
import sys
from types import FunctionType, GenericAlias as _GenericAlias, MethodType

from posonly import _errors
from posonly._plan import (
    NO_DEFAULT, CallAttribute, Plan, binder_arguments, descriptor_refused, make_binder,
    wrapper_arguments,
)
from posonly._layout import MISSING, QUALIFIED_NAMES, WRAPPER_TYPES, ClassSignature, Layout

cdef extern from "_binder.h":
    ctypedef void *vectorcallfunc
    Py_ssize_t posonly_slot_offset(object descriptor)
    void posonly_declare_method_descriptor(PyTypeObject *tp)
    int posonly_declare_entry_method(PyTypeObject *tp, const char *name) except -1
    int posonly_start_kwdefaults_watcher()
    Py_ssize_t PyVectorcall_NARGS(size_t nargsf)
    int posonly_install_vectorcall(PyTypeObject *tp, Py_ssize_t offset) except -1
    int posonly_set_type_attribute(PyTypeObject *tp, const char *name, object value) except -1
    int posonly_str_eq(PyObject *a, PyObject *b) except -1
    object _tuple_from_array "posonly_tuple_from_array"(PyObject **items, Py_ssize_t n)
    ctypedef struct posonly_plan:
        vectorcallfunc vectorcall
        void *general
        bint bound
        Py_ssize_t plain_min, plain_max
        Py_ssize_t n_posonly, argcount, total_args, n_locals, varargs_slot, varkw_slot
        PyObject **names
        PyObject **fill
        PyObject *no_default
        PyObject *kwdefaults
        PyObject *watched
    int posonly_watch_kwdefaults(posonly_plan *plan, PyObject *d)
    void posonly_stop_watching(posonly_plan *plan)
    void posonly_look_kwdefaults_up(posonly_plan *plan, PyObject *d)
    void posonly_check_kwdefaults(posonly_plan *plan)
    PyObject *POSONLY_SLOW
    PyObject *posonly_fast_bind(const posonly_plan *plan, PyObject **args, Py_ssize_t nargs,
                                PyObject *kwnames)
    PyObject *posonly_fast_bind_dict(const posonly_plan *plan, PyObject **args, Py_ssize_t nargs,
                                     PyObject *kwdict)
    PyObject *posonly_call_binder "posonly_binder_vectorcall"(PyObject *self, PyObject **args,
                                                               size_t nargsf, PyObject *kwnames)
    object posonly_steal(PyObject *o)
    vectorcallfunc posonly_binder_vectorcall
    object posonly_new_locals(Py_ssize_t size, PyObject **args, Py_ssize_t nargs,
                              Py_ssize_t argcount, Py_ssize_t varargs_slot, Py_ssize_t varkw_slot)

cdef extern from "_wrapper.h":
    ctypedef struct posonly_proceed_plan:
        vectorcallfunc vectorcall
        Py_ssize_t size, n_positional, varargs_slot, n_kwonly, varkw_slot
    PyObject *posonly_wrapper_before(PyObject *binder, PyObject *func, PyObject *handler,
                                     PyObject **args, size_t nargsf, PyObject *kwnames)
    PyObject *posonly_wrapper_around(PyObject *binder, PyObject *proceed, PyObject *handler,
                                     PyObject **args, size_t nargsf, PyObject *kwnames)
    PyObject *posonly_proceed(const posonly_proceed_plan *plan, PyObject *func,
                              PyObject *kwonly_names, PyObject *missing, PyObject *apply,
                              PyObject *name, PyObject **args, size_t nargsf, PyObject *kwnames)

# The C-API with PyObject* where this module manages reference counts itself:
# each store into a new tuple is "incref this pointer, store this pointer".
cdef extern from "Python.h":
    object PyVectorcall_Call(object callable, object args, object kwargs)
    object PyObject_Vectorcall(object callable, PyObject **args, size_t nargsf, PyObject *kwnames)
    void Py_INCREF(PyObject *o)
    void Py_DECREF(PyObject *o)
    PyObject *PyTuple_GET_ITEM(PyObject *t, Py_ssize_t i)
    void PyTuple_SET_ITEM(PyObject *t, Py_ssize_t i, PyObject *o)
    Py_ssize_t PyTuple_GET_SIZE(PyObject *t)
    PyObject **tuple_items "&PyTuple_GET_ITEM"(PyObject *t, Py_ssize_t i)
    object PyTuple_New(Py_ssize_t n)
    bint PyUnicode_Check(PyObject *o)
    bint PyUnicode_CheckExact(PyObject *o)
    int PyObject_RichCompareBool(PyObject *a, PyObject *b, int op) except -1
    int PyDict_SetItem(PyObject *d, PyObject *key, PyObject *value) except -1
    bint PyDict_Next(PyObject *d, Py_ssize_t *pos, PyObject **key, PyObject **value)
    object PyDict_Copy(PyObject *d)
    int Py_EQ
    Py_ssize_t PY_SSIZE_T_MAX
    Py_ssize_t PyDict_GET_SIZE(PyObject *d)
    void PyObject_GC_Track(PyObject *o)
    void PyObject_GC_UnTrack(PyObject *o)
    int PyDict_DelItem(PyObject *d, PyObject *key) except -1
    PyObject *PyDict_GetItem(PyObject *d, PyObject *key)
    PyObject *PyErr_Occurred()
    void PyErr_Clear()
    PyObject *posonly_dict_lookup "PyDict_GetItemWithError"(PyObject *d, PyObject *key)
    int PyDict_Contains(PyObject *d, PyObject *key) except -1
    bint PyTuple_CheckExact(PyObject *o)
    bint PyDict_CheckExact(PyObject *o)
    ctypedef PyObject *(*allocfunc)(PyTypeObject *, Py_ssize_t)
    ctypedef struct PyTypeObject_alloc "PyTypeObject":
        allocfunc tp_alloc
    ctypedef struct PyTypeObject_version "PyTypeObject":
        unsigned int tp_version_tag
    PyTypeObject *Py_TYPE(object o)
    bint PyObject_TypeCheck(object o, PyTypeObject *tp)

__all__ = [
    "LAYOUT_METHODS", "Binder", "Wrapper", "apply_defaults", "bind_signature", "binder",
    "binder_of_function", "bound_args", "bound_kwargs", "cache_info", "clear_cache",
    "function_signature", "get_observer", "migrate", "set_maxsize", "set_observer", "wrap",
]

cdef object _FROM_FUNCTION = object()  # Binder's argument when _binder_of_function makes one
# inspect's code flags, as C ints for the parts that read a code object's
# co_flags in C (_create.pxi, _dropin.pxi): read from inspect, once.
cdef int _CO_VARARGS = _inspect_module.CO_VARARGS
cdef int _CO_VARKEYWORDS = _inspect_module.CO_VARKEYWORDS
cdef int _CO_COROUTINE = _inspect_module.CO_COROUTINE
cdef PyObject *_NO_DEFAULT = <PyObject *>NO_DEFAULT
cdef PyObject *_MISSING = <PyObject *>MISSING


cdef Py_ssize_t *_slot_array(slots) except NULL:
    """A C copy of a list of slot numbers (freed by the owner)."""
    cdef Py_ssize_t i, n = len(slots)
    cdef Py_ssize_t *array = <Py_ssize_t *>PyMem_Malloc((n or 1) * sizeof(Py_ssize_t))
    if array == NULL:
        raise MemoryError()
    for i in range(n):
        array[i] = slots[i]
    return array


cdef int _refuse_non_str_keys(PyObject *keywords) except -1:
    """Keywords given as a dict: the interpreter refuses a key that is not a
    str before it binds anything, so that error comes before any other."""
    cdef Py_ssize_t pos = 0
    cdef PyObject *key
    cdef PyObject *value
    if PyDict_CheckExact(keywords):
        while PyDict_Next(keywords, &pos, &key, &value):
            if not PyUnicode_Check(key):
                raise _errors.dict_keywords_must_be_strings()
    return 0


include "_binder.pxi"
include "_dropin.pxi"
include "_create.pxi"
include "_wrapper.pxi"
include "_values.pxi"
include "_migrate.pxi"
