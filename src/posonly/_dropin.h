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

/* The plan kept for a parameters mapping (borrowed), or NULL: the callback
   of a weak reference to the mapping, found on the mapping's own list of
   weak references by its type (plan_type), with no lookup.  None where
   the type keeps its weak references elsewhere (or the build has no GIL
   to keep the list still while it is walked). */
static inline PyObject *posonly_find_plan(PyObject *mapping, PyTypeObject *plan_type) {
#ifdef Py_GIL_DISABLED
    (void)mapping; (void)plan_type;
    return NULL;
#else
    Py_ssize_t offset = Py_TYPE(mapping)->tp_weaklistoffset;
    if (offset <= 0) return NULL;
    PyWeakReference *ref = *(PyWeakReference **)((char *)mapping + offset);
    for (; ref != NULL; ref = ref->wr_next) {
        PyObject *callback = ref->wr_callback;
        if (callback != NULL && Py_TYPE(callback) == plan_type) return callback;
    }
    return NULL;
#endif
}

/* Whether plans can be found on a mapping of this type. */
static inline int posonly_plans_findable(PyTypeObject *mapping_type) {
#ifdef Py_GIL_DISABLED
    (void)mapping_type;
    return 0;
#else
    return mapping_type->tp_weaklistoffset > 0;
#endif
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

/* -- the patched entry points ------------------------------------------------

   Each patched entry point (Signature.bind, inspect.signature, ...) is an
   InspectMethod: a callable whose vectorcall slot is
   posonly_method_vectorcall, so that the interpreter hands it the caller's
   argument array with no Python frame between.  Its `answer` (a Cython
   function of _dropin.pxi) answers with one of:

   - the result;
   - inspect's TypeError, raised here as inspect raises it;
   - an exact str, the key of FALLBACK_REASONS for why the core did not
     serve the call: inspect's `original` is then called with the very same
     arguments;
   - an exact list [callable, args]: call that instead (the Python-level
     fallback of the signature entry points, which reports for itself);
   - NULL with an error set (only an unexpected one: MemoryError, an error
     of the user's code).

   None of these is a result any entry point returns (BoundArguments, None,
   a tuple, a dict, a Signature), so the answers cannot be confused. */

typedef PyObject *(*posonly_method_answer)(PyObject *self, PyObject **args, size_t nargsf,
                                         PyObject *kwnames);

typedef struct {
    vectorcallfunc vectorcall;  /* read by the interpreter: must come first */
    posonly_method_answer answer;
    PyObject *original;  /* borrowed: the InspectMethod holds it */
    PyObject *entry;     /* borrowed: the name reported to the observer, or NULL */
} posonly_method;

/* The observer set by set_observer (a strong reference), or NULL. */
static PyObject *posonly_observer = NULL;

static int posonly_report(PyObject *entry, PyObject *reason) {
    PyObject *observer = posonly_observer;
    if (observer == NULL || entry == NULL) return 0;
    Py_INCREF(observer);
    PyObject *report[2] = {entry, reason};
    PyObject *r = PyObject_Vectorcall(observer, report, 2, NULL);
    Py_DECREF(observer);
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

/* Raise inspect's TypeError `error` (stolen) where the caller called the
   entry point.  An error inspect raises while handling a StopIteration of
   its own (the core made that its context) gets the context it has there:
   that StopIteration, whose own context is what the caller was handling. */
static PyObject *posonly_raise_refusal(PyObject *error) {
    PyObject *context = PyException_GetContext(error);
    if (context != NULL && Py_IS_TYPE(context, (PyTypeObject *)PyExc_StopIteration)) {
#if PY_VERSION_HEX >= 0x030B0000
        PyObject *handled = PyErr_GetHandledException();
#else
        PyObject *type, *handled, *tb;
        PyErr_GetExcInfo(&type, &handled, &tb);
        Py_XDECREF(type);
        Py_XDECREF(tb);
#endif
        if (handled != NULL && handled != Py_None) {
            PyException_SetContext(context, handled);  /* steals */
        } else {
            Py_XDECREF(handled);
        }
        Py_DECREF(context);
        PyObject *type_ = (PyObject *)Py_TYPE(error);
        Py_INCREF(type_);
        PyErr_Restore(type_, error, NULL);
        return NULL;
    }
    Py_XDECREF(context);
    PyErr_SetObject((PyObject *)Py_TYPE(error), error);
    Py_DECREF(error);
    return NULL;
}

static PyObject *posonly_method_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                           PyObject *kwnames) {
    posonly_method *m = (posonly_method *)((char *)self + Py_TYPE(self)->tp_vectorcall_offset);
    PyObject *r = m->answer(self, (PyObject **)args, nargsf, kwnames);
    if (r == NULL) return NULL;
    if (PyUnicode_CheckExact(r)) {
        /* Not served: inspect's own, with the very same arguments. */
        int failed = posonly_report(m->entry, r);
        Py_DECREF(r);
        if (failed) return NULL;
        return PyObject_Vectorcall(m->original, args, nargsf, kwnames);
    }
    if (PyList_CheckExact(r)) {
        PyObject *call = PyObject_Call(PyList_GET_ITEM(r, 0), PyList_GET_ITEM(r, 1), NULL);
        Py_DECREF(r);
        return call;
    }
    if (Py_IS_TYPE(r, (PyTypeObject *)PyExc_TypeError)) {
        if (posonly_observer != NULL && posonly_report(m->entry, Py_None) < 0) {
            Py_DECREF(r);
            return NULL;
        }
        return posonly_raise_refusal(r);
    }
    if (posonly_observer != NULL && posonly_report(m->entry, Py_None) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    return r;
}

static int posonly_set_observer(PyObject *observer) {
    PyObject *old = posonly_observer;
    if (observer == Py_None) observer = NULL;
    Py_XINCREF(observer);
    posonly_observer = observer;
    Py_XDECREF(old);
    return 0;
}

static PyObject *posonly_get_observer(void) {
    PyObject *observer = posonly_observer ? posonly_observer : Py_None;
    Py_INCREF(observer);
    return observer;
}

#endif
