/* The few reads of CPython objects the compiled drop-in makes directly
   (Cython cannot name these struct members): the mapping under a
   mappingproxy, a code object's argument names, a function's __dict__;
   and the TypeError of a refused bind, made in one call.
   Included by _bind.pyx through `cdef extern from "_dropin.h"` in
   _dropin.pxi; the declarations there must match. */

#ifndef POSONLY_DROPIN_H
#define POSONLY_DROPIN_H

#include <Python.h>

/* Object/descrobject.c's mappingproxyobject: one field after the header,
   the same on every supported version. */
typedef struct {
    PyObject_HEAD
    PyObject *mapping;
} posonly_mappingproxy;

/* The mapping a mappingproxy shows (borrowed), or NULL for anything else. */
static inline PyObject *posonly_proxy_mapping(PyObject *proxy) {
    if (Py_TYPE(proxy) != &PyDictProxy_Type) return NULL;
    return ((posonly_mappingproxy *)proxy)->mapping;
}

/* A tuple whose first entries are the code's argument names in co_varnames
   order (borrowed): arguments are always the first locals. */
static inline PyObject *posonly_code_names(PyObject *code) {
#if PY_VERSION_HEX >= 0x030B0000
    return ((PyCodeObject *)code)->co_localsplusnames;
#else
    return ((PyCodeObject *)code)->co_varnames;
#endif
}

static inline int posonly_code_argcount(PyObject *code) { return ((PyCodeObject *)code)->co_argcount; }
static inline int posonly_code_posonlyargcount(PyObject *code) { return ((PyCodeObject *)code)->co_posonlyargcount; }
static inline int posonly_code_kwonlyargcount(PyObject *code) { return ((PyCodeObject *)code)->co_kwonlyargcount; }
static inline int posonly_code_flags(PyObject *code) { return ((PyCodeObject *)code)->co_flags; }

/* A function's __dict__ (borrowed), NULL when it has none yet. */
static inline PyObject *posonly_function_dict(PyObject *func) {
    return ((PyFunctionObject *)func)->func_dict;
}

/* A new TypeError(message), as inspect raises it: with
   __suppress_context__ set where suppress_context (inspect's `from None`,
   whose __cause__ None is the default), else as made.  A new reference,
   or NULL with an error set.  Made by TypeError's tp_new alone: its
   tp_init (BaseException's) would only store the same args again. */
static inline PyObject *posonly_refusal(PyObject *message, int suppress_context) {
    PyTypeObject *type = (PyTypeObject *)PyExc_TypeError;
    PyObject *args = PyTuple_Pack(1, message);
    if (args == NULL) return NULL;
    PyObject *error = type->tp_new(type, args, NULL);
    Py_DECREF(args);
    if (error != NULL && suppress_context) {
        ((PyBaseExceptionObject *)error)->suppress_context = 1;
    }
    return error;
}

#endif
