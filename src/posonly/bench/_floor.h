/* The bench's measuring stick, not part of posonly: the call of a
   TupleFloor builds a tuple of `size` items, the call's arguments
   (positionals, then keyword values, in the order given) followed by the
   tail of `fill`, with no matching, no checks and no containers: what a
   binder's call would cost if binding cost nothing.  It copies and fills
   with the binder's own code (_vectorcall.h), so that the two differ only
   by the binding. */

#ifndef POSONLY_FLOOR_H
#define POSONLY_FLOOR_H

#include "_vectorcall.h"

typedef struct {
    vectorcallfunc vectorcall;
    PyObject **fill;
    Py_ssize_t size;
} posonly_floor_plan;

static PyObject *posonly_floor_vectorcall(PyObject *self, PyObject *const *args,
                                          size_t nargsf, PyObject *kwnames) {
    const posonly_floor_plan *plan =
        (const posonly_floor_plan *)((char *)self + Py_TYPE(self)->tp_vectorcall_offset);
    Py_ssize_t n = PyVectorcall_NARGS(nargsf) + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0);
    return posonly_copy_and_fill(args, n < plan->size ? n : plan->size, plan->fill, plan->size);
}

#endif /* POSONLY_FLOOR_H */
