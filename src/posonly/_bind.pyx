# cython: language_level=3, freethreading_compatible=True, embedsignature=True
"""The compiled binder: the twin of ``_bind_py``, bound in C.

Calling a ``Binder`` is a real vectorcall: the interpreter hands the argument
array and the keyword names straight to ``posonly_binder_vectorcall`` (C, in
the block below).  Its fast path, ``posonly_fast_bind``, answers every call
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

import inspect as _inspect_module
from types import MethodType

from posonly import _errors
from posonly._common import NO_DEFAULT, Plan
from posonly._layout import MISSING, Layout

cdef extern from *:
    """
    #if !defined(Py_TPFLAGS_HAVE_VECTORCALL) && defined(_Py_TPFLAGS_HAVE_VECTORCALL)
    #define Py_TPFLAGS_HAVE_VECTORCALL _Py_TPFLAGS_HAVE_VECTORCALL
    #endif

    /* Make instances of `tp` callable through vectorcall: the function
       pointer lives in each instance at `offset`.  tp_call must agree with it
       (PyVectorcall_Call forwards to it), and callable() checks tp_call. */
    static int posonly_install_vectorcall(PyTypeObject *tp, Py_ssize_t offset) {
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

    /* Instances behave as functions when looked up on a class: the
       interpreter calls them with the instance first, binding no method. */
    static void posonly_declare_method_descriptor(PyTypeObject *tp) {
        tp->tp_flags |= Py_TPFLAGS_METHOD_DESCRIPTOR;
        PyType_Modified(tp);
    }

    /* A new tuple holding new references to items[0:n]. */
    static PyObject *posonly_tuple_from_array(PyObject *const *items, Py_ssize_t n) {
        PyObject *result = PyTuple_New(n);
        if (result == NULL) return NULL;
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_INCREF(items[i]);
            PyTuple_SET_ITEM(result, i, items[i]);
        }
        return result;
    }

    /* A binder's result before keywords and defaults fill it: `size` slots,
       the first positionals of `args` (up to `argcount`) copied in, the
       *args tuple and a new **kwargs dict in their slots where those are >= 0,
       every other slot NULL.  The containers are made first: once the result
       exists nothing allocates an object the collector tracks.  Written in C
       because it runs on every call and must inline without reference-count
       traffic. */
    static inline PyObject *posonly_new_locals(
            Py_ssize_t size, PyObject *const *args, Py_ssize_t nargs,
            Py_ssize_t argcount, Py_ssize_t varargs_slot, Py_ssize_t varkw_slot) {
        PyObject *extra = NULL, *kwargs = NULL, *out;
        Py_ssize_t n = nargs < argcount ? nargs : argcount;
        if (varargs_slot >= 0) {
            extra = posonly_tuple_from_array(args + n, nargs - n);
            if (extra == NULL) return NULL;
        }
        if (varkw_slot >= 0) {
            kwargs = PyDict_New();
            if (kwargs == NULL) goto error;
        }
        out = PyTuple_New(size);
        if (out == NULL) goto error;
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_INCREF(args[i]);
            PyTuple_SET_ITEM(out, i, args[i]);
        }
        if (extra != NULL) PyTuple_SET_ITEM(out, varargs_slot, extra);
        if (kwargs != NULL) PyTuple_SET_ITEM(out, varkw_slot, kwargs);
        return out;
      error:
        Py_XDECREF(extra);
        Py_XDECREF(kwargs);
        return NULL;
    }

    static int posonly_str_eq(PyObject *a, PyObject *b);

    /* What the fast path reads of a binder: one C struct inside it, whose
       first member is the vectorcall pointer the interpreter reads, so the
       vectorcall function finds the rest beside it. */
    typedef PyObject *(*posonly_general_fn)(PyObject *self, PyObject *const *args,
                                             Py_ssize_t nargs, PyObject *kwnames);
    typedef struct {
        vectorcallfunc vectorcall;
        posonly_general_fn general;  /* the general path, for every other call */
        int bound;  /* a bound method's binder: always the general path */
        /* A call with plain_min <= nargs <= plain_max positionals and no
           keywords binds by copying them and filling the rest from `fill`;
           plain_max is -1 where no call does (*args, **kwargs, self, or a
           keyword-only parameter without a default). */
        Py_ssize_t plain_min, plain_max;
        Py_ssize_t n_posonly, argcount, total_args, n_locals;
        Py_ssize_t varargs_slot, varkw_slot;  /* -1 where the layout has none */
        PyObject **names;  /* the parameter names, frame order (interned) */
        PyObject **fill;   /* per parameter slot: its default, or no_default */
        PyObject *no_default;
    } posonly_plan;

    /* Not an object: posonly_fast_bind's answer for "take the general path". */
    static char posonly_slow_token;
    #define POSONLY_SLOW ((PyObject *)&posonly_slow_token)

    /* Store the keyword arguments into `out`: 0 when done, 1 for the general
       path (a keyword that is not an exact str, names no parameter and has no
       **kwargs to go to, or names one already given), -1 with an exception
       set.  Positional-only names are never matched by keyword (PEP 570);
       identity first, then equality, as the interpreter does.  Apart from
       posonly_fast_bind so that its positional calls stay small. */
    static int posonly_store_keywords(const posonly_plan *plan, PyObject *out,
                                      PyObject *const *values, PyObject *kwnames) {
        Py_ssize_t j, k, first = plan->n_posonly, total = plan->total_args;
        PyObject *const *names = plan->names;
        PyObject *varkw = plan->varkw_slot >= 0 ? PyTuple_GET_ITEM(out, plan->varkw_slot) : NULL;
        for (k = 0; k < PyTuple_GET_SIZE(kwnames); k++) {
            PyObject *keyword = PyTuple_GET_ITEM(kwnames, k);
            for (j = first; j < total && names[j] != keyword; j++) {}
            if (j == total) {
                if (!PyUnicode_CheckExact(keyword)) return 1;
                for (j = first; j < total; j++) {
                    int equal = posonly_str_eq(keyword, names[j]);
                    if (equal < 0) return -1;
                    if (equal) break;
                }
                if (j == total) {
                    if (varkw == NULL) return 1;
                    if (PyDict_SetItem(varkw, keyword, values[k]) < 0) return -1;
                    continue;
                }
            }
            if (PyTuple_GET_ITEM(out, j) != NULL) return 1;
            Py_INCREF(values[k]);
            PyTuple_SET_ITEM(out, j, values[k]);
        }
        return 0;
    }

    /* initialize_locals for the calls that bind without a problem: keywords
       that are exact str, each naming a parameter not yet given or going to
       **kwargs, and every parameter not given having a default.  Returns the
       locals tuple (a new reference), or NULL with an exception set (out of
       memory), or POSONLY_SLOW with nothing changed for every other call:
       the general path then binds it from scratch, with the interpreter's
       errors in the interpreter's order.  Written in C because it is the
       whole cost of a call: no reference-count traffic, few registers to
       save, every field read once.  Nothing here runs Python code: exact str
       compare and hash are C, and **kwargs holds only exact str keys. */
    static inline PyObject *posonly_fast_bind(const posonly_plan *plan, PyObject *const *args,
                                              Py_ssize_t nargs, PyObject *kwnames) {
        Py_ssize_t i, argcount = plan->argcount;
        PyObject *out;
        if (plan->bound || (nargs > argcount && plan->varargs_slot < 0)) return POSONLY_SLOW;
        out = posonly_new_locals(plan->n_locals, args, nargs, argcount,
                                 plan->varargs_slot, plan->varkw_slot);
        if (out == NULL) return NULL;
        if (kwnames != NULL) {
            int status = posonly_store_keywords(plan, out, args + nargs, kwnames);
            if (status != 0) {
                Py_DECREF(out);
                return status < 0 ? NULL : POSONLY_SLOW;
            }
        }
        for (i = nargs < argcount ? nargs : argcount; i < plan->total_args; i++) {
            if (PyTuple_GET_ITEM(out, i) == NULL) {
                PyObject *value = plan->fill[i];
                if (value == plan->no_default) {
                    Py_DECREF(out);
                    return POSONLY_SLOW;
                }
                Py_INCREF(value);
                PyTuple_SET_ITEM(out, i, value);
            }
        }
        return out;
    }

    /* Every call but the plain positional one: the fast path, else the
       general path (_binder_general, which raises the interpreter's errors). */
    static PyObject *posonly_binder_vectorcall_rest(PyObject *self, const posonly_plan *plan,
                                                    PyObject *const *args, Py_ssize_t nargs,
                                                    PyObject *kwnames) {
        PyObject *out;
        if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) == 0) kwnames = NULL;
        out = posonly_fast_bind(plan, args, nargs, kwnames);
        if (out != POSONLY_SLOW) return out;
        return plan->general(self, args, nargs, kwnames);
    }

    /* The interpreter's call of a Binder lands here: nargs positionals in
       args, then one value per name in kwnames (NULL when there are none).
       The commonest call, positionals only into a layout with no *args,
       **kwargs or self, where every parameter not given has a default
       (plain_min <= nargs <= plain_max), takes the shortest path there is:
       measured, each instruction saved here is a visible share of a call. */
    static PyObject *posonly_binder_vectorcall(PyObject *self, PyObject *const *args,
                                               size_t nargsf, PyObject *kwnames) {
        const posonly_plan *plan =
            (const posonly_plan *)((char *)self + Py_TYPE(self)->tp_vectorcall_offset);
        Py_ssize_t i, nargs = PyVectorcall_NARGS(nargsf);
        if (kwnames == NULL && plan->plain_min <= nargs && nargs <= plan->plain_max) {
            PyObject *out = PyTuple_New(plan->total_args);
            if (out == NULL) return NULL;
            for (i = 0; i < nargs; i++) {
                Py_INCREF(args[i]);
                PyTuple_SET_ITEM(out, i, args[i]);
            }
            for (; i < plan->total_args; i++) {
                Py_INCREF(plan->fill[i]);
                PyTuple_SET_ITEM(out, i, plan->fill[i]);
            }
            return out;
        }
        return posonly_binder_vectorcall_rest(self, plan, args, nargs, kwnames);
    }

    /* Hands a new reference (or NULL with an exception set) to Cython. */
    static inline PyObject *posonly_steal(PyObject *o) { return o; }

    /* The offset of a writable object slot (a __slots__ member), or -1. */
    #if PY_VERSION_HEX < 0x030C0000
    #include "structmember.h"
    #define Py_T_OBJECT_EX T_OBJECT_EX
    #define Py_READONLY READONLY
    #endif
    static Py_ssize_t posonly_slot_offset(PyObject *descriptor) {
        if (Py_TYPE(descriptor) != &PyMemberDescr_Type) return -1;
        PyMemberDef *member = ((PyMemberDescrObject *)descriptor)->d_member;
        if (member->type != Py_T_OBJECT_EX || (member->flags & Py_READONLY)) return -1;
        return member->offset;
    }

    /* Equality of two exact str objects, as str.__eq__ decides it, without a
       Python-level call: canonical strings are equal when their kind, length
       and bytes are. */
    static int posonly_str_eq(PyObject *a, PyObject *b) {
    #if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(a) < 0 || PyUnicode_READY(b) < 0) return -1;
    #endif
        Py_ssize_t length = PyUnicode_GET_LENGTH(a);
        if (length != PyUnicode_GET_LENGTH(b)) return 0;
        int kind = PyUnicode_KIND(a);
        if (kind != (int)PyUnicode_KIND(b)) return 0;
        return memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)length * kind) == 0;
    }
    """
    ctypedef void *vectorcallfunc
    Py_ssize_t posonly_slot_offset(object descriptor)
    void posonly_declare_method_descriptor(PyTypeObject *tp)
    Py_ssize_t PyVectorcall_NARGS(size_t nargsf)
    int posonly_install_vectorcall(PyTypeObject *tp, Py_ssize_t offset) except -1
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
    PyObject *POSONLY_SLOW
    PyObject *posonly_fast_bind(const posonly_plan *plan, PyObject **args, Py_ssize_t nargs,
                                PyObject *kwnames)
    object posonly_steal(PyObject *o)
    vectorcallfunc posonly_binder_vectorcall
    object posonly_new_locals(Py_ssize_t size, PyObject **args, Py_ssize_t nargs,
                              Py_ssize_t argcount, Py_ssize_t varargs_slot, Py_ssize_t varkw_slot)

# The C-API with PyObject* where this module manages reference counts itself:
# each store into a new tuple is "incref this pointer, store this pointer".
cdef extern from "Python.h":
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

__all__ = ["Binder", "InspectPlan", "SignatureMethod", "set_patch_cache", "set_signature_class"]

cdef object _UNBOUND = object()  # a binder of a function, not of a bound method
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


@cython.final
cdef class Binder:
    """Binds call arguments to a layout's parameters, as the interpreter does.

    Calling the binder binds its arguments and returns the locals tuple: the
    parameters' values in frame order (``Layout.names``), defaults filled in,
    ``*args`` a tuple and ``**kwargs`` a new dict.  Errors are the
    interpreter's ``TypeError`` s, word for word.  Build one with
    :func:`posonly.binder`.
    """

    cdef posonly_plan _c  # its vectorcall pointer is read by the interpreter on every call
    cdef readonly object layout
    cdef object _plan
    cdef object _name
    cdef object _bound_self
    cdef tuple _names  # frame order, interned: keywords match by identity first
    cdef tuple _defaults
    cdef tuple _kwdefaults  # per keyword-only slot, NO_DEFAULT where none
    cdef tuple _posonly
    cdef tuple _keyword_candidates
    cdef tuple _fill  # per parameter slot: its default, NO_DEFAULT where none
    # n_posonly, argcount, total_args, n_locals, varargs_slot, varkw_slot and
    # bound live in _c, where the C fast path reads them.
    cdef Py_ssize_t n_kwonly, ndefaults
    # The drop-in's calls with no keywords and _c.plain_min <= nargs <=
    # max_positional need no names; max_positional is -1 when none is (a
    # bound method, or a keyword-only parameter without a default).
    cdef Py_ssize_t max_positional
    # arguments(): the output's names in signature order and their slots
    cdef tuple _argument_names
    cdef Py_ssize_t *_argument_slots

    def __cinit__(self, layout, bound_self=_UNBOUND):
        self._c.vectorcall = posonly_binder_vectorcall
        self._c.general = <void *>_binder_general
        plan = Plan(layout, bound_self is not _UNBOUND)
        self.layout = layout
        self._plan = plan
        self._name = plan.name
        self._bound_self = bound_self
        self._names = layout.names
        self._defaults = layout.defaults
        self._kwdefaults = plan.kwdefault_by_slot
        self._posonly = layout.posonly
        self._keyword_candidates = plan.keyword_candidates
        self.n_kwonly = plan.n_kwonly
        self.ndefaults = plan.ndefaults
        first_default = plan.argcount - plan.ndefaults
        self._fill = ((NO_DEFAULT,) * first_default + tuple(layout.defaults)
                      + tuple(plan.kwdefault_by_slot))
        self._c.bound = plan.bound
        self._c.n_posonly = plan.n_posonly
        self._c.argcount = plan.argcount
        self._c.total_args = plan.total_args
        self._c.n_locals = plan.n_locals
        self._c.varargs_slot = plan.varargs_slot
        self._c.varkw_slot = plan.varkw_slot
        self._c.names = tuple_items(<PyObject *>self._names, 0)  # kept alive by self
        self._c.fill = tuple_items(<PyObject *>self._fill, 0)
        self._c.no_default = _NO_DEFAULT
        self._c.plain_min = first_default
        self._c.plain_max = (-1 if plan.bound or plan.varargs_slot >= 0 or plan.varkw_slot >= 0
                             or NO_DEFAULT in plan.kwdefault_by_slot else plan.argcount)
        if plan.bound or NO_DEFAULT in plan.kwdefault_by_slot:
            self.max_positional = -1
        elif plan.varargs_slot >= 0:
            self.max_positional = PY_SSIZE_T_MAX
        else:
            self.max_positional = plan.argcount
        self._argument_names = tuple(name for name, _ in plan.arguments_order)
        self._argument_slots = _slot_array([slot for _, slot in plan.arguments_order])

    def __dealloc__(self):
        PyMem_Free(self._argument_slots)

    # -- the core --------------------------------------------------------------

    cdef inline object _new_locals(self, PyObject **args, Py_ssize_t nargs):
        """The result tuple with the positionals copied in and the ``*args``
        and ``**kwargs`` containers in their slots; every other slot NULL.

        The result tuple doubles as the locals array: a NULL slot is a local not
        filled yet, and a tuple with NULL slots deallocates safely.  Before any
        Python code can run while it has holes (a str subclass's __eq__ or
        __hash__, the error messages), _hide takes it from the collector, where
        gc.get_objects() or gc.get_referrers() would hand it to Python code."""
        return posonly_new_locals(self._c.n_locals, args, nargs, self._c.argcount,
                                  self._c.varargs_slot, self._c.varkw_slot)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef object _bind(self, PyObject **args, Py_ssize_t nargs, PyObject *kwnames,
                      PyObject *kwdict, bint partial, bint exact_keys):
        """The locals for ``nargs`` positionals in ``args`` and keywords given
        either as ``kwnames`` (values follow the positionals in ``args``) or as
        ``kwdict``; NULL for none.  The steps are initialize_locals'.  With
        ``exact_keys``, a ``kwdict`` key that is not an exact str returns None
        (the caller must check the keys first)."""
        cdef Py_ssize_t argcount = self._c.argcount
        cdef Py_ssize_t i, k, first_default, missing
        cdef Py_ssize_t pos = 0
        cdef PyObject *key
        cdef PyObject *value
        cdef object out = self._new_locals(args, nargs)
        cdef PyObject *o = <PyObject *>out
        cdef PyObject *varkw = PyTuple_GET_ITEM(o, self._c.varkw_slot) if self._c.varkw_slot >= 0 else NULL
        cdef int hidden = 0  # _store_keyword took `out` from the collector

        if kwnames != NULL:
            for k in range(PyTuple_GET_SIZE(kwnames)):
                hidden |= self._store_keyword(o, varkw, PyTuple_GET_ITEM(kwnames, k), args[nargs + k], kwnames)
        elif kwdict != NULL:
            while PyDict_Next(kwdict, &pos, &key, &value):
                if exact_keys and not PyUnicode_CheckExact(key):
                    return None
                hidden |= self._store_keyword(o, varkw, key, value, kwdict)

        if nargs > argcount and self._c.varargs_slot < 0:
            self._hide(o)
            raise self._too_many_positional(o, nargs)

        if nargs < argcount:
            first_default = argcount - self.ndefaults
            missing = 0
            for i in range(nargs, first_default):
                if PyTuple_GET_ITEM(o, i) == NULL:
                    if partial:
                        Py_INCREF(_MISSING)
                        PyTuple_SET_ITEM(o, i, _MISSING)
                    else:
                        missing += 1
            if missing:
                self._hide(o)
                raise self._missing_arguments(o, "positional", 0, first_default)
            for i in range(nargs if nargs > first_default else first_default, argcount):
                if PyTuple_GET_ITEM(o, i) == NULL:
                    value = PyTuple_GET_ITEM(<PyObject *>self._defaults, i - first_default)
                    Py_INCREF(value)
                    PyTuple_SET_ITEM(o, i, value)

        if self.n_kwonly:
            missing = 0
            for i in range(argcount, self._c.total_args):
                if PyTuple_GET_ITEM(o, i) == NULL:
                    value = PyTuple_GET_ITEM(<PyObject *>self._kwdefaults, i - argcount)
                    if value == _NO_DEFAULT:
                        if not partial:
                            missing += 1
                            continue
                        value = _MISSING
                    Py_INCREF(value)
                    PyTuple_SET_ITEM(o, i, value)
            if missing:
                self._hide(o)
                raise self._missing_arguments(o, "keyword-only", argcount, self._c.total_args)
        if hidden:
            PyObject_GC_Track(o)
        return out

    cdef inline bint _hide(self, PyObject *out) noexcept:
        """Take a half-built result from the collector (the empty tuple is
        shared and never tracked); whether it was taken."""
        if self._c.n_locals:
            PyObject_GC_UnTrack(out)
        return self._c.n_locals != 0

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef inline int _store_keyword(self, PyObject *out, PyObject *varkw, PyObject *keyword,
                                   PyObject *value, PyObject *all_keywords) except -1:
        """Store one keyword argument; 1 if ``out`` was taken from the
        collector on the way, else 0.

        The hot case, a keyword identical to a parameter name, is here; every
        other case is _store_other_keyword's (an identical name is a str, so
        the interpreter's "keywords must be strings" check comes first there)."""
        cdef PyObject **names = tuple_items(<PyObject *>self._names, 0)
        cdef Py_ssize_t j
        # Positional-only names are never matched by keyword (PEP 570).
        for j in range(self._c.n_posonly, self._c.total_args):
            if names[j] == keyword:
                if PyTuple_GET_ITEM(out, j) != NULL:
                    self._multiple_values(out, keyword, all_keywords)
                Py_INCREF(value)
                PyTuple_SET_ITEM(out, j, value)
                return 0
        return self._store_other_keyword(out, varkw, keyword, value, all_keywords)

    cdef int _store_other_keyword(self, PyObject *out, PyObject *varkw, PyObject *keyword,
                                  PyObject *value, PyObject *all_keywords) except -1:
        # A keyword not identical to any name: the interpreter's slow pass,
        # keyword == name with the keyword on the left.
        cdef PyObject **names = tuple_items(<PyObject *>self._names, 0)
        cdef Py_ssize_t j
        cdef int hidden = 0
        if PyUnicode_CheckExact(keyword):
            # An exact str's __eq__ runs no Python code: compare in C.
            for j in range(self._c.n_posonly, self._c.total_args):
                if posonly_str_eq(keyword, names[j]):
                    break
            else:
                j = -1
        elif PyUnicode_Check(keyword):
            hidden = self._hide(out)  # its __eq__ and __hash__ are Python code
            j = self._match_str_subclass(keyword)
        else:
            self._hide(out)
            _refuse_non_str_keys(all_keywords)
            raise _errors.keywords_must_be_strings(self._name)
        if j < 0:
            if varkw == NULL:
                self._hide(out)
                _refuse_non_str_keys(all_keywords)
                raise _errors.unexpected_keyword(
                    self._name, self._posonly, <object>all_keywords,
                    self._keyword_candidates, <object>keyword)
            PyDict_SetItem(varkw, keyword, value)
            return hidden
        if PyTuple_GET_ITEM(out, j) != NULL:
            self._multiple_values(out, keyword, all_keywords)
        Py_INCREF(value)
        PyTuple_SET_ITEM(out, j, value)
        return hidden

    cdef int _multiple_values(self, PyObject *out, PyObject *keyword, PyObject *all_keywords) except -1:
        self._hide(out)
        _refuse_non_str_keys(all_keywords)
        raise _errors.multiple_values(self._name, <object>keyword)

    cdef Py_ssize_t _match_str_subclass(self, PyObject *keyword) except -2:
        # A str subclass's __eq__ may be Python code, so it is called.
        cdef PyObject **names = tuple_items(<PyObject *>self._names, 0)
        cdef Py_ssize_t j
        for j in range(self._c.n_posonly, self._c.total_args):
            if PyObject_RichCompareBool(keyword, names[j], Py_EQ):
                return j
        return -1

    # -- the cold paths: the interpreter's messages -----------------------------

    cdef object _too_many_positional(self, PyObject *out, Py_ssize_t given):
        cdef Py_ssize_t i, kwonly_given = 0
        for i in range(self._c.argcount, self._c.total_args):
            if PyTuple_GET_ITEM(out, i) != NULL:
                kwonly_given += 1
        return _errors.too_many_positional(
            self._name, self._c.argcount, self.ndefaults, given, kwonly_given)

    cdef object _missing_arguments(self, PyObject *out, str kind, Py_ssize_t start, Py_ssize_t end):
        cdef Py_ssize_t i
        names = [self._names[i] for i in range(start, end) if PyTuple_GET_ITEM(out, i) == NULL]
        return _errors.missing_arguments(self._name, kind, names)

    # -- the entry points ------------------------------------------------------

    cdef inline object _entry(self, PyObject **args, Py_ssize_t nargs, PyObject *kwnames,
                              PyObject *kwdict, bint partial, bint exact_keys):
        """Bind, putting a bound method's ``self`` first and leaving it out of
        the result, as calling the bound method does."""
        cdef PyObject *values
        if kwdict == NULL:
            # Most calls bind without a problem: posonly_fast_bind answers
            # them, and sends every other call down the general path.
            values = posonly_fast_bind(&self._c, args, nargs, kwnames)
            if values != POSONLY_SLOW:
                return posonly_steal(values)
        if not self._c.bound:
            return self._bind(args, nargs, kwnames, kwdict, partial, exact_keys)
        return self._entry_bound(args, nargs, kwnames, kwdict, partial)

    cdef object _entry_bound(self, PyObject **args, Py_ssize_t nargs, PyObject *kwnames,
                             PyObject *kwdict, bint partial):
        cdef Py_ssize_t total = nargs + (PyTuple_GET_SIZE(kwnames) if kwnames != NULL else 0)
        cdef PyObject **stack = <PyObject **>PyMem_Malloc((total + 1) * sizeof(PyObject *))
        if stack == NULL:
            raise MemoryError()
        stack[0] = <PyObject *>self._bound_self
        if total:
            memcpy(stack + 1, args, total * sizeof(PyObject *))
        try:
            values = self._bind(stack, nargs + 1, kwnames, kwdict, partial, False)
        finally:
            PyMem_Free(stack)
        return self._plan.drop_self(values)

    def bind(self, args=(), kwargs=None):
        """Bind ``f(*args, **kwargs)`` from a tuple and a dict (or ``None``)."""
        cdef PyObject *key
        cdef PyObject *value
        cdef Py_ssize_t pos = 0
        cdef bint exact_keys = True
        if type(args) is not tuple:
            args = self._plan.star_args(args)
        if kwargs is None or (type(kwargs) is dict and PyDict_GET_SIZE(<PyObject *>kwargs) == 0):
            return self._entry(tuple_items(<PyObject *>args, 0), PyTuple_GET_SIZE(<PyObject *>args),
                               NULL, NULL, False, False)
        if type(kwargs) is dict:
            # One walk over the dict when every key is an exact str, the usual
            # case; a key that is not (None on return) sends the call down the
            # checked path below.  A binding error met on the way first makes
            # sure no key is a non-str (_refuse_non_str_keys), which the
            # interpreter would have refused before binding anything.
            values = self._entry(tuple_items(<PyObject *>args, 0),
                                 PyTuple_GET_SIZE(<PyObject *>args),
                                 NULL, <PyObject *>kwargs, False, True)
            if values is not None:
                return values
        if kwargs is not None:
            if type(kwargs) is not dict:
                kwargs = self._plan.star_kwargs(kwargs)
            # The interpreter refuses non-str keys before binding anything.
            while PyDict_Next(<PyObject *>kwargs, &pos, &key, &value):
                if not PyUnicode_Check(key):
                    raise _errors.dict_keywords_must_be_strings()
                exact_keys = exact_keys and PyUnicode_CheckExact(key)
            if not exact_keys:
                # A str subclass's __eq__ runs Python code, which could change
                # the caller's dict under us: bind from a private copy.
                kwargs = PyDict_Copy(<PyObject *>kwargs)
        return self._entry(tuple_items(<PyObject *>args, 0), PyTuple_GET_SIZE(<PyObject *>args),
                           NULL, <PyObject *>kwargs if kwargs else NULL, False, False)

    def vectorcall(self, stack, kwnames=None):
        """Bind a vectorcall: ``stack`` holds the positional values, then one
        value per name in ``kwnames`` (a tuple, or ``None`` for no keywords)."""
        cdef Py_ssize_t nkw = 0
        if type(stack) is tuple and kwnames is None:
            pass
        elif (type(stack) is tuple and type(kwnames) is tuple
              and PyTuple_GET_SIZE(<PyObject *>kwnames) <= PyTuple_GET_SIZE(<PyObject *>stack)):
            nkw = PyTuple_GET_SIZE(<PyObject *>kwnames)
        else:
            stack, kwnames = self._plan.vectorcall_args(stack, kwnames)
            nkw = len(kwnames) if kwnames is not None else 0
        return self._entry(tuple_items(<PyObject *>stack, 0), PyTuple_GET_SIZE(<PyObject *>stack) - nkw,
                           <PyObject *>kwnames if nkw else NULL, NULL, False, False)

    def partial(self, *args, **kwargs):
        """Like a call, but required parameters not given are :data:`MISSING`."""
        return self._entry(tuple_items(<PyObject *>args, 0), len(args), NULL,
                           <PyObject *>kwargs if kwargs else NULL, True, False)

    def arguments(self, *args, **kwargs):
        """Bind the call; return a dict of name to value in signature order."""
        values = self._entry(tuple_items(<PyObject *>args, 0), len(args), NULL,
                             <PyObject *>kwargs if kwargs else NULL, False, False)
        cdef dict arguments = {}
        cdef Py_ssize_t i
        for i in range(PyTuple_GET_SIZE(<PyObject *>self._argument_names)):
            PyDict_SetItem(<PyObject *>arguments,
                           PyTuple_GET_ITEM(<PyObject *>self._argument_names, i),
                           PyTuple_GET_ITEM(<PyObject *>values, self._argument_slots[i]))
        return arguments

    def apply(self, func, values):
        """Call ``func`` with a locals tuple: positionals by position,
        ``*args`` spread, keyword-only by keyword, ``**kwargs`` merged."""
        return self._plan.apply(func, values)

    def __repr__(self):
        return f"<posonly.Binder {self._plan.describe()}>"

    def __reduce__(self):
        if self._c.bound:
            raise TypeError("a bound method's binder cannot be pickled")
        return (Binder, (self.layout,))


# -- the drop-in for inspect: Signature.bind in C ---------------------------------

cdef object _BoundArguments = _inspect_module.BoundArguments
# BoundArguments is built directly, its two slots written by offset: calling
# the class (a Python __init__) would cost more than the whole binding.
cdef Py_ssize_t _ARGUMENTS_OFFSET = posonly_slot_offset(_BoundArguments.__dict__["arguments"])
cdef Py_ssize_t _SIGNATURE_OFFSET = posonly_slot_offset(_BoundArguments.__dict__["_signature"])


# The last signature class seen to bind into plain BoundArguments, and its
# type version tag: any change to the class (or its bases) changes the tag.
cdef PyTypeObject *_plain_class = NULL
cdef unsigned int _plain_class_version = 0


cdef object _new_bound_arguments(object sig, object arguments):
    global _plain_class, _plain_class_version
    cdef PyObject *bound
    cdef PyTypeObject *tp = Py_TYPE(sig)
    if not (tp == _plain_class and (<PyTypeObject_version *>tp).tp_version_tag == _plain_class_version
            and _plain_class_version != 0):
        cls = sig._bound_arguments_cls
        if cls is not _BoundArguments or _ARGUMENTS_OFFSET <= 0 or _SIGNATURE_OFFSET <= 0:
            return cls(sig, arguments)
        # The lookup above gave the type a valid version tag.
        _plain_class = tp
        _plain_class_version = (<PyTypeObject_version *>tp).tp_version_tag
    cls = _BoundArguments
    bound = (<PyTypeObject_alloc *>cls).tp_alloc(<PyTypeObject *>cls, 0)
    if bound == NULL:
        raise MemoryError()
    result = <object>bound  # takes its own reference
    Py_DECREF(bound)
    Py_INCREF(<PyObject *>arguments)
    (<PyObject **>(<char *>bound + _ARGUMENTS_OFFSET))[0] = <PyObject *>arguments
    Py_INCREF(<PyObject *>sig)
    (<PyObject **>(<char *>bound + _SIGNATURE_OFFSET))[0] = <PyObject *>sig
    return result


@cython.final
cdef class InspectPlan:
    """How the calls of one shape of signature become inspect's BoundArguments.

    ``binder`` binds the shape with every default replaced by ``MISSING``, so
    that what was not given shows; ``names`` are the parameters in signature
    order, ``slots`` where each sits in the binder's result, ``variadic`` which
    of them are ``*args``/``**kwargs`` (kept only when not empty), and
    ``guarded`` the positional-only names a keyword may repeat when there is a
    ``**kwargs`` (PEP 570's corner, where inspect has answers of its own).
    ``bound_arguments`` returns ``None`` wherever inspect must answer.
    """

    cdef Binder binder
    cdef tuple names
    cdef tuple guarded
    cdef Py_ssize_t *slots
    cdef char *variadic

    def __cinit__(self, Binder binder, tuple names, slots, variadic, tuple guarded):
        cdef Py_ssize_t i, n = len(names)
        if len(slots) != n or len(variadic) != n:
            raise ValueError("names, slots and variadic must have the same length")
        for slot in slots:
            if not 0 <= slot < len(binder.layout.names):
                raise ValueError(f"slot {slot} is outside the binder's result")
        self.binder = binder
        self.names = names
        self.guarded = guarded
        self.slots = _slot_array(slots)
        self.variadic = <char *>PyMem_Malloc(n or 1)
        if self.variadic == NULL:
            raise MemoryError()
        for i in range(n):
            self.variadic[i] = bool(variadic[i])

    def __dealloc__(self):
        PyMem_Free(self.slots)
        PyMem_Free(self.variadic)

    def bind(self, sig, args, kwargs):
        """``sig.bind(*args, **kwargs)``: a BoundArguments, or inspect's error."""
        return _bind_with_plan(self, sig, args, kwargs, False)

    def bind_partial(self, sig, args, kwargs):
        """``sig.bind_partial(*args, **kwargs)``."""
        return _bind_with_plan(self, sig, args, kwargs, True)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef object bound_arguments(self, sig, PyObject **args, Py_ssize_t nargs,
                                PyObject *kwnames, PyObject *kwdict, bint partial):
        """The BoundArguments of a call given as ``bind()`` of the binder
        takes it (keywords as ``kwnames`` or as ``kwdict``, NULL for none),
        or None where inspect must answer."""
        cdef Py_ssize_t i, k
        cdef PyObject *value
        cdef PyObject *name
        cdef Binder binder = self.binder
        cdef dict arguments = {}
        if (kwnames == NULL and kwdict == NULL
                and binder._c.plain_min <= nargs <= binder.max_positional):
            # Positionals only, every parameter not given optional: inspect's
            # arguments are the positionals by name, and *args if it got any.
            # (Names are in signature order: the positional ones, then *args.)
            for i in range(nargs if nargs < binder._c.argcount else binder._c.argcount):
                PyDict_SetItem(<PyObject *>arguments, PyTuple_GET_ITEM(<PyObject *>self.names, i), args[i])
            if nargs > binder._c.argcount:
                extra = _tuple_from_array(args + binder._c.argcount, nargs - binder._c.argcount)
                PyDict_SetItem(<PyObject *>arguments,
                               PyTuple_GET_ITEM(<PyObject *>self.names, binder._c.argcount),
                               <PyObject *>extra)
            return _new_bound_arguments(sig, arguments)
        if kwnames != NULL or kwdict != NULL:
            for i in range(nargs, PyTuple_GET_SIZE(<PyObject *>self.guarded)):
                name = PyTuple_GET_ITEM(<PyObject *>self.guarded, i)
                if kwdict != NULL:
                    if PyDict_Contains(kwdict, name):
                        return None
                else:
                    for k in range(PyTuple_GET_SIZE(kwnames)):
                        if PyObject_RichCompareBool(PyTuple_GET_ITEM(kwnames, k), name, Py_EQ):
                            return None
        try:
            values = self.binder._entry(args, nargs, kwnames, kwdict, partial, False)
        except Exception:
            return None  # inspect's own _bind raises inspect's own error
        for i in range(PyTuple_GET_SIZE(<PyObject *>self.names)):
            value = PyTuple_GET_ITEM(<PyObject *>values, self.slots[i])
            if self.variadic[i]:
                if (PyTuple_GET_SIZE(value) if PyTuple_CheckExact(value)
                        else PyDict_GET_SIZE(value)) == 0:
                    continue
            elif value == _MISSING:
                continue
            PyDict_SetItem(<PyObject *>arguments, PyTuple_GET_ITEM(<PyObject *>self.names, i), value)
        return _new_bound_arguments(sig, arguments)


cdef object _bind_with_plan(plan, sig, args, kwargs, bint partial):
    """``sig.bind(*args, **kwargs)`` (or ``bind_partial``) through ``plan``:
    an InspectPlan, a plan of the pure binder's, or None for inspect's own."""
    if type(plan) is InspectPlan:
        if type(args) is tuple and type(kwargs) is dict:
            bound = (<InspectPlan>plan).bound_arguments(
                sig, tuple_items(<PyObject *>args, 0), PyTuple_GET_SIZE(<PyObject *>args),
                NULL, <PyObject *>kwargs if kwargs else NULL, partial)
            if bound is not None:
                return bound
    elif plan is not None:
        return (plan.bind_partial if partial else plan.bind)(sig, args, kwargs)
    if partial:
        return sig._bind(args, kwargs, partial=True)
    return sig._bind(args, kwargs)


# The patch's least-recently-used cache: id(signature) -> (signature, plan),
# most recently used last; misses go to a function of the drop-in's.
cdef dict _patch_cache = {}
cdef object _patch_miss = None
# The cache's most recent entry, (signature, plan), or None: a call on the
# same signature again needs no lookup and no reordering.
cdef object _patch_recent = None


def set_patch_cache(dict cache, miss):
    """Share the patch's cache with the drop-in, and its function for misses.
    Called again whenever the drop-in empties the cache."""
    global _patch_cache, _patch_miss, _patch_recent
    _patch_cache = cache
    _patch_miss = miss
    _patch_recent = None


cdef object _patched_plan(sig):
    global _patch_recent
    if _patch_recent is not None and PyTuple_GET_ITEM(<PyObject *>_patch_recent, 0) == <PyObject *>sig:
        return <object>PyTuple_GET_ITEM(<PyObject *>_patch_recent, 1)
    key = id(sig)
    cdef PyObject *entry = PyDict_GetItem(<PyObject *>_patch_cache, <PyObject *>key)
    if entry != NULL and PyTuple_GET_ITEM(entry, 0) == <PyObject *>sig:
        held = <object>entry
        PyDict_DelItem(<PyObject *>_patch_cache, <PyObject *>key)  # now the most recent
        PyDict_SetItem(<PyObject *>_patch_cache, <PyObject *>key, entry)
        _patch_recent = held
        return <object>PyTuple_GET_ITEM(entry, 1)
    plan = _patch_miss(sig)
    entry = PyDict_GetItem(<PyObject *>_patch_cache, <PyObject *>key)
    if entry != NULL and PyTuple_GET_ITEM(entry, 0) == <PyObject *>sig:
        _patch_recent = <object>entry
    else:  # not cached (maxsize 0)
        _patch_recent = None
    return plan


# posonly's Signature class and the offset of its _posonly_plan slot, read
# directly: the plan is the first thing every bind() needs.
cdef type _signature_class = None
cdef Py_ssize_t _PLAN_OFFSET = -1


def set_signature_class(type cls):
    """Tell the compiled methods which class keeps its plan in ``_posonly_plan``."""
    global _signature_class, _PLAN_OFFSET
    offset = posonly_slot_offset(cls.__dict__["_posonly_plan"])
    if offset > 0:
        _signature_class, _PLAN_OFFSET = cls, offset


@cython.final
cdef class SignatureMethod:
    """``bind`` or ``bind_partial`` for a Signature class, in C.

    A method descriptor called through vectorcall: ``sig.bind(1, b=2)`` hands
    the signature, the argument array and the keyword names straight to the
    compiled binder, with no tuple, dict or Python frame on the way.  With
    ``patched``, the plan comes from the patch's cache; otherwise from the
    signature's ``_posonly_plan`` (or its ``_plan()``).
    """

    cdef vectorcallfunc _vectorcall
    cdef bint partial
    cdef bint patched
    cdef str _name
    cdef object _doc

    def __cinit__(self, bint partial, bint patched, str name, doc=None):
        self._vectorcall = <vectorcallfunc>_signature_method_vectorcall
        self.partial = partial
        self.patched = patched
        self._name = name
        self._doc = doc

    @property
    def __name__(self):
        return self._name

    @property
    def __qualname__(self):
        return f"Signature.{self._name}"

    @property
    def __doc__(self):
        return self._doc

    @__doc__.setter
    def __doc__(self, doc):
        self._doc = doc

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return MethodType(self, instance)

    def __repr__(self):
        return f"<posonly method Signature.{self._name}>"


cdef object _signature_method_vectorcall(SignatureMethod self, PyObject **args, size_t nargsf,
                                         PyObject *kwnames):
    cdef Py_ssize_t k, nargs = PyVectorcall_NARGS(nargsf)
    if nargs < 1:
        raise TypeError(f"Signature.{self._name}() needs a signature to bind to")
    sig = <object>args[0]
    cdef PyObject *held_plan
    if self.patched:
        plan = _patched_plan(sig)
    elif _signature_class is not None and PyObject_TypeCheck(sig, <PyTypeObject *>_signature_class):
        held_plan = (<PyObject **>(<char *>(<PyObject *>sig) + _PLAN_OFFSET))[0]
        plan = <object>held_plan if held_plan != NULL else sig._plan()
    else:
        try:
            plan = sig._posonly_plan
        except AttributeError:
            plan = sig._plan()
    if kwnames != NULL and PyTuple_GET_SIZE(kwnames) == 0:
        kwnames = NULL
    if type(plan) is InspectPlan:
        bound = (<InspectPlan>plan).bound_arguments(sig, args + 1, nargs - 1, kwnames, NULL,
                                                    self.partial)
        if bound is not None:
            return bound
        plan = None  # inspect answers
    # Everything else takes the arguments as inspect has them.
    positional = _tuple_from_array(args + 1, nargs - 1)
    keywords = {}
    if kwnames != NULL:
        for k in range(PyTuple_GET_SIZE(kwnames)):
            PyDict_SetItem(<PyObject *>keywords, PyTuple_GET_ITEM(kwnames, k), args[nargs + k])
    return _bind_with_plan(plan, sig, positional, keywords, self.partial)


cdef object _binder_general(Binder self, PyObject **args, Py_ssize_t nargs, PyObject *kwnames):
    # A call posonly_fast_bind did not answer: bind it in full, errors and all.
    if not self._c.bound:
        return self._bind(args, nargs, kwnames, NULL, False, False)
    return self._entry_bound(args, nargs, kwnames, NULL, False)


cdef Binder _probe = Binder(Layout())
posonly_install_vectorcall(<PyTypeObject *>Binder,
                           <Py_ssize_t>(<char *>&_probe._c.vectorcall - <char *><PyObject *>_probe))
_probe = None
cdef SignatureMethod _method_probe = SignatureMethod(False, False, "bind")
posonly_install_vectorcall(
    <PyTypeObject *>SignatureMethod,
    <Py_ssize_t>(<char *>&_method_probe._vectorcall - <char *><PyObject *>_method_probe))
posonly_declare_method_descriptor(<PyTypeObject *>SignatureMethod)
_method_probe = None
