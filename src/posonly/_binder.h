/* The compiled binder's hot path, in C: what runs on every call of a
   Binder, and the few type patches Cython cannot express (a vectorcall slot
   on instances, method-descriptor behaviour).  Included by _bind.pyx through
   `cdef extern from "_binder.h"`; the declarations there must match. */

#ifndef POSONLY_BINDER_H
#define POSONLY_BINDER_H

#include <Python.h>
#include <string.h>

#include "_vectorcall.h"

/* Set an attribute of a type Cython made static (setattr refuses). */
static int posonly_set_type_attribute(PyTypeObject *tp, const char *name, PyObject *value) {
    if (PyDict_SetItemString(tp->tp_dict, name, value) < 0) return -1;
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

/* "posonly/", made once. */
static PyObject *posonly_own_directory_name;
static PyObject *posonly_own_directory(void) {
    if (posonly_own_directory_name == NULL) {
        posonly_own_directory_name = PyUnicode_InternFromString("posonly/");
        if (posonly_own_directory_name == NULL) PyErr_Clear();
    }
    return posonly_own_directory_name;
}

/* How a binder learns that a dict of keyword-only defaults it keeps a
   snapshot of has changed (posonly_watch_kwdefaults, below): a dict watcher
   where the interpreter has them (CPython 3.12+); before 3.12, the dict's
   version tag (PEP 509: `ma_version_tag`, taken from a counter of the
   interpreter's at the dict's making and at each of its changes, so a tag
   seen again is the same contents), compared by a wrapper before each call
   (posonly_check_kwdefaults).  3.12 deprecates the tag for the watchers and
   3.14 drops it; PyPy runs the pure twin. */
#if PY_VERSION_HEX < 0x030C0000 && !defined(PYPY_VERSION)
#define POSONLY_DICT_VERSIONS 1
#else
#define POSONLY_DICT_VERSIONS 0
#endif

/* What the fast path reads of a binder: one C struct inside it, whose
   first member is the vectorcall pointer the interpreter reads, so the
   vectorcall function finds the rest beside it. */
typedef PyObject *(*posonly_general_fn)(PyObject *self, PyObject *const *args,
                                         Py_ssize_t nargs, PyObject *kwnames);
typedef struct posonly_plan {
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
    /* A wrapper's binder: the function's own __kwdefaults__ dict (NULL for
       any other binder), where a keyword-only parameter not given finds
       its default at the call, as the interpreter looks it up (so a dict
       changed in place is seen); `fill` then serves the positionals only. */
    PyObject *kwdefaults;
    /* A wrapper's binder that binds with the keyword-only defaults it read
       from its function's __kwdefaults__ dict (`fill`), while a dict watcher
       or the dict's version tag says the dict has not changed: that dict
       (else NULL), and its place in the list of every such binder
       (posonly_watching; watchers only). */
    PyObject *watched;
    struct posonly_plan *watch_prev, *watch_next;
#if POSONLY_DICT_VERSIONS
    uint64_t watched_version;  /* the dict's version tag when the snapshot was read */
#endif
} posonly_plan;

/* Not an object: posonly_fast_bind's answer for "take the general path". */
static char posonly_slow_token;
#define POSONLY_SLOW ((PyObject *)&posonly_slow_token)

/* Store one keyword argument into `out`: 0 when done, 1 for the general
   path (a keyword that is not an exact str, names no parameter and has no
   **kwargs (`varkw`) to go to, or names one already given), -1 with an
   exception set.  Positional-only names are never matched by keyword
   (PEP 570); identity first, then equality, as the interpreter does. */
static inline int posonly_store_keyword(const posonly_plan *plan, PyObject *out,
                                        PyObject *varkw, PyObject *keyword, PyObject *value) {
    Py_ssize_t j, first = plan->n_posonly, total = plan->total_args;
    PyObject *const *names = plan->names;
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
            return PyDict_SetItem(varkw, keyword, value) < 0 ? -1 : 0;
        }
    }
    if (PyTuple_GET_ITEM(out, j) != NULL) return 1;
    Py_INCREF(value);
    PyTuple_SET_ITEM(out, j, value);
    return 0;
}

#define POSONLY_VARKW(plan, out) \
    ((plan)->varkw_slot >= 0 ? PyTuple_GET_ITEM((out), (plan)->varkw_slot) : NULL)

/* The keywords of a vectorcall, as posonly_store_keyword stores one.
   Apart from posonly_fast_bind so that its positional calls stay small. */
static int posonly_store_keywords(const posonly_plan *plan, PyObject *out,
                                  PyObject *const *values, PyObject *kwnames) {
    PyObject *varkw = POSONLY_VARKW(plan, out);
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); k++) {
        int status = posonly_store_keyword(plan, out, varkw, PyTuple_GET_ITEM(kwnames, k), values[k]);
        if (status != 0) return status;
    }
    return 0;
}

/* The keywords of an exact dict (Binder.bind's), in its order.  A key
   that is not an exact str sends the call to the general path, which
   refuses non-str keys before anything else, as the interpreter does;
   nothing here runs Python code, so the dict cannot change under us. */
static int posonly_store_dict(const posonly_plan *plan, PyObject *out, PyObject *kwdict) {
    PyObject *varkw = POSONLY_VARKW(plan, out), *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwdict, &pos, &key, &value)) {
        int status = PyUnicode_CheckExact(key) ? posonly_store_keyword(plan, out, varkw, key, value) : 1;
        if (status != 0) return status;
    }
    return 0;
}

/* The keyword-only slots not given, filled from the function's own
   __kwdefaults__ dict at the call (plan->kwdefaults), as the interpreter
   fills them: 0 when done, 1 for the general path (a parameter without a
   default), -1 with an exception set.  A lookup can run Python code (a key
   of the dict's with an __eq__ of its own), so `out`, which has holes, is
   kept from the collector meanwhile (and tracked after, as a new tuple is:
   its items are any objects). */
static int posonly_fill_kwdefaults(const posonly_plan *plan, PyObject *out) {
    int status = 0;
    Py_ssize_t i;
    PyObject_GC_UnTrack(out);
    for (i = plan->argcount; i < plan->total_args; i++) {
        if (PyTuple_GET_ITEM(out, i) == NULL) {
            PyObject *value = PyDict_GetItemWithError(plan->kwdefaults, plan->names[i]);
            if (value == NULL) {
                status = PyErr_Occurred() ? -1 : 1;
                break;
            }
            Py_INCREF(value);
            PyTuple_SET_ITEM(out, i, value);
        }
    }
    PyObject_GC_Track(out);
    return status;
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
static inline PyObject *posonly_fast_bind_from(const posonly_plan *plan, PyObject *const *args,
                                               Py_ssize_t nargs, PyObject *kwnames,
                                               PyObject *kwdict) {
    Py_ssize_t i, argcount = plan->argcount;
    PyObject *out;
    if (plan->bound || (nargs > argcount && plan->varargs_slot < 0)) return POSONLY_SLOW;
    out = posonly_new_locals(plan->n_locals, args, nargs, argcount,
                             plan->varargs_slot, plan->varkw_slot);
    if (out == NULL) return NULL;
    if (kwnames != NULL || kwdict != NULL) {
        int status = kwnames != NULL ? posonly_store_keywords(plan, out, args + nargs, kwnames)
                                     : posonly_store_dict(plan, out, kwdict);
        if (status != 0) {
            Py_DECREF(out);
            return status < 0 ? NULL : POSONLY_SLOW;
        }
    }
    Py_ssize_t end = plan->kwdefaults != NULL ? argcount : plan->total_args;
    for (i = nargs < argcount ? nargs : argcount; i < end; i++) {
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
    if (end != plan->total_args) {
        int status = posonly_fill_kwdefaults(plan, out);
        if (status != 0) {
            Py_DECREF(out);
            return status < 0 ? NULL : POSONLY_SLOW;
        }
    }
    return out;
}

/* The fast path of a vectorcall (kwnames NULL when there are none). */
static inline PyObject *posonly_fast_bind(const posonly_plan *plan, PyObject *const *args,
                                          Py_ssize_t nargs, PyObject *kwnames) {
    return posonly_fast_bind_from(plan, args, nargs, kwnames, NULL);
}

/* The fast path of Binder.bind(args, kwargs) with a non-empty exact dict;
   out of line, so that the vectorcall's path stays as it was. */
static PyObject *posonly_fast_bind_dict(const posonly_plan *plan, PyObject *const *args,
                                        Py_ssize_t nargs, PyObject *kwdict) {
    return posonly_fast_bind_from(plan, args, nargs, NULL, kwdict);
}

/* Whether a traceback entry is one of posonly's own compiled functions:
   Cython gives its code objects the file name of the source it compiled,
   src/posonly/<part>.pxi or .pyx, a file no user has. */
static int posonly_own_entry(PyObject *tb) {
    PyFrameObject *frame = ((PyTracebackObject *)tb)->tb_frame;
    PyCodeObject *code;
    PyObject *filename;
    int own = 0;
    if (frame == NULL) return 0;
    code = PyFrame_GetCode(frame);
    filename = code->co_filename;
    if (PyUnicode_Check(filename)) {
        Py_ssize_t length = PyUnicode_GET_LENGTH(filename);
        own = length > 16 && PyUnicode_READ_CHAR(filename, length - 4) == '.'
            && (PyUnicode_READ_CHAR(filename, length - 3) == 'p')
            && (PyUnicode_READ_CHAR(filename, length - 2) == 'x'
                || PyUnicode_READ_CHAR(filename, length - 2) == 'y')
            && (PyUnicode_READ_CHAR(filename, length - 1) == 'i'
                || PyUnicode_READ_CHAR(filename, length - 1) == 'x')
            && posonly_own_directory() != NULL
            && PyUnicode_Find(filename, posonly_own_directory(), 0, length, 1) >= 0;
    }
    Py_DECREF(code);
    return own;
}

/* With an exception set: drop the traceback entries it gathered in
   posonly's own compiled functions on its way to a C entry point (what
   the interpreter shows for its own refusal of a call: none), keeping any
   entries of code run deeper (a str subclass's __eq__, a handler). */
static void posonly_drop_own_frames(void) {
    PyObject *tb, *kept;
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) return;
    tb = PyException_GetTraceback(exc);
    kept = tb;
    while (kept != NULL && posonly_own_entry(kept))
        kept = (PyObject *)((PyTracebackObject *)kept)->tb_next;
    if (kept != tb) PyException_SetTraceback(exc, kept != NULL ? kept : Py_None);
    Py_XDECREF(tb);
    PyErr_SetRaisedException(exc);
#else
    PyObject *type, *value;
    PyErr_Fetch(&type, &value, &tb);
    kept = tb;
    while (kept != NULL && posonly_own_entry(kept))
        kept = (PyObject *)((PyTracebackObject *)kept)->tb_next;
    Py_XINCREF(kept);
    Py_XDECREF(tb);
    if (value != NULL && kept != tb && PyExceptionInstance_Check(value))
        PyException_SetTraceback(value, kept != NULL ? kept : Py_None);
    PyErr_Restore(type, value, kept);
#endif
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
    out = plan->general(self, args, nargs, kwnames);
    if (out == NULL) posonly_drop_own_frames();
    return out;
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
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && plan->plain_min <= nargs && nargs <= plan->plain_max)
        return posonly_copy_and_fill(args, nargs, plan->fill, plan->total_args);
    return posonly_binder_vectorcall_rest(self, plan, args, nargs, kwnames);
}

/* A method of a compiled type whose failed calls drop posonly's own
   traceback entries (posonly_drop_own_frames) once Cython has added its
   last one, the method's own: its method descriptor is given a copy of its
   PyMethodDef whose C function calls the original, then drops them. */
#define POSONLY_MAX_ENTRY_METHODS 8
typedef PyObject *(*posonly_fastcall_keywords)(PyObject *, PyObject *const *, Py_ssize_t,
                                                PyObject *);
static PyMethodDef posonly_entry_defs[POSONLY_MAX_ENTRY_METHODS];
static void (*posonly_entry_originals[POSONLY_MAX_ENTRY_METHODS])(void);
static int posonly_n_entry_methods;

#define POSONLY_ENTRY_METHOD(i) \
    static PyObject *posonly_entry_fast_##i(PyObject *self, PyObject *const *args, \
                                            Py_ssize_t nargs, PyObject *kwnames) { \
        PyObject *result = ((posonly_fastcall_keywords)posonly_entry_originals[i])( \
            self, args, nargs, kwnames); \
        if (result == NULL) posonly_drop_own_frames(); \
        return result; \
    } \
    static PyObject *posonly_entry_varargs_##i(PyObject *self, PyObject *args, PyObject *kwargs) { \
        PyObject *result = ((PyCFunctionWithKeywords)posonly_entry_originals[i])(self, args, kwargs); \
        if (result == NULL) posonly_drop_own_frames(); \
        return result; \
    }
POSONLY_ENTRY_METHOD(0) POSONLY_ENTRY_METHOD(1) POSONLY_ENTRY_METHOD(2) POSONLY_ENTRY_METHOD(3)
POSONLY_ENTRY_METHOD(4) POSONLY_ENTRY_METHOD(5) POSONLY_ENTRY_METHOD(6) POSONLY_ENTRY_METHOD(7)
static const PyCFunction posonly_entry_fast[POSONLY_MAX_ENTRY_METHODS] = {
    (PyCFunction)(void (*)(void))posonly_entry_fast_0, (PyCFunction)(void (*)(void))posonly_entry_fast_1,
    (PyCFunction)(void (*)(void))posonly_entry_fast_2, (PyCFunction)(void (*)(void))posonly_entry_fast_3,
    (PyCFunction)(void (*)(void))posonly_entry_fast_4, (PyCFunction)(void (*)(void))posonly_entry_fast_5,
    (PyCFunction)(void (*)(void))posonly_entry_fast_6, (PyCFunction)(void (*)(void))posonly_entry_fast_7,
};
static const PyCFunction posonly_entry_varargs[POSONLY_MAX_ENTRY_METHODS] = {
    (PyCFunction)(void (*)(void))posonly_entry_varargs_0, (PyCFunction)(void (*)(void))posonly_entry_varargs_1,
    (PyCFunction)(void (*)(void))posonly_entry_varargs_2, (PyCFunction)(void (*)(void))posonly_entry_varargs_3,
    (PyCFunction)(void (*)(void))posonly_entry_varargs_4, (PyCFunction)(void (*)(void))posonly_entry_varargs_5,
    (PyCFunction)(void (*)(void))posonly_entry_varargs_6, (PyCFunction)(void (*)(void))posonly_entry_varargs_7,
};

static int posonly_declare_entry_method(PyTypeObject *tp, const char *name) {
    PyObject *descriptor = PyDict_GetItemString(tp->tp_dict, name);
    PyMethodDef *def;
    int i = posonly_n_entry_methods, flags;
    if (descriptor == NULL || Py_TYPE(descriptor) != &PyMethodDescr_Type
            || i == POSONLY_MAX_ENTRY_METHODS) {
        PyErr_Format(PyExc_SystemError, "posonly: %s is no method to declare", name);
        return -1;
    }
    def = ((PyMethodDescrObject *)descriptor)->d_method;
    flags = def->ml_flags & ~(METH_CLASS | METH_STATIC | METH_COEXIST);
    posonly_entry_defs[i] = *def;
    posonly_entry_originals[i] = (void (*)(void))def->ml_meth;
    if (flags == (METH_FASTCALL | METH_KEYWORDS))
        posonly_entry_defs[i].ml_meth = posonly_entry_fast[i];
    else if (flags == (METH_VARARGS | METH_KEYWORDS))
        posonly_entry_defs[i].ml_meth = posonly_entry_varargs[i];
    else {
        PyErr_Format(PyExc_SystemError, "posonly: %s has calling flags %d", name, flags);
        return -1;
    }
    posonly_n_entry_methods++;
    ((PyMethodDescrObject *)descriptor)->d_method = &posonly_entry_defs[i];
    PyType_Modified(tp);
    return 0;
}

/* Dict watchers, CPython 3.12+: one watcher id for the module (the
   module loads in one interpreter only: Cython refuses a second), whose
   callback, on any event of a watched dict (an item set or deleted,
   cleared, cloned into, freed), before the dict changes, sends every binder
   that keeps a snapshot of it back to its lookups, takes them off the list,
   and stops watching the dict.  The list holds every binder with a
   snapshot, linked through their plans; a binder holds its dict, so a dict
   on the list is alive, and a binder leaves the list when it is freed (the
   last of a dict's, counted below, stops the watching).
   The GIL guards the list (the module is not free-threading compatible).
   Changes of such dicts are rare, and the first stops the watching, so a
   walk of the list per change is cheap.  Where no watcher id is left (8 per
   interpreter) there is none: binders look the defaults up at each call.
   Before 3.12 a binder notes the dict's version tag instead, with no list
   and no count, and its wrapper compares the tag at each call. */
static int posonly_kwdefaults_watcher = -1;
static posonly_plan *posonly_watching;

/* How many binders keep a snapshot of each watched dict: a table keyed by
   the dict's address (open addressing, linear probing, freed slots marked
   so that probes go past them), so that a binder freed stops the watching
   of its dict when it was the last, with no walk of the list. */
typedef struct { PyObject *dict; Py_ssize_t count; } posonly_watch_count;
#define POSONLY_FREED_SLOT ((PyObject *)1)
static posonly_watch_count *posonly_counts;
static size_t posonly_counts_size, posonly_counts_used;  /* used: counted or freed slots */

static inline size_t posonly_count_start(PyObject *d) {
    return (size_t)(((uintptr_t)d >> 4) * (uintptr_t)0x9E3779B97F4A7C15ULL) & (posonly_counts_size - 1);
}

/* The slot of `d`, or NULL. */
static inline posonly_watch_count *posonly_count_of(PyObject *d) {
    size_t i;
    if (posonly_counts_size == 0) return NULL;
    for (i = posonly_count_start(d); posonly_counts[i].dict != NULL;
         i = (i + 1) & (posonly_counts_size - 1))
        if (posonly_counts[i].dict == d) return &posonly_counts[i];
    return NULL;
}

/* Count one binder more for `d`: 0, or -1 (out of memory, no error set). */
static inline int posonly_count_up(PyObject *d) {
    posonly_watch_count *slot = posonly_count_of(d);
    size_t i;
    if (slot != NULL) {
        slot->count++;
        return 0;
    }
    if ((posonly_counts_used + 1) * 2 > posonly_counts_size) {
        size_t old_size = posonly_counts_size, size = old_size ? old_size : 16, j;
        posonly_watch_count *old = posonly_counts, *table;
        Py_ssize_t live = 0;
        for (j = 0; j < old_size; j++) live += old[j].dict != NULL && old[j].dict != POSONLY_FREED_SLOT;
        while ((size_t)(live + 1) * 2 > size / 2) size *= 2;  /* room to grow, after the freed go */
        table = (posonly_watch_count *)PyMem_Calloc(size, sizeof(posonly_watch_count));
        if (table == NULL) return -1;
        posonly_counts = table;
        posonly_counts_size = size;
        posonly_counts_used = 0;
        for (j = 0; j < old_size; j++) {
            if (old[j].dict == NULL || old[j].dict == POSONLY_FREED_SLOT) continue;
            for (i = posonly_count_start(old[j].dict); table[i].dict != NULL; i = (i + 1) & (size - 1)) {}
            table[i] = old[j];
            posonly_counts_used++;
        }
        PyMem_Free(old);
    }
    for (i = posonly_count_start(d); posonly_counts[i].dict != NULL
         && posonly_counts[i].dict != POSONLY_FREED_SLOT; i = (i + 1) & (posonly_counts_size - 1)) {}
    if (posonly_counts[i].dict == NULL) posonly_counts_used++;
    posonly_counts[i].dict = d;
    posonly_counts[i].count = 1;
    return 0;
}

/* Count one binder less for `d` (all of them with `all`): whether none is
   left, its slot then freed. */
static inline int posonly_count_down(PyObject *d, int all) {
    posonly_watch_count *slot = posonly_count_of(d);
    if (slot == NULL) return 1;
    if (!all && --slot->count > 0) return 0;
    slot->dict = POSONLY_FREED_SLOT;
    slot->count = 0;
    return 1;
}

/* Back to the lookups at each call, in the dict `d`. */
static void posonly_look_kwdefaults_up(posonly_plan *plan, PyObject *d) {
    plan->kwdefaults = d;
    plan->plain_max = -1;  /* the plain path fills keyword-only slots from fill */
}

static inline void posonly_unlink_watching(posonly_plan *plan) {
    if (plan->watch_prev != NULL) plan->watch_prev->watch_next = plan->watch_next;
    else if (posonly_watching == plan) posonly_watching = plan->watch_next;
    if (plan->watch_next != NULL) plan->watch_next->watch_prev = plan->watch_prev;
    plan->watch_prev = plan->watch_next = NULL;
    plan->watched = NULL;
}

#if PY_VERSION_HEX >= 0x030C0000 && !defined(PYPY_VERSION)
static int posonly_kwdefaults_changed(PyDict_WatchEvent event, PyObject *dict, PyObject *key,
                                      PyObject *new_value) {
    posonly_plan *plan = posonly_watching, *next;
    (void)event; (void)key; (void)new_value;
    while (plan != NULL) {
        next = plan->watch_next;
        if (plan->watched == dict) {
            posonly_unlink_watching(plan);
            posonly_look_kwdefaults_up(plan, dict);
        }
        plan = next;
    }
    posonly_count_down(dict, 1);
    if (PyDict_Unwatch(posonly_kwdefaults_watcher, dict) < 0) PyErr_Clear();
    return 0;
}
#endif

/* Made once, at import: -1 where there is no watcher. */
static int posonly_start_kwdefaults_watcher(void) {
#if PY_VERSION_HEX >= 0x030C0000 && !defined(PYPY_VERSION)
    posonly_kwdefaults_watcher = PyDict_AddWatcher(posonly_kwdefaults_changed);
    if (posonly_kwdefaults_watcher < 0) PyErr_Clear();
#endif
    return posonly_kwdefaults_watcher;
}

/* Keep binding with the snapshot in `fill` while `d` does not change:
   whether the dict is now watched for the binder. */
static int posonly_watch_kwdefaults(posonly_plan *plan, PyObject *d) {
#if POSONLY_DICT_VERSIONS
    plan->watched = d;  /* held by the binder: the address stays its */
    plan->watched_version = ((PyDictObject *)d)->ma_version_tag;
    return 1;
#elif PY_VERSION_HEX >= 0x030C0000 && !defined(PYPY_VERSION)
    if (posonly_kwdefaults_watcher < 0) return 0;
    if (PyDict_Watch(posonly_kwdefaults_watcher, d) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (posonly_count_up(d) < 0) {
        if (posonly_count_of(d) == NULL && PyDict_Unwatch(posonly_kwdefaults_watcher, d) < 0)
            PyErr_Clear();
        return 0;
    }
    plan->watched = d;
    plan->watch_prev = NULL;
    plan->watch_next = posonly_watching;
    if (posonly_watching != NULL) posonly_watching->watch_prev = plan;
    posonly_watching = plan;
    return 1;
#else
    (void)plan; (void)d;
    return 0;
#endif
}

/* A binder that stops keeping its snapshot (freed, or its snapshot found
   stale): off the list, and the dict no longer watched if no other binder
   keeps a snapshot of it. */
static void posonly_stop_watching(posonly_plan *plan) {
    PyObject *d = plan->watched;
    if (d == NULL) return;
    posonly_unlink_watching(plan);
    if (!posonly_count_down(d, 0)) return;
#if PY_VERSION_HEX >= 0x030C0000 && !defined(PYPY_VERSION)
    if (PyDict_Unwatch(posonly_kwdefaults_watcher, d) < 0) PyErr_Clear();
#endif
}

/* Before a binder binds with its snapshot: back to the lookups if the
   watched dict's version tag has moved (a change since the snapshot was
   read).  Where dict watchers exist, their callback does this before the
   dict changes, and this is nothing.  Called by a wrapper before each
   call, and by the general path before it fills keyword-only slots (a
   keyword's own __eq__ may have changed the dict meanwhile). */
static inline void posonly_check_kwdefaults(posonly_plan *plan) {
#if POSONLY_DICT_VERSIONS
    PyObject *d = plan->watched;
    if (d != NULL && ((PyDictObject *)d)->ma_version_tag != plan->watched_version) {
        plan->watched = NULL;
        posonly_look_kwdefaults_up(plan, d);
    }
#else
    (void)plan;
#endif
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

#endif /* POSONLY_BINDER_H */
