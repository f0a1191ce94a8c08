/* The call of a migrated function, in C: a call in the future form goes
   straight to the function with the caller's own argument array; any other
   goes to the legacy path (Migration.legacy_call, Python, shared with the
   pure twin).  Included by _bind.pyx through `cdef extern from
   "_migrate.h"`; the declarations there must match. */

#ifndef POSONLY_MIGRATE_H
#define POSONLY_MIGRATE_H

#include <Python.h>

#include "_binder.h"

/* Is one of the call's keyword names one of the legacy names (a tuple of
   exact str)?  By identity first (names the compiler interned), then by
   value.  -1 for an error. */
static inline int posonly_names_legacy(PyObject *kwnames, PyObject *legacy_names) {
    Py_ssize_t i, j, n = PyTuple_GET_SIZE(kwnames), m = PyTuple_GET_SIZE(legacy_names);
    if (m == 0) return 0;
    for (i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        for (j = 0; j < m; j++)
            if (name == PyTuple_GET_ITEM(legacy_names, j)) return 1;
    }
    for (i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        if (!PyUnicode_Check(name)) continue;
        for (j = 0; j < m; j++) {
            int equal = posonly_str_eq(name, PyTuple_GET_ITEM(legacy_names, j));
            if (equal != 0) return equal;
        }
    }
    return 0;
}

/* A migrated function's call: no more than `max_nargs` positional
   arguments (any number where it is -1) and no legacy keyword name go to
   `func` as they came; anything else to `legacy(args, kwnames)`, with the
   positional arguments and the keyword values in one tuple. */
static PyObject *posonly_migrated_call(PyObject *func, PyObject *legacy,
                                       PyObject *legacy_names, Py_ssize_t max_nargs,
                                       PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames) {
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), nkw;
    PyObject *all, *result;
    int legacy_name = 0;
    if (!PyTuple_CheckExact(legacy_names)) {
        PyErr_SetString(PyExc_TypeError, "call of a cleared migrated function");
        return NULL;
    }
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        legacy_name = posonly_names_legacy(kwnames, legacy_names);
        if (legacy_name < 0) return NULL;
    }
    if (!legacy_name && (max_nargs < 0 || nargs <= max_nargs))
        return PyObject_Vectorcall(func, args, nargsf, kwnames);
    nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    all = posonly_tuple_from_array(args, nargs + nkw);
    if (all == NULL) return NULL;
    if (kwnames == NULL) {
        kwnames = PyTuple_New(0);
        if (kwnames == NULL) { Py_DECREF(all); return NULL; }
    } else {
        Py_INCREF(kwnames);
    }
    result = PyObject_CallFunctionObjArgs(legacy, all, kwnames, NULL);
    Py_DECREF(all);
    Py_DECREF(kwnames);
    return result;
}

#endif /* POSONLY_MIGRATE_H */
