# The drop-in for inspect: Signature.bind in C (included by _bind.pyx).

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



cdef SignatureMethod _method_probe = SignatureMethod(False, False, "bind")
posonly_install_vectorcall(
    <PyTypeObject *>SignatureMethod,
    <Py_ssize_t>(<char *>&_method_probe._vectorcall - <char *><PyObject *>_method_probe))
posonly_declare_method_descriptor(<PyTypeObject *>SignatureMethod)
_method_probe = None
