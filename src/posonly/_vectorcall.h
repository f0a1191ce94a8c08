/* What every vectorcall type of posonly's C needs, the compiled binder's
   (_binder.h) and the bench's floor (bench/_floor.h): a vectorcall slot on
   instances, and the tuple a plain positional call builds. */

#ifndef POSONLY_VECTORCALL_H
#define POSONLY_VECTORCALL_H

#include <Python.h>

#if !defined(Py_TPFLAGS_HAVE_VECTORCALL) && defined(_Py_TPFLAGS_HAVE_VECTORCALL)
#define Py_TPFLAGS_HAVE_VECTORCALL _Py_TPFLAGS_HAVE_VECTORCALL
#endif

/* Make instances of `tp` callable through vectorcall: the function
   pointer lives in each instance at `offset`.  tp_call must agree with it
   (PyVectorcall_Call forwards to it), and callable() checks tp_call. */
static inline int posonly_install_vectorcall(PyTypeObject *tp, Py_ssize_t offset) {
    if (offset <= 0 || offset >= tp->tp_basicsize) {
        PyErr_SetString(PyExc_SystemError, "posonly: bad vectorcall offset");
        return -1;
    }
    tp->tp_vectorcall_offset = offset;
    tp->tp_call = PyVectorcall_Call;
    tp->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    PyType_Modified(tp);
    return 0;
}

/* A new tuple of `size` items: args[0:n], then fill[n:size].  The plain
   positional call's whole work in a binder, and the bench's C floor's. */
static inline PyObject *posonly_copy_and_fill(PyObject *const *args, Py_ssize_t n,
                                              PyObject *const *fill, Py_ssize_t size) {
    Py_ssize_t i;
    PyObject *out = PyTuple_New(size);
    if (out == NULL) return NULL;
    for (i = 0; i < n; i++) {
        Py_INCREF(args[i]);
        PyTuple_SET_ITEM(out, i, args[i]);
    }
    for (; i < size; i++) {
        Py_INCREF(fill[i]);
        PyTuple_SET_ITEM(out, i, fill[i]);
    }
    return out;
}

#endif /* POSONLY_VECTORCALL_H */
