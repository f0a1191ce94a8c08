/* The hot path of posonly.wrap, in C: a wrapper's call (bind, then the
   handler; with form=True, the call's CallForm made for it too) and proceed's call (a locals tuple back to a call of the
   function).  Included by _bind.pyx through `cdef extern from "_wrapper.h"`;
   the declarations there must match.  Every object is reached through
   PyObject_Vectorcall, which refuses what is not callable, so a wrapper whose
   fields the collector has cleared (to None) raises instead of crashing. */

#ifndef POSONLY_WRAPPER_H
#define POSONLY_WRAPPER_H

#include <Python.h>
#include <string.h>

#include "_binder.h"

#if !defined(Py_TPFLAGS_HAVE_VECTORCALL) && defined(_Py_TPFLAGS_HAVE_VECTORCALL)
#define Py_TPFLAGS_HAVE_VECTORCALL _Py_TPFLAGS_HAVE_VECTORCALL
#endif

/* PyObject_Vectorcall, with the callee's vectorcall slot read here: a
   wrapper's call makes three calls, and on 3.12+ PyObject_Vectorcall is a
   function of the interpreter's that also re-checks each result.  Objects
   without the slot (None, say, in a wrapper the collector has cleared) go
   the interpreter's way. */
static inline PyObject *posonly_vectorcall(PyObject *callable, PyObject *const *args,
                                           size_t nargsf, PyObject *kwnames) {
    PyTypeObject *tp = Py_TYPE(callable);
    if (PyType_HasFeature(tp, Py_TPFLAGS_HAVE_VECTORCALL) && tp->tp_vectorcall_offset > 0) {
        vectorcallfunc call = *(vectorcallfunc *)((char *)callable + tp->tp_vectorcall_offset);
        if (call != NULL) return call(callable, args, nargsf, kwnames);
    }
    return PyObject_Vectorcall(callable, args, nargsf, kwnames);
}

/* The binder's call, with posonly_binder_vectorcall called by name where it
   is the binder's slot (always, but for a cleared wrapper), so that the
   compiler can inline it; its snapshot of keyword-only defaults checked
   first (posonly_check_kwdefaults: a compare before 3.12, else nothing). */
static inline PyObject *posonly_wrapper_bind(PyObject *binder, PyObject *const *args,
                                             size_t nargsf, PyObject *kwnames) {
    PyTypeObject *tp = Py_TYPE(binder);
    if (PyType_HasFeature(tp, Py_TPFLAGS_HAVE_VECTORCALL) && tp->tp_vectorcall_offset > 0
            && *(vectorcallfunc *)((char *)binder + tp->tp_vectorcall_offset)
               == posonly_binder_vectorcall) {
        posonly_check_kwdefaults((posonly_plan *)((char *)binder + tp->tp_vectorcall_offset));
        return posonly_binder_vectorcall(binder, args, nargsf, kwnames);
    }
    return PyObject_Vectorcall(binder, args, nargsf, kwnames);
}

/* Whether the function `source` (or Py_None: no function) holds other
   __defaults__ or __kwdefaults__ objects than `seen_defaults` and
   `seen_kwdefaults` (Py_None for none), those the wrapper's binder read: a
   function's defaults are replaced, never changed in place (a tuple); its
   keyword-only defaults dict may be replaced, or changed in place, which
   the binder sees anyway (posonly_wrapper_bind).  Two pointer compares on
   every call. */
static inline int posonly_defaults_changed(PyObject *source, PyObject *seen_defaults,
                                           PyObject *seen_kwdefaults) {
    PyFunctionObject *f;
    if (source == Py_None) return 0;
    f = (PyFunctionObject *)source;
    return (f->func_defaults != NULL ? f->func_defaults : Py_None) != seen_defaults
        || (f->func_kwdefaults != NULL ? f->func_kwdefaults : Py_None) != seen_kwdefaults;
}

/* Raise `error`, an exception instance caught in a function that returns
   NULL for an error rather than propagating it itself. */
static inline void posonly_set_error(PyObject *error) {
    PyErr_SetObject((PyObject *)Py_TYPE(error), error);
}

/* A call of wrap(func, before=handler): bind the caller's arguments into the
   locals tuple (the binder raises the interpreter's error for a call that
   does not bind), hand it to the handler, drop what that returns, then call
   func with the caller's own arguments, untouched. */
static PyObject *posonly_wrapper_before(PyObject *binder, PyObject *func, PyObject *handler,
                                        PyObject *const *args, size_t nargsf,
                                        PyObject *kwnames) {
    PyObject *stack[2], *ignored, *values;
    Py_INCREF(binder);  /* another call may replace the wrapper's binder meanwhile */
    values = posonly_wrapper_bind(binder, args, nargsf, kwnames);
    Py_DECREF(binder);
    if (values == NULL) return NULL;
    stack[0] = NULL;  /* scratch for the callee (PY_VECTORCALL_ARGUMENTS_OFFSET) */
    stack[1] = values;
    ignored = posonly_vectorcall(handler, stack + 1, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(values);
    if (ignored == NULL) return NULL;
    Py_DECREF(ignored);
    return posonly_vectorcall(func, args, nargsf, kwnames);
}

/* A call of wrap(func, around=handler): bind, then return
   handler(proceed, values). */
static PyObject *posonly_wrapper_around(PyObject *binder, PyObject *proceed, PyObject *handler,
                                        PyObject *const *args, size_t nargsf,
                                        PyObject *kwnames) {
    PyObject *stack[3], *result, *values;
    Py_INCREF(binder);  /* another call may replace the wrapper's binder meanwhile */
    values = posonly_wrapper_bind(binder, args, nargsf, kwnames);
    Py_DECREF(binder);
    if (values == NULL) return NULL;
    Py_INCREF(proceed);
    stack[0] = NULL;  /* scratch for the callee (PY_VECTORCALL_ARGUMENTS_OFFSET) */
    stack[1] = proceed;
    stack[2] = values;
    result = posonly_vectorcall(handler, stack + 1, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(values);
    Py_DECREF(proceed);
    return result;
}

/* The names of a CallForm's slots this file sets, interned once
   (posonly_callform_names, called when the module is initialised). */
static PyObject *posonly_form_slots[5];

static int posonly_callform_names(void) {
    static const char *names[5] = {"layout", "_nargs", "_kwnames", "_renamed", "_fields"};
    for (int i = 0; i < 5; i++) {
        if (posonly_form_slots[i] == NULL) {
            posonly_form_slots[i] = PyUnicode_InternFromString(names[i]);
            if (posonly_form_slots[i] == NULL) return -1;
        }
    }
    return 0;
}

/* The call's CallForm over `layout`, from the number of positional arguments
   and the keyword names the vectorcall was given: made as CallForm(layout,
   nargs, kwnames) makes it, with its slots set here rather than by its
   __init__ (a Python frame, and checks a vectorcall's names need not). */
static PyObject *posonly_call_form(PyObject *callform, PyObject *layout, size_t nargsf,
                                   PyObject *kwnames) {
    PyObject *values[5], *form, *empty = PyTuple_New(0);
    if (empty == NULL) return NULL;
    form = PyBaseObject_Type.tp_new((PyTypeObject *)callform, empty, NULL);
    if (form == NULL) { Py_DECREF(empty); return NULL; }
    values[0] = layout;
    values[1] = PyLong_FromSsize_t(PyVectorcall_NARGS(nargsf));
    values[2] = kwnames != NULL ? kwnames : empty;
    values[3] = Py_None;
    values[4] = Py_None;
    if (values[1] == NULL) { Py_DECREF(empty); Py_DECREF(form); return NULL; }
    for (int i = 0; i < 5; i++) {
        if (PyObject_SetAttr(form, posonly_form_slots[i], values[i]) < 0) {
            Py_CLEAR(form);
            break;
        }
    }
    Py_DECREF(values[1]);
    Py_DECREF(empty);
    return form;
}

/* A call's values and its CallForm over `layout`, both new references, or -1
   with an error set (and neither). */
static int posonly_bind_with_form(PyObject *binder, PyObject *callform, PyObject *layout,
                                  PyObject *const *args, size_t nargsf, PyObject *kwnames,
                                  PyObject **values, PyObject **form) {
    Py_INCREF(binder);  /* another call may replace the wrapper's binder meanwhile */
    Py_INCREF(layout);
    *values = posonly_wrapper_bind(binder, args, nargsf, kwnames);
    Py_DECREF(binder);
    if (*values == NULL) { Py_DECREF(layout); return -1; }
    *form = posonly_call_form(callform, layout, nargsf, kwnames);
    Py_DECREF(layout);
    if (*form == NULL) { Py_CLEAR(*values); return -1; }
    return 0;
}

/* A call of wrap(func, before=handler, form=True): as posonly_wrapper_before,
   with handler(values, form). */
static PyObject *posonly_wrapper_before_form(PyObject *binder, PyObject *func,
                                             PyObject *handler, PyObject *callform,
                                             PyObject *layout, PyObject *const *args,
                                             size_t nargsf, PyObject *kwnames) {
    PyObject *stack[3], *ignored, *values, *form;
    if (posonly_bind_with_form(binder, callform, layout, args, nargsf, kwnames,
                               &values, &form) < 0)
        return NULL;
    stack[0] = NULL;
    stack[1] = values;
    stack[2] = form;
    ignored = posonly_vectorcall(handler, stack + 1, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(values);
    Py_DECREF(form);
    if (ignored == NULL) return NULL;
    Py_DECREF(ignored);
    return posonly_vectorcall(func, args, nargsf, kwnames);
}

/* A call of wrap(func, around=handler, form=True): bind, then return
   handler(proceed, values, form). */
static PyObject *posonly_wrapper_around_form(PyObject *binder, PyObject *proceed,
                                             PyObject *handler, PyObject *callform,
                                             PyObject *layout, PyObject *const *args,
                                             size_t nargsf, PyObject *kwnames) {
    PyObject *stack[4], *result, *values, *form;
    if (posonly_bind_with_form(binder, callform, layout, args, nargsf, kwnames,
                               &values, &form) < 0)
        return NULL;
    Py_INCREF(proceed);
    stack[0] = NULL;
    stack[1] = proceed;
    stack[2] = values;
    stack[3] = form;
    result = posonly_vectorcall(handler, stack + 1, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(values);
    Py_DECREF(form);
    Py_DECREF(proceed);
    return result;
}

/* What proceed needs to know of a binder's output: `size` values; the first
   `n_positional` go by position, then the items of the *args tuple at
   `varargs_slot`; the `n_kwonly` keyword-only values follow the positional
   ones in the tuple and go by keyword; the items of the **kwargs dict at
   `varkw_slot` go by keyword after them.  Slots are -1 where there is none. */
typedef struct {
    vectorcallfunc vectorcall;
    Py_ssize_t size, n_positional, varargs_slot, n_kwonly, varkw_slot;
} posonly_proceed_plan;

/* Arguments up to this many go on the C stack. */
#define POSONLY_PROCEED_STACK 16

/* Is `key` (an exact str) one of the keyword-only names (exact str)? */
static int posonly_is_kwonly_name(PyObject *key, PyObject *kwonly_names, Py_ssize_t n_kwonly) {
    Py_ssize_t j;
    for (j = 0; j < n_kwonly; j++) {
        PyObject *name = PyTuple_GET_ITEM(kwonly_names, j);
        int equal = name == key ? 1 : posonly_str_eq(key, name);
        if (equal != 0) return equal;
    }
    return 0;
}

/* proceed(values): call func with the locals tuple, positionals by position,
   *args spread, keyword-only by keyword, **kwargs merged, through one
   vectorcall whose keyword names are `kwonly_names` (made once) unless
   **kwargs has items.  A tuple of the wrong type or size is refused here;
   what Plan.apply answers differently from a plain call (MISSING among the
   values, an *args that is not a tuple, a **kwargs that is not a dict or
   whose keys are not all exact str or repeat a keyword-only name) goes to
   `apply(func, values)`, Plan.apply itself. */
static PyObject *posonly_proceed(const posonly_proceed_plan *plan, PyObject *func,
                                 PyObject *kwonly_names, PyObject *missing, PyObject *apply,
                                 PyObject *name, PyObject *const *args, size_t nargsf,
                                 PyObject *kwnames) {
    PyObject *small[POSONLY_PROCEED_STACK + 1];
    PyObject **stack = small, **out, *values, *varargs = NULL, *varkw = NULL;
    PyObject *names = NULL, *result = NULL, *key, *value;
    Py_ssize_t i, n_extra = 0, n_dict = 0, npos, total, pos = 0, k;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);

    if (nargs != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_Format(PyExc_TypeError,
                     "proceed() takes exactly one argument, the values tuple (%zd given)",
                     nargs + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0));
        return NULL;
    }
    values = args[0];
    if (!PyTuple_CheckExact(values)) {
        PyErr_Format(PyExc_TypeError, "proceed() needs a tuple of values, not %.200s",
                     Py_TYPE(values)->tp_name);
        return NULL;
    }
    if (PyTuple_GET_SIZE(values) != plan->size) {
        PyErr_Format(PyExc_TypeError, "proceed() needs %zd values for %S(), got %zd",
                     plan->size, name, PyTuple_GET_SIZE(values));
        return NULL;
    }
    if (plan->n_kwonly && !PyTuple_CheckExact(kwonly_names)) {
        PyErr_SetString(PyExc_TypeError, "proceed() of a cleared wrapper");
        return NULL;
    }
    if (plan->varargs_slot >= 0) {
        varargs = PyTuple_GET_ITEM(values, plan->varargs_slot);
        if (!PyTuple_CheckExact(varargs)) goto apply;
        n_extra = PyTuple_GET_SIZE(varargs);
    }
    if (plan->varkw_slot >= 0) {
        varkw = PyTuple_GET_ITEM(values, plan->varkw_slot);
        if (!PyDict_CheckExact(varkw)) goto apply;
        n_dict = PyDict_GET_SIZE(varkw);
    }
    for (i = 0; i < plan->n_positional + plan->n_kwonly; i++) {
        if (PyTuple_GET_ITEM(values, i) == missing) goto apply;
    }

    npos = plan->n_positional + n_extra;
    total = npos + plan->n_kwonly + n_dict;
    if (total > POSONLY_PROCEED_STACK) {
        stack = (PyObject **)PyMem_Malloc((size_t)(total + 1) * sizeof(PyObject *));
        if (stack == NULL) return PyErr_NoMemory();
    }
    out = stack + 1;  /* out[-1] is scratch for the callee */
    for (i = 0; i < plan->n_positional; i++) out[i] = PyTuple_GET_ITEM(values, i);
    for (i = 0; i < n_extra; i++) out[plan->n_positional + i] = PyTuple_GET_ITEM(varargs, i);
    for (i = 0; i < plan->n_kwonly; i++)
        out[npos + i] = PyTuple_GET_ITEM(values, plan->n_positional + i);

    if (n_dict == 0) {
        names = plan->n_kwonly ? kwonly_names : NULL;
        result = posonly_vectorcall(func, out, (size_t)npos | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                     names);
        goto done;
    }
    /* **kwargs has items: the names are the keyword-only ones, then its
       keys; its values are held while the call runs (the dict may change). */
    names = PyTuple_New(plan->n_kwonly + n_dict);
    if (names == NULL) goto done;
    for (i = 0; i < plan->n_kwonly; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwonly_names, i);
        Py_INCREF(name);
        PyTuple_SET_ITEM(names, i, name);
    }
    /* PyTuple_New may collect garbage, whose finalizers may change the
       dict: the walk stays within the room made for n_dict items, and a
       dict of another size now goes to apply() below. */
    k = plan->n_kwonly;
    while (k < plan->n_kwonly + n_dict && PyDict_Next(varkw, &pos, &key, &value)) {
        int repeated;
        if (!PyUnicode_CheckExact(key)) break;
        repeated = posonly_is_kwonly_name(key, kwonly_names, plan->n_kwonly);
        if (repeated != 0) {
            if (repeated < 0) goto drop;
            break;
        }
        Py_INCREF(key);
        PyTuple_SET_ITEM(names, k, key);
        Py_INCREF(value);
        out[npos + k] = value;
        k++;
    }
    if (k == plan->n_kwonly + n_dict && PyDict_GET_SIZE(varkw) == n_dict) {
        result = posonly_vectorcall(func, out, (size_t)npos | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                     names);
    }
  drop:
    for (i = plan->n_kwonly; i < k; i++) Py_DECREF(out[npos + i]);
    Py_DECREF(names);
    if (result == NULL && !PyErr_Occurred()) {
        if (stack != small) PyMem_Free(stack);
        goto apply;
    }
  done:
    if (stack != small) PyMem_Free(stack);
    return result;
  apply:
    return PyObject_CallFunctionObjArgs(apply, func, values, NULL);
}

#endif /* POSONLY_WRAPPER_H */
