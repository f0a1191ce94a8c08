# The Binder: a layout's compiled binder (included by _bind.pyx).

# binding=False: the methods are C method descriptors, which the interpreter
# calls through its specialised path for C methods (a Cython function object,
# the default, is measurably slower to call: 1.23x -> 1.11x the cost of a
# plain def's call for a method that only builds a tuple, on 3.14).
# no_gc_clear: the C plan points into the name and default tuples, which a
# clear would free; a binder is never the only clearable link of a cycle.
cdef object _binder_arguments = binder_arguments()


@cython.final
@cython.binding(False)
@cython.no_gc_clear
cdef class Binder:
    """Binds call arguments to a layout's parameters, as the interpreter does.

    Calling the binder binds its arguments and returns the locals tuple: the
    parameters' values in frame order (``Layout.names``), defaults filled in,
    ``*args`` a tuple and ``**kwargs`` a new dict.  Errors are the
    interpreter's ``TypeError`` s, word for word.  Build one with
    :func:`posonly.binder`.
    """

    cdef posonly_plan _c  # its vectorcall pointer is read by the interpreter on every call
    cdef object _layout  # built on first use for a binder made from a function
    cdef object _plan  # the same
    cdef object _name
    cdef tuple _prefix  # a bound method's self, a partial's arguments
    cdef bint _holes  # the prefix has functools.Placeholder holes (plan.holes)
    cdef object __weakref__
    cdef tuple _names  # frame order, interned: keywords match by identity first
    cdef tuple _defaults
    cdef tuple _kwdefaults  # per keyword-only slot, NO_DEFAULT where none
    cdef object _kwdefaults_at_call  # a wrapper's binder: the function's __kwdefaults__ dict
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

    def __cinit__(self, *args, **kwargs):
        # Binder(layout[, call]) as a Python function takes them, with its
        # messages for anything else.
        if not kwargs and len(args) == 1:
            layout, call = args[0], None
        elif not kwargs and len(args) == 2:
            layout, call = args
        else:
            layout, call = _binder_arguments(*args, **kwargs)
        self._c.vectorcall = posonly_binder_vectorcall
        self._c.general = <void *>_binder_general
        if layout is _FROM_FUNCTION:
            return  # _binder_of_function fills the rest
        plan = Plan(layout, call)
        self._layout = layout
        self._plan = plan
        self._name = plan.name
        self._prefix = plan.prefix
        self._holes = bool(plan.holes)
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
        # By identity: a default's __eq__ is not ours to call.
        required_kwonly = any(d is NO_DEFAULT for d in plan.kwdefault_by_slot)
        self._c.plain_max = (-1 if plan.bound or plan.varargs_slot >= 0 or plan.varkw_slot >= 0
                             or required_kwonly else plan.argcount)
        if plan.bound or required_kwonly:
            self.max_positional = -1
        elif plan.varargs_slot >= 0:
            self.max_positional = PY_SSIZE_T_MAX
        else:
            self.max_positional = plan.argcount
        self._argument_names = tuple(name for name, _ in plan.arguments_order)
        self._argument_slots = _slot_array([slot for _, slot in plan.arguments_order])

    def __dealloc__(self):
        PyMem_Free(self._argument_slots)
        posonly_stop_watching(&self._c)

    @property
    def layout(self):
        """The :class:`Layout` of the values this binder returns: the
        signature bound, less what the call puts first (a bound method's
        ``self``, a partial's arguments), which the values leave out."""
        return self._get_plan().output

    cdef object _get_plan(self):
        if self._plan is None:
            _complete_binder(self)
        return self._plan

    # -- binding a call --------------------------------------------------------

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
            # A keyword's own __eq__ may have changed the function's dict.
            posonly_check_kwdefaults(&self._c)
            for i in range(argcount, self._c.total_args):
                if PyTuple_GET_ITEM(o, i) == NULL:
                    if self._c.kwdefaults != NULL:
                        # The function's dict, at the call: a lookup can run
                        # Python code (a key's own __eq__).
                        hidden |= self._hide(o)
                        value = PyDict_GetItemWithError(self._c.kwdefaults, self._c.names[i])
                        if value == NULL:
                            value = _NO_DEFAULT
                    else:
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

    cdef int _fill_kwdefaults_at_call(self, object kwdefaults) except -1:
        """Bind keyword-only defaults as they are in ``kwdefaults``, the
        function's own ``__kwdefaults__`` dict, at each call rather than as
        they were read when the binder was made: a wrapper's binder, which
        binds as a call of the function would, with a dict changed in place.
        The values read stay in use until the dict changes, which a dict
        watcher tells (CPython 3.12+) or, before, the dict's version tag
        that the wrapper compares at each call (_binder.h:
        posonly_check_kwdefaults); from the first change on (or where no
        watcher is left), each call looks them up in the dict.  The layout
        keeps the values as they were read."""
        if self.n_kwonly == 0 or kwdefaults is None:
            return 0
        self._kwdefaults_at_call = kwdefaults
        if posonly_watch_kwdefaults(&self._c, <PyObject *>kwdefaults):
            # A lookup may run Python code (a key's own __eq__), which may
            # change the dict: the watcher then has sent the binder to its
            # lookups already (the version tag does at the next call).
            if self._snapshot_holds():
                return 0
            posonly_stop_watching(&self._c)
        posonly_look_kwdefaults_up(&self._c, <PyObject *>kwdefaults)
        self.max_positional = -1
        return 0

    cdef bint _snapshot_holds(self) noexcept:
        """Whether the values read are those the dict holds now, for every
        keyword-only slot (a lookup that fails counts as no)."""
        cdef Py_ssize_t i
        cdef PyObject *value
        cdef PyObject *d = <PyObject *>self._kwdefaults_at_call
        for i in range(self._c.argcount, self._c.total_args):
            value = posonly_dict_lookup(d, self._c.names[i])
            if value == NULL:
                if PyErr_Occurred():
                    PyErr_Clear()
                    return False
                value = _NO_DEFAULT
            if (value != self._c.fill[i]
                    or value != PyTuple_GET_ITEM(<PyObject *>self._kwdefaults,
                                                 i - self._c.argcount)):
                return False
        return True

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
                posonly, candidates = self._posonly, self._keyword_candidates
                if posonly is None:  # a binder made by _binder_of_function
                    posonly = self._names[:self._c.n_posonly]
                    candidates = self._names[self._c.n_posonly:self._c.total_args]
                raise _errors.unexpected_keyword(
                    self._name, posonly, <object>all_keywords, candidates, <object>keyword)
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
        """Bind with the prefix first (a bound method's self, a partial's
        arguments) and a partial's keywords under the caller's, as the
        interpreter calls them; the output leaves out what they filled."""
        cdef tuple prefix = self._prefix
        cdef Py_ssize_t k, n_prefix
        cdef Py_ssize_t total = nargs + (PyTuple_GET_SIZE(kwnames) if kwnames != NULL else 0)
        cdef PyObject **stack
        cdef dict merged
        plan = self._plan
        if self._holes:
            # A partial with functools.Placeholder holes: the caller's
            # positionals go into them, and the prefix takes them all.
            prefix = plan.positionals(tuple([<object>args[k] for k in range(nargs)]), partial)
            args += nargs
            total -= nargs
            nargs = 0
        n_prefix = PyTuple_GET_SIZE(<PyObject *>prefix)
        preset = plan.preset
        if preset:
            # functools.partial's merge: its keywords, then the caller's.
            merged = dict(preset)
            if kwnames != NULL:
                for k in range(PyTuple_GET_SIZE(kwnames)):
                    merged[<object>PyTuple_GET_ITEM(kwnames, k)] = <object>args[nargs + k]
            elif kwdict != NULL:
                merged.update(<object>kwdict)
            kwnames = NULL
            kwdict = <PyObject *>merged
            total = nargs
        stack = <PyObject **>PyMem_Malloc((total + n_prefix + 1) * sizeof(PyObject *))
        if stack == NULL:
            raise MemoryError()
        if n_prefix:
            memcpy(stack, tuple_items(<PyObject *>prefix, 0), n_prefix * sizeof(PyObject *))
        if total:
            memcpy(stack + n_prefix, args, total * sizeof(PyObject *))
        try:
            values = self._bind(stack, nargs + n_prefix, kwnames, kwdict, partial, False)
        finally:
            PyMem_Free(stack)
        return plan.drop_self(values)

    def bind(self, args=(), kwargs=None):
        """Bind ``f(*args, **kwargs)`` from a tuple and a dict (or ``None``)."""
        cdef PyObject *key
        cdef PyObject *value
        cdef Py_ssize_t pos = 0
        cdef bint exact_keys = True
        cdef PyObject *fast
        if type(args) is not tuple:
            args = self._get_plan().star_args(args)
        if kwargs is None or (type(kwargs) is dict and PyDict_GET_SIZE(<PyObject *>kwargs) == 0):
            # Positionals only: exactly the binder's own call.
            return posonly_steal(posonly_call_binder(<PyObject *>self, tuple_items(<PyObject *>args, 0),
                                                     PyTuple_GET_SIZE(<PyObject *>args), NULL))
        if type(kwargs) is dict:
            # Keys that are exact str, each naming a parameter not given or
            # going to **kwargs, and nothing missing: bound in C.
            fast = posonly_fast_bind_dict(&self._c, tuple_items(<PyObject *>args, 0),
                                          PyTuple_GET_SIZE(<PyObject *>args), <PyObject *>kwargs)
            if fast != POSONLY_SLOW:
                return posonly_steal(fast)
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
                kwargs = self._get_plan().star_kwargs(kwargs)
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
            stack, kwnames = self._get_plan().vectorcall_args(stack, kwnames)
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
        if self._argument_slots == NULL:
            _complete_binder(self)
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
        return self._get_plan().apply(func, values)

    def __call__(self, *args, **kwargs):
        # What callable() and collections.abc.Callable look for; the
        # interpreter's calls take the vectorcall slot.
        return PyVectorcall_Call(self, args, kwargs)

    def __repr__(self):
        return f"<posonly.Binder {self._get_plan().describe()}>"

    def __reduce__(self):
        if self._c.bound:
            raise TypeError("a bound method's binder cannot be pickled")
        return (Binder, (self._get_plan().layout,))

    @classmethod
    def __class_getitem__(cls, item):
        # Generic for type checkers (the pure twin's annotations): the
        # subscript names the same class, as typing's aliases do.
        return _GenericAlias(cls, item)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        plan = self._get_plan()
        return Binder(plan.layout, plan.deep_copy_call(memo))



# The dict watcher of binders that keep a snapshot of keyword-only defaults
# (_binder.h: posonly_watch_kwdefaults), made once.
posonly_start_kwdefaults_watcher()


cdef object _binder_general(Binder self, PyObject **args, Py_ssize_t nargs, PyObject *kwnames):
    # A call posonly_fast_bind did not answer: bind it in full, errors and all.
    if not self._c.bound:
        return self._bind(args, nargs, kwnames, NULL, False, False)
    return self._entry_bound(args, nargs, kwnames, NULL, False)


# A failed call of an entry point shows no traceback entry of posonly's, as
# the interpreter's own refusal of the call shows none (the vectorcall slot
# drops them in C, posonly_binder_vectorcall_rest).
for _entry_name in (b"bind", b"vectorcall", b"partial", b"arguments"):
    posonly_declare_entry_method(<PyTypeObject *>Binder, _entry_name)

cdef Binder _probe = Binder(Layout())
posonly_install_vectorcall(<PyTypeObject *>Binder,
                           <Py_ssize_t>(<char *>&_probe._c.vectorcall - <char *><PyObject *>_probe))
