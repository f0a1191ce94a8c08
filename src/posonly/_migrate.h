/* The call of a migrated function, in C: a call in the future form goes
   straight to the function with the caller's own argument array; any other
   goes to the legacy path (_migrated_legacy in _migrate.pxi, the pure
   twin's Migration.legacy_call compiled).  Included by _bind.pyx through
   `cdef extern from "_migrate.h"`; the declarations there must match. */

#ifndef POSONLY_MIGRATE_H
#define POSONLY_MIGRATE_H

#include <Python.h>

#include "_binder.h"
#include "_wrapper.h"

/* The legacy path: a call of the migrated function `self` that may use a
   legacy form, as the vectorcall came. */
typedef PyObject *(*posonly_migrated_legacy)(PyObject *self, PyObject *const *args,
                                             size_t nargsf, PyObject *kwnames);

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
   `func` as they came; anything else to `legacy`, whose failure leaves no
   traceback entry of posonly's compiled code (as the interpreter's own
   refusal of a call leaves none). */
static PyObject *posonly_migrated_call(PyObject *self, PyObject *func,
                                       posonly_migrated_legacy legacy,
                                       PyObject *legacy_names, Py_ssize_t max_nargs,
                                       PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames) {
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *result;
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
    result = legacy(self, args, nargsf, kwnames);
    if (result == NULL) posonly_drop_own_frames();
    return result;
}

/* Find `key` in the dict `d`: 1 and a borrowed `*found`, 0 where it is not
   there, -1 for an error (a str subclass's __eq__ may raise). */
static inline int posonly_migrated_lookup(PyObject *d, PyObject *key, PyObject **found) {
    *found = PyDict_GetItemWithError(d, key);
    if (*found != NULL) return 1;
    return PyErr_Occurred() ? -1 : 0;
}

#endif /* POSONLY_MIGRATE_H */
