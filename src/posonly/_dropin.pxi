# The drop-in for inspect, compiled (included by _bind.pyx): the twin of
# _dropin.py and the modules it draws on (_dropin_generic.py, _dropin_plans.py,
# _dropin_cache.py, _dropin_signature.py), function for function.  Each
# function does what one piece of inspect does, step for step in the same
# order, reading the parameters' slots in C; whatever it cannot read as
# inspect would (a Signature subclass overriding _bind or parameters, a
# Parameter subclass) goes to inspect's own code.  The entry points
# patch_inspect() installs are InspectMethods (at the end): C callables whose
# cores answer from the caller's argument array, with no Python frame (see
# _inspect's docstring for the design).

from posonly._dialect import (
    DIALECT, FALLBACK_REASONS, FUNCTION_TYPE_SIGNATURE_ATTRIBUTES, POSONLY_KEYWORD_REFUSED,
    INSPECT_FROM_CALLABLE, POSONLY_KEYWORD_REQUIRED_MISSING, SIGNATURE_ATTRIBUTES,
    UNWRAPPED_SIGNATURE_ATTRIBUTES,
)

cdef extern from "_dropin.h":
    PyObject *posonly_proxy_mapping(PyObject *proxy)
    PyObject *posonly_code_names(PyObject *code)
    int posonly_code_argcount(PyObject *code)
    int posonly_code_posonlyargcount(PyObject *code)
    int posonly_code_kwonlyargcount(PyObject *code)
    int posonly_code_flags(PyObject *code)
    PyObject *posonly_function_dict(PyObject *func)
    PyObject *posonly_find_plan(PyObject *mapping, PyTypeObject *plan_type) noexcept
    bint posonly_plans_findable(PyTypeObject *mapping_type) noexcept
    object posonly_refusal(object message, int suppress_context)
    ctypedef PyObject *(*posonly_method_answer)(PyObject *self, PyObject **args, size_t nargsf,
                                               PyObject *kwnames)
    ctypedef struct posonly_method:
        vectorcallfunc vectorcall
        posonly_method_answer answer
        PyObject *original
        PyObject *entry
    PyObject *posonly_method_vectorcall(PyObject *self, PyObject **args, size_t nargsf,
                                        PyObject *kwnames)
    int posonly_set_observer(object observer) except -1
    object posonly_get_observer()
    PyObject *posonly_observer

cdef extern from "Python.h":
    PyTypeObject PyFunction_Type
    PyObject *PyFunction_GET_CODE(PyObject *func)
    PyObject *PyFunction_GET_DEFAULTS(PyObject *func)
    PyObject *PyFunction_GET_KW_DEFAULTS(PyObject *func)
    PyObject *PyDict_GetItemWithError(PyObject *d, PyObject *key) except? NULL
    int PyUnicode_IsIdentifier(PyObject *s) except -1
    object PyDictProxy_New(object mapping)
    int PySet_Contains(PyObject *s, PyObject *key) except -1
    int PyObject_SetItem(PyObject *o, PyObject *key, PyObject *v) except -1
    int PyList_Append(PyObject *l, PyObject *item) except -1
    list PyList_New(Py_ssize_t n)
    void PyList_SET_ITEM(PyObject *l, Py_ssize_t i, PyObject *o)
    object PyList_AsTuple(object l)
    bint PyDict_Check(PyObject *o)
    Py_ssize_t Py_REFCNT(PyObject *o)
    object PyWeakref_NewRef(object ob, object callback)

cdef object _Parameter = DIALECT.Parameter
cdef object _BoundArguments = DIALECT.BoundArguments
cdef object _empty = DIALECT.empty
cdef object _PRIVATE_BIND = DIALECT.private_bind
cdef object _PARAMETERS = DIALECT.parameters_property
cdef object _SIGNATURE_INIT = DIALECT.signature_init
cdef object _OBJECT_NEW = object.__new__
cdef object _PARAMETERS_DICT = DIALECT.parameters_dict
cdef bint _PARAMETERS_EXACT_DICT = DIALECT.parameters_dict is dict
cdef object _KEYWORDS = DIALECT.keywords
cdef bint _KWONLY_MISSING_MESSAGE = DIALECT.kwonly_missing_message
cdef bint _POSONLY_MISSING_IN_HANDLER = DIALECT.posonly_missing_in_handler
cdef int _POSONLY_KEYWORD = DIALECT.posonly_keyword
cdef object _SIGNATURE_ATTRIBUTES = SIGNATURE_ATTRIBUTES
cdef object _UNWRAPPED_SIGNATURE_ATTRIBUTES = UNWRAPPED_SIGNATURE_ATTRIBUTES
cdef object _INSPECT_FROM_CALLABLE = INSPECT_FROM_CALLABLE
cdef tuple _FUNCTION_TYPE_ATTRIBUTES = FUNCTION_TYPE_SIGNATURE_ATTRIBUTES
cdef str _RETURN = "return"
cdef tuple _EMPTY_TUPLE = ()
cdef object _INSPECT_ARGS = DIALECT.BoundArguments.args.fget
cdef object _INSPECT_KWARGS = DIALECT.BoundArguments.kwargs.fget
cdef object _INSPECT_APPLY_DEFAULTS = DIALECT.BoundArguments.apply_defaults


cdef str _reason(str key):
    """The key of FALLBACK_REASONS named ``key`` (the very object)."""
    for known in FALLBACK_REASONS:
        if known == key:
            return known
    raise SystemError(f"posonly: no fallback reason {key!r}")


cdef str _R_SIGNATURE_CLASS = _reason("signature-subclass")
cdef str _R_PARAMETER_CLASS = _reason("parameter-subclass")
cdef str _R_BOUND_ARGUMENTS = _reason("bound-arguments-subclass")
cdef str _R_CALL = _reason("call")

# The kinds, as the values of Parameter._kind: compared by identity.
cdef enum:
    POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD
cdef PyObject *_KINDS[5]
for _i in range(5):
    _KINDS[_i] = <PyObject *>DIALECT.kinds[_i]  # kept alive by DIALECT

# The slots read and written directly, by offset: their member descriptors
# (or properties) would cost more than the binding itself.
cdef Py_ssize_t _PARAM_NAME = posonly_slot_offset(_Parameter.__dict__["_name"])
cdef Py_ssize_t _PARAM_KIND = posonly_slot_offset(_Parameter.__dict__["_kind"])
cdef Py_ssize_t _PARAM_DEFAULT = posonly_slot_offset(_Parameter.__dict__["_default"])
cdef Py_ssize_t _PARAM_ANNOTATION = posonly_slot_offset(_Parameter.__dict__["_annotation"])
cdef Py_ssize_t _SIG_PARAMETERS = posonly_slot_offset(DIALECT.Signature.__dict__["_parameters"])
cdef Py_ssize_t _SIG_RETURN = posonly_slot_offset(DIALECT.Signature.__dict__["_return_annotation"])
cdef Py_ssize_t _BOUND_ARGUMENTS = posonly_slot_offset(_BoundArguments.__dict__["arguments"])
cdef Py_ssize_t _BOUND_SIGNATURE = posonly_slot_offset(_BoundArguments.__dict__["_signature"])
cdef bint _SLOTS_KNOWN = (_PARAM_NAME > 0 and _PARAM_KIND > 0 and _PARAM_DEFAULT > 0
                          and _PARAM_ANNOTATION > 0 and _SIG_PARAMETERS > 0 and _SIG_RETURN > 0
                          and _BOUND_ARGUMENTS > 0 and _BOUND_SIGNATURE > 0)

cdef inline PyObject *_slot(PyObject *o, Py_ssize_t offset) noexcept:
    return (<PyObject **>(<char *>o + offset))[0]


cdef inline void _set_slot(PyObject *o, Py_ssize_t offset, PyObject *value) noexcept:
    # Only into a new object's empty slot.
    Py_INCREF(value)
    (<PyObject **>(<char *>o + offset))[0] = value


cdef object _new_instance(object cls):
    """A new, empty instance of a class whose slots the caller fills."""
    cdef PyObject *made = (<PyTypeObject_alloc *>cls).tp_alloc(<PyTypeObject *>cls, 0)
    if made == NULL:
        raise MemoryError()
    return posonly_steal(made)


# -- which classes are read directly ---------------------------------------------
#
# The last class found plain, with its type version tag: any change to the
# class or its bases changes the tag, so a hit needs no attribute lookups.

cdef PyTypeObject *_plain_signature = NULL
cdef unsigned int _plain_signature_version = 0
cdef PyTypeObject *_plain_bound_signature = NULL
cdef unsigned int _plain_bound_signature_version = 0


cdef inline bint _known(PyTypeObject *tp, PyTypeObject *known, unsigned int version) noexcept:
    return tp == known and version != 0 and (<PyTypeObject_version *>tp).tp_version_tag == version


cdef bint _readable(object sig) except -1:
    """Whether ``sig`` binds as inspect.Signature's do: its class keeps
    inspect's ``_bind`` and ``parameters``."""
    global _plain_signature, _plain_signature_version
    cdef PyTypeObject *tp = Py_TYPE(sig)
    if _known(tp, _plain_signature, _plain_signature_version):
        return True
    cls = type(sig)
    if not _SLOTS_KNOWN or cls._bind is not _PRIVATE_BIND or cls.parameters is not _PARAMETERS:
        return False
    # The lookups above gave the type a valid version tag.
    _plain_signature = tp
    _plain_signature_version = (<PyTypeObject_version *>tp).tp_version_tag
    return True


cdef object _bound_arguments(object sig, dict arguments):
    """``sig._bound_arguments_cls(sig, arguments)``; inspect's own class is
    made directly, its two slots written."""
    global _plain_bound_signature, _plain_bound_signature_version
    cdef PyTypeObject *tp = Py_TYPE(sig)
    if not _known(tp, _plain_bound_signature, _plain_bound_signature_version):
        cls = sig._bound_arguments_cls
        if cls is not _BoundArguments or not _SLOTS_KNOWN:
            return cls(sig, arguments)
        _plain_bound_signature = tp
        _plain_bound_signature_version = (<PyTypeObject_version *>tp).tp_version_tag
    bound = _new_instance(_BoundArguments)
    _set_slot(<PyObject *>bound, _BOUND_ARGUMENTS, <PyObject *>arguments)
    _set_slot(<PyObject *>bound, _BOUND_SIGNATURE, <PyObject *>sig)
    return bound


# -- reading parameters ----------------------------------------------------------

ctypedef struct _param:
    PyObject *name
    PyObject *default
    int kind


cdef PyObject *_parameters_dict(object sig) noexcept:
    """The dict behind a readable signature's ``parameters`` (borrowed), or
    NULL where it is not one."""
    cdef PyObject *proxy = _slot(<PyObject *>sig, _SIG_PARAMETERS)
    if proxy == NULL:
        return NULL
    cdef PyObject *mapping = posonly_proxy_mapping(proxy)
    if mapping == NULL or not PyDict_Check(mapping):
        return NULL
    return mapping


cdef bint _read_parameter(PyObject *param, _param *out) noexcept:
    """One parameter's name, default and kind, if it is a plain Parameter."""
    cdef PyObject *kind
    cdef int k
    if Py_TYPE(<object>param) != <PyTypeObject *>_Parameter:
        return False
    out.name = _slot(param, _PARAM_NAME)
    out.default = _slot(param, _PARAM_DEFAULT)
    kind = _slot(param, _PARAM_KIND)
    if out.name == NULL or out.default == NULL or kind == NULL:
        return False
    for k in range(5):
        if kind == _KINDS[k]:
            out.kind = k
            return True
    return False


cdef Py_ssize_t _read_parameters(PyObject *params, _param *out, Py_ssize_t size) noexcept:
    """Fill ``out`` from an (ordered) dict of parameters, in its order; the
    count, or -1 if any is not a plain Parameter."""
    cdef Py_ssize_t pos = 0, i = 0
    cdef PyObject *key
    cdef PyObject *value
    while PyDict_Next(params, &pos, &key, &value):
        if i >= size or not _read_parameter(value, &out[i]):
            return -1
        i += 1
    return i


cdef enum:
    _ON_STACK = 16  # parameters read into a stack array; more are allocated


# -- plans -----------------------------------------------------------------------
#
# A signature bound again and again gets a *plan*: its parameters' names,
# kinds and whether each must be given, read once into an array, so that a
# bind walks the array instead of the parameters (see _inspect's docstring
# for what is kept, and _dropin_plans.py for the pure twin's plans).  One
# bind in _SAMPLE of a signature without a plan makes one (where the pure core
# notes the signature first: here making the plan costs what noting does).
# The plan is the callback of a weak reference to the dict under the
# signature's mappingproxy, made only while that dict is owned by the proxy
# alone (so nothing else can change it), and is found on that dict's own
# list of weak references (posonly_find_plan): no lookup, no id that a new
# mapping could reuse.  When the dict dies, its weak reference calls the
# plan, which leaves the ring.  The ring holds at most ``maxsize`` plans,
# evicted by the clock (second chance); an evicted plan drops its weak
# reference.  A plan holds names only: no signature, parameter, default or
# function.

ctypedef struct _planned:
    PyObject *name  # held by the plan's names
    int kind
    bint required  # no default


cdef enum:
    _SAMPLE = 8
    _MAX_PLANNED = 64  # more parameters than this are read on each bind
    _IN_PLAN = 8  # parameters kept in the plan itself; more are allocated


@cython.final
cdef class _Plan:
    """The plan of one parameters mapping; ``count`` -1 where none can be
    made (the parameters are read on each bind)."""

    cdef Py_ssize_t count
    cdef _planned *params
    cdef _planned small[_IN_PLAN]
    cdef tuple names
    cdef object ref
    cdef Py_ssize_t slot
    cdef bint used

    def __cinit__(self):
        self.count = -1
        self.slot = -1

    def __dealloc__(self):
        if self.params != self.small:
            PyMem_Free(self.params)

    def __call__(self, ref):
        # The mapping died: so does its plan.
        _forget(self)


cdef list _ring = []
cdef Py_ssize_t _hand = 0
cdef Py_ssize_t _plan_maxsize = 4096
cdef int _tick = _SAMPLE
cdef bint _PLANS = posonly_plans_findable(<PyTypeObject *>_PARAMETERS_DICT)
cdef Py_ssize_t _OWNED = 1  # the reference count of a dict owned by its proxy alone


cdef int _forget(_Plan plan) except -1:
    """Take ``plan`` out of the ring and drop its weak reference."""
    cdef Py_ssize_t slot = plan.slot
    plan.slot = -1
    plan.ref = None
    if 0 <= slot < len(_ring) and _ring[slot] is plan:
        _ring[slot] = None
    return 0


cdef int _keep(_Plan plan) except -1:
    """Put ``plan`` in the ring, evicting by the clock when full."""
    global _hand
    cdef Py_ssize_t hand, size = len(_ring)
    cdef _Plan old
    if size < _plan_maxsize:
        plan.slot = size
        _ring.append(plan)
        return 0
    hand = _hand
    while True:
        if hand >= size:
            hand = 0
        found = _ring[hand]
        if found is None:
            break
        old = <_Plan>found
        if old.used:
            old.used = False
            hand += 1
            continue
        old.slot = -1
        old.ref = None
        break
    _ring[hand] = plan
    plan.slot = hand
    _hand = hand + 1
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int _make_plan(PyObject *params) except -1:
    """Make the plan of a parameters dict owned by its proxy alone."""
    if not _PLANS or _plan_maxsize == 0 or Py_REFCNT(params) != _OWNED:
        return 0
    cdef Py_ssize_t size = PyDict_GET_SIZE(params), pos = 0, i = 0
    cdef PyObject *key
    cdef PyObject *value
    cdef _param param
    cdef int last = -1
    cdef bint plannable = size <= _MAX_PLANNED
    cdef _Plan plan = _Plan.__new__(_Plan)
    if plannable:
        if size <= _IN_PLAN:
            plan.params = plan.small
        else:
            plan.params = <_planned *>PyMem_Malloc(size * sizeof(_planned))
            if plan.params == NULL:
                raise MemoryError()
        names = []
        while PyDict_Next(params, &pos, &key, &value):
            if (i >= size or not _read_parameter(value, &param)
                    or not PyUnicode_CheckExact(param.name)
                    or param.kind < last or (param.kind == last and (
                        param.kind == VAR_POSITIONAL or param.kind == VAR_KEYWORD))):
                plannable = False
                break
            last = param.kind
            plan.params[i].name = param.name
            plan.params[i].kind = param.kind
            plan.params[i].required = param.default == <PyObject *>_empty
            PyList_Append(<PyObject *>names, param.name)
            i += 1
        if plannable and i == size:
            plan.names = PyList_AsTuple(names)  # holds the names the array points to
            plan.count = size
        else:
            if plan.params != plan.small:
                PyMem_Free(plan.params)
            plan.params = NULL
    plan.ref = PyWeakref_NewRef(<object>params, plan)
    _keep(plan)
    return 0


def set_maxsize(maxsize):
    """Keep plans for at most ``maxsize`` signatures (0: none); the plans
    beyond are dropped now."""
    global _plan_maxsize
    if not isinstance(maxsize, int) or isinstance(maxsize, bool):
        raise TypeError(f"maxsize must be an int, not {type(maxsize).__name__}")
    if maxsize < 0:
        raise ValueError(f"maxsize must be at least 0, not {maxsize}")
    _plan_maxsize = maxsize
    if len(_ring) > maxsize:
        clear_cache()


def cache_info():
    """What the cache holds now: entries, plans among them, notes, layouts
    of code objects (none here), maxsize."""
    kept = [p for p in _ring if p is not None]
    return {"entries": len(kept), "plans": sum(1 for p in kept if (<_Plan>p).count >= 0),
            "notes": 0, "layouts": 0, "maxsize": _plan_maxsize}


def clear_cache():
    """Drop every plan."""
    global _hand
    kept = list(_ring)
    _ring.clear()
    _hand = 0
    for plan in kept:
        if plan is not None:
            (<_Plan>plan).slot = -1
            (<_Plan>plan).ref = None


# -- Signature._bind -------------------------------------------------------------

# inspect's messages (_errors' templates), each kept as the text around its
# one "{!r}" and filled in C: a failed bind is what a client that curries
# or probes calls, where str.format cost a sixth more per call.
cdef tuple _around(str template):
    before, after = template.split("{!r}")
    return (before, after)


cdef inline str _filled(tuple around, object name):
    return <str>around[0] + repr(name) + <str>around[1]


cdef str _TOO_MANY_POSITIONAL = _errors.TOO_MANY_POSITIONAL
cdef tuple _MISSING_ARGUMENT = _around(_errors.MISSING_ARGUMENT)
cdef tuple _MISSING_KEYWORD_ONLY_ARGUMENT = _around(_errors.MISSING_KEYWORD_ONLY_ARGUMENT)
cdef tuple _MISSING_POSITIONAL_ONLY_ARGUMENT = _around(_errors.MISSING_POSITIONAL_ONLY_ARGUMENT)
cdef tuple _MULTIPLE_VALUES_FOR = _around(_errors.MULTIPLE_VALUES_FOR)
cdef tuple _POSITIONAL_ONLY_BY_KEYWORD = _around(_errors.POSITIONAL_ONLY_BY_KEYWORD)
cdef tuple _POSITIONAL_ONLY_KEYWORDS = _around(_errors.POSITIONAL_ONLY_KEYWORDS)
cdef tuple _UNEXPECTED_KEYWORD_ARGUMENT = _around(_errors.UNEXPECTED_KEYWORD_ARGUMENT)

cdef object _refusal(str message, bint suppress_context):
    """The TypeError inspect raises with ``message`` (``from None`` where
    ``suppress_context``), to be raised by the caller."""
    return posonly_refusal(message, suppress_context)


cdef object _posonly_missing(object name):
    """inspect's "missing a required positional-only argument" for ``name``,
    with the context inspect's has where it raises it while handling a
    ``StopIteration`` (the caller raises it there: see ``posonly_raise_refusal``)."""
    error = _refusal(_filled(_MISSING_POSITIONAL_ONLY_ARGUMENT, name), False)
    if _POSONLY_MISSING_IN_HANDLER:
        error.__context__ = StopIteration()
    return error


cdef object _private_bind(object sig, tuple args, dict kwargs, bint partial):
    if partial:
        return sig._bind(args, kwargs, partial=True)
    return sig._bind(args, kwargs)


def bind_signature(sig, tuple args not None, dict kwargs not None, bint partial):
    """``sig._bind(args, kwargs, partial=partial)``, as inspect's own
    (``kwargs`` is consumed as ``_bind`` consumes it): the BoundArguments,
    or the TypeError inspect raises, returned for the caller to raise."""
    bound = _bind_or_reason(sig, args, kwargs, partial)
    if type(bound) is str:
        return _private_bind(sig, args, kwargs, partial)
    return bound


cdef object _bind_or_reason(object sig, tuple args, dict kwargs, bint partial):
    """What ``bind_signature`` answers, or the reason (a key of
    ``FALLBACK_REASONS``) why inspect's own code must answer instead.
    (Errors are returned, not raised: raised here, an error would cost four
    times a binding, an exception leaving compiled code getting a traceback
    entry, code object and frame per level, and would show them.)"""
    if not _readable(sig):
        return _R_SIGNATURE_CLASS
    cdef PyObject *params = _parameters_dict(sig)
    if params == NULL:
        return _R_SIGNATURE_CLASS
    cdef _param stack[_ON_STACK]
    cdef _param *parameters = stack
    cdef Py_ssize_t size = PyDict_GET_SIZE(params)
    if size > _ON_STACK:
        parameters = <_param *>PyMem_Malloc(size * sizeof(_param))
        if parameters == NULL:
            raise MemoryError()
    held = <object>params  # the parameters stay alive while their pointers are used
    try:
        if _read_parameters(params, parameters, size) != size:
            return _R_PARAMETER_CLASS
        arguments = _bind_parameters(parameters, size, args, kwargs, partial)
    finally:
        if parameters != stack:
            PyMem_Free(parameters)
    if type(arguments) is not dict:
        return arguments  # the TypeError
    return _bound_arguments(sig, arguments)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef object _bind_parameters(_param *parameters, Py_ssize_t count, tuple args, dict kwargs,
                             bint partial):
    """The arguments inspect's ``Signature._bind`` gives (a dict), or the
    TypeError it raises: its steps, with the same checks in the same order;
    its iterators became indices."""
    cdef dict arguments = {}
    cdef Py_ssize_t nargs = PyTuple_GET_SIZE(<PyObject *>args)
    cdef Py_ssize_t i = 0, index = 0, start = -1
    cdef _param *param
    cdef PyObject *value
    cdef PyObject *kwargs_name = NULL
    cdef PyObject *key
    cdef Py_ssize_t pos = 0
    cdef object posonly_in_kwargs = None
    cdef object name
    while True:
        if i == nargs:
            # No more positional arguments.
            if index == count:
                break
            param = &parameters[index]
            index += 1
            if param.kind == VAR_POSITIONAL:
                break
            elif PyDict_Contains(<PyObject *>kwargs, param.name):
                if param.kind == POSITIONAL_ONLY:
                    name = <object>param.name
                    if _POSONLY_KEYWORD == POSONLY_KEYWORD_REFUSED:
                        return _refusal(_filled(_POSITIONAL_ONLY_BY_KEYWORD, name), True)
                    if (_POSONLY_KEYWORD == POSONLY_KEYWORD_REQUIRED_MISSING
                            and param.default == <PyObject *>_empty):
                        return _posonly_missing(name)
                    if posonly_in_kwargs is None:
                        posonly_in_kwargs = []
                    posonly_in_kwargs.append(name)
                    continue
                start = index - 1
                break
            elif param.kind == VAR_KEYWORD or param.default != <PyObject *>_empty or partial:
                start = index - 1
                break
            else:
                name = <object>param.name
                if _KWONLY_MISSING_MESSAGE and param.kind == KEYWORD_ONLY:
                    return _refusal(_filled(_MISSING_KEYWORD_ONLY_ARGUMENT, name), True)
                return _refusal(_filled(_MISSING_ARGUMENT, name), True)
        else:
            # A positional argument to place.
            if index == count:
                return _refusal(_TOO_MANY_POSITIONAL, True)
            param = &parameters[index]
            index += 1
            if param.kind == VAR_KEYWORD or param.kind == KEYWORD_ONLY:
                return _refusal(_TOO_MANY_POSITIONAL, True)
            if param.kind == VAR_POSITIONAL:
                extra = _tuple_from_array(tuple_items(<PyObject *>args, i), nargs - i)
                PyDict_SetItem(<PyObject *>arguments, param.name, <PyObject *>extra)
                break
            if param.kind != POSITIONAL_ONLY and PyDict_Contains(<PyObject *>kwargs, param.name):
                name = <object>param.name
                return _refusal(_filled(_MULTIPLE_VALUES_FOR, name), True)
            PyDict_SetItem(<PyObject *>arguments, param.name, PyTuple_GET_ITEM(<PyObject *>args, i))
            i += 1

    # The keyword phase, from the parameter the positionals stopped at.
    if start < 0:
        start = index
    if PyDict_GET_SIZE(<PyObject *>kwargs) == 0 and partial:
        # Nothing to take, nothing can be missing: only **kwargs would be
        # looked for, and it only counts when keywords are left.
        return arguments
    for index in range(start, count):
        param = &parameters[index]
        if param.kind == VAR_KEYWORD:
            kwargs_name = param.name
            continue
        if param.kind == VAR_POSITIONAL:
            continue
        value = PyDict_GetItemWithError(<PyObject *>kwargs, param.name)
        if value != NULL:
            held_value = <object>value
            PyDict_DelItem(<PyObject *>kwargs, param.name)
            if _POSONLY_KEYWORD == POSONLY_KEYWORD_REFUSED and param.kind == POSITIONAL_ONLY:
                name = <object>param.name
                return _refusal(_filled(_POSITIONAL_ONLY_BY_KEYWORD, name), False)
            PyDict_SetItem(<PyObject *>arguments, param.name, value)
        elif not partial and param.default == <PyObject *>_empty:
            name = <object>param.name
            return _refusal(_filled(_MISSING_ARGUMENT, name), True)

    if PyDict_GET_SIZE(<PyObject *>kwargs):
        if kwargs_name != NULL:
            PyDict_SetItem(<PyObject *>arguments, kwargs_name, <PyObject *>kwargs)
        elif posonly_in_kwargs is not None:
            return _refusal(_filled(_POSITIONAL_ONLY_KEYWORDS, ", ".join(posonly_in_kwargs)), False)
        else:
            PyDict_Next(<PyObject *>kwargs, &pos, &key, &value)  # the first keyword left
            name = <object>key
            return _refusal(_filled(_UNEXPECTED_KEYWORD_ARGUMENT, name), False)
    return arguments


# -- BoundArguments ---------------------------------------------------------------

cdef PyObject *_bound_parameters(object bound) except? NULL:
    """The parameters dict of a plain BoundArguments whose signature is
    readable and whose arguments are a dict (borrowed), or NULL."""
    if Py_TYPE(bound) != <PyTypeObject *>_BoundArguments or not _SLOTS_KNOWN:
        return NULL
    cdef PyObject *sig = _slot(<PyObject *>bound, _BOUND_SIGNATURE)
    cdef PyObject *arguments = _slot(<PyObject *>bound, _BOUND_ARGUMENTS)
    if sig == NULL or arguments == NULL or not PyDict_CheckExact(arguments):
        return NULL
    if not _readable(<object>sig):
        return NULL
    return _parameters_dict(<object>sig)


def bound_args(bound):
    """``BoundArguments.args``."""
    args = _args_or_reason(bound)
    return _INSPECT_ARGS(bound) if type(args) is str else args


cdef inline PyObject *_argument(PyObject *arguments, Py_ssize_t *walk, PyObject *name) except? NULL:
    """``arguments[name]`` (borrowed), or NULL where it is not there.  A
    bind fills the arguments in the parameters' order, so the entry after
    the last one found (``walk``) is tried first, by identity; a lookup
    answers otherwise."""
    cdef Py_ssize_t pos = walk[0]
    cdef PyObject *key
    cdef PyObject *value
    if PyDict_Next(arguments, &pos, &key, &value) and key == name:
        walk[0] = pos
        return value
    return PyDict_GetItemWithError(arguments, name)


cdef object _args_or_reason(object bound):
    cdef PyObject *params = _bound_parameters(bound)
    if params == NULL:
        return _R_BOUND_ARGUMENTS
    cdef PyObject *arguments = _slot(<PyObject *>bound, _BOUND_ARGUMENTS)
    cdef Py_ssize_t pos = 0, walk = 0, n = 0, i
    cdef PyObject *key
    cdef PyObject *value
    cdef PyObject *given
    cdef _param param
    # The values, owned, until the tuple takes them: no list on the way
    # unless there are more than fit or a *args to extend by.
    cdef PyObject *found[_ON_STACK]
    cdef list args = None
    held_params = <object>params  # alive while their items are read
    held_arguments = <object>arguments
    try:
        while PyDict_Next(params, &pos, &key, &value):
            if not _read_parameter(value, &param):
                return _R_PARAMETER_CLASS
            if param.kind == VAR_KEYWORD or param.kind == KEYWORD_ONLY:
                break
            given = _argument(arguments, &walk, param.name)
            if given == NULL:
                break
            if args is None:
                if param.kind != VAR_POSITIONAL and n < _ON_STACK:
                    Py_INCREF(given)
                    found[n] = given
                    n += 1
                    continue
                if (param.kind == VAR_POSITIONAL and PyTuple_CheckExact(given)
                        and n + PyTuple_GET_SIZE(given) <= _ON_STACK):
                    for i in range(PyTuple_GET_SIZE(given)):
                        found[n] = PyTuple_GET_ITEM(given, i)
                        Py_INCREF(found[n])
                        n += 1
                    continue
                args = PyList_New(n)
                for i in range(n):
                    PyList_SET_ITEM(<PyObject *>args, i, found[i])  # steals
                n = 0
            if param.kind == VAR_POSITIONAL:
                args.extend(<object>given)
            else:
                PyList_Append(<PyObject *>args, given)
        if args is not None:
            return PyList_AsTuple(args)
        result = PyTuple_New(n)
        for i in range(n):
            PyTuple_SET_ITEM(<PyObject *>result, i, found[i])  # steals
        n = 0
        return result
    finally:
        for i in range(n):
            Py_DECREF(found[i])


def bound_kwargs(bound):
    """``BoundArguments.kwargs``."""
    kwargs = _kwargs_or_reason(bound)
    return _INSPECT_KWARGS(bound) if type(kwargs) is str else kwargs


cdef object _kwargs_or_reason(object bound):
    cdef PyObject *params = _bound_parameters(bound)
    if params == NULL:
        return _R_BOUND_ARGUMENTS
    cdef PyObject *arguments = _slot(<PyObject *>bound, _BOUND_ARGUMENTS)
    cdef Py_ssize_t pos = 0
    cdef PyObject *key
    cdef PyObject *value
    cdef PyObject *given
    cdef _param param
    cdef bint started = False
    cdef Py_ssize_t walk = 0
    held_params = <object>params  # alive while their items are read
    held_arguments = <object>arguments
    cdef dict kwargs = {}
    while PyDict_Next(params, &pos, &key, &value):
        if not _read_parameter(value, &param):
            return _R_PARAMETER_CLASS
        if not started:
            if param.kind == VAR_KEYWORD or param.kind == KEYWORD_ONLY:
                started = True
            else:
                if _argument(arguments, &walk, param.name) == NULL:
                    started = True
                continue
        given = _argument(arguments, &walk, param.name)
        if given != NULL:
            if param.kind == VAR_KEYWORD:
                if PyDict_GET_SIZE(<PyObject *>kwargs) == 0 and PyDict_CheckExact(given):
                    kwargs = PyDict_Copy(given)  # what update() makes of it
                else:
                    kwargs.update(<object>given)
            else:
                PyDict_SetItem(<PyObject *>kwargs, param.name, given)
    return kwargs


def apply_defaults(bound):
    """``BoundArguments.apply_defaults()``."""
    if _apply_defaults_core(bound) is not None:
        _INSPECT_APPLY_DEFAULTS(bound)


cdef object _apply_defaults_core(object bound):
    cdef PyObject *params = _bound_parameters(bound)
    if params == NULL:
        return _R_BOUND_ARGUMENTS
    cdef PyObject *arguments = _slot(<PyObject *>bound, _BOUND_ARGUMENTS)
    cdef Py_ssize_t pos = 0
    cdef PyObject *key
    cdef PyObject *value
    cdef PyObject *given
    cdef _param param
    held_params = <object>params  # alive while their items are read
    held_arguments = <object>arguments
    cdef dict new_arguments = {}
    cdef Py_ssize_t walk = 0
    while PyDict_Next(params, &pos, &key, &value):
        if not _read_parameter(value, &param):
            return _R_PARAMETER_CLASS
        given = _argument(arguments, &walk, param.name)
        if given != NULL:
            PyDict_SetItem(<PyObject *>new_arguments, param.name, given)
        elif param.default != <PyObject *>_empty:
            PyDict_SetItem(<PyObject *>new_arguments, param.name, param.default)
        elif param.kind == VAR_POSITIONAL:
            PyDict_SetItem(<PyObject *>new_arguments, param.name, <PyObject *>_EMPTY_TUPLE)
        elif param.kind == VAR_KEYWORD:
            empty = {}
            PyDict_SetItem(<PyObject *>new_arguments, param.name, <PyObject *>empty)
    # inspect's ``self.arguments = new_arguments``, into the slot (the type is
    # inspect's own: nothing else happens on that assignment).
    Py_INCREF(<PyObject *>new_arguments)
    (<PyObject **>(<char *><PyObject *>bound + _BOUND_ARGUMENTS))[0] = <PyObject *>new_arguments
    Py_DECREF(arguments)
    return None


# -- signatures of plain functions ----------------------------------------------------

cdef PyTypeObject *_plain_signature_class = NULL
cdef unsigned int _plain_signature_class_version = 0


cdef bint _makes_plain_signatures(object cls) except -1:
    """Whether ``cls(parameters, return_annotation=..., __validate_parameters__=False)``
    is inspect.Signature's own making, of inspect's Parameters."""
    global _plain_signature_class, _plain_signature_class_version
    if not isinstance(cls, type) or not _SLOTS_KNOWN:
        return False
    cdef PyTypeObject *tp = <PyTypeObject *>cls
    if _known(tp, _plain_signature_class, _plain_signature_class_version):
        return True
    if (not issubclass(cls, DIALECT.Signature) or cls.__init__ is not _SIGNATURE_INIT
            or cls.__new__ is not _OBJECT_NEW or cls._parameter_cls is not _Parameter):
        return False
    _plain_signature_class = tp
    _plain_signature_class_version = (<PyTypeObject_version *>tp).tp_version_tag
    return True


cdef object _new_parameter(PyObject *name, int kind, PyObject *default, PyObject *annotations):
    """A Parameter as inspect makes it, its four slots written."""
    param = _new_instance(_Parameter)
    cdef PyObject *annotation = PyDict_GetItemWithError(annotations, name)
    _set_slot(<PyObject *>param, _PARAM_NAME, name)
    _set_slot(<PyObject *>param, _PARAM_KIND, _KINDS[kind])
    _set_slot(<PyObject *>param, _PARAM_DEFAULT, default)
    _set_slot(<PyObject *>param, _PARAM_ANNOTATION,
              annotation if annotation != NULL else <PyObject *>_empty)
    return param


@cython.boundscheck(False)
@cython.wraparound(False)
def function_signature(cls, func, follow_wrapped=True):
    """``cls.from_callable(func, follow_wrapped=follow_wrapped)`` for a plain
    Python function whose signature is what its code, defaults and
    annotations say (``__wrapped__`` aside where ``follow_wrapped`` is
    ``False``); ``None`` for anything else, and for ``cls`` other than a
    plain ``Signature`` class.

    The parameters are made as ``inspect._signature_from_function`` makes
    them, without ``Parameter()``'s checks: a code object's names are
    identifiers, and the few that are not are left to inspect."""
    if Py_TYPE(func) != &PyFunction_Type:
        return None
    cdef PyObject *attributes = posonly_function_dict(<PyObject *>func)
    if attributes != NULL and PyDict_GET_SIZE(attributes):
        refused = _UNWRAPPED_SIGNATURE_ATTRIBUTES if follow_wrapped is False else _SIGNATURE_ATTRIBUTES
        if not refused.isdisjoint(<object>attributes):
            return None
    for attribute in _FUNCTION_TYPE_ATTRIBUTES:  # none on CPython
        if getattr(func, attribute, None):
            return None
    if not _makes_plain_signatures(cls):
        return None
    code = <object>PyFunction_GET_CODE(<PyObject *>func)
    cdef Py_ssize_t pos_count = posonly_code_argcount(<PyObject *>code)
    cdef Py_ssize_t posonly_count = posonly_code_posonlyargcount(<PyObject *>code)
    cdef Py_ssize_t kwonly_count = posonly_code_kwonlyargcount(<PyObject *>code)
    cdef int flags = posonly_code_flags(<PyObject *>code)
    cdef bint has_varargs = (flags & _CO_VARARGS) != 0
    cdef bint has_varkw = (flags & _CO_VARKEYWORDS) != 0
    cdef Py_ssize_t total = pos_count + kwonly_count + has_varargs + has_varkw
    names = <object>posonly_code_names(<PyObject *>code)
    cdef PyObject **name_items = tuple_items(<PyObject *>names, 0)
    cdef Py_ssize_t i, first_default, index
    cdef PyObject *name
    cdef PyObject *default
    if PyTuple_GET_SIZE(<PyObject *>names) < total:
        return None
    for i in range(total):
        name = name_items[i]
        if (not PyUnicode_CheckExact(name) or not PyUnicode_IsIdentifier(name)
                or PySet_Contains(<PyObject *>_KEYWORDS, name)):
            return None
    cdef PyObject *given_defaults = PyFunction_GET_DEFAULTS(<PyObject *>func)
    defaults = <object>given_defaults if given_defaults != NULL else ()
    if PyTuple_GET_SIZE(<PyObject *>defaults) > pos_count:
        return None
    cdef PyObject *kwdefaults = PyFunction_GET_KW_DEFAULTS(<PyObject *>func)
    try:
        annotations = func.__annotations__
    except Exception:  # inspect raises it, or answers otherwise
        return None
    if type(annotations) is not dict:
        return None
    held = (names, defaults, <object>kwdefaults if kwdefaults != NULL else None)

    params = _PARAMETERS_DICT()
    first_default = pos_count - PyTuple_GET_SIZE(<PyObject *>defaults)
    for i in range(pos_count):
        name = name_items[i]
        default = (PyTuple_GET_ITEM(<PyObject *>defaults, i - first_default) if i >= first_default
                   else <PyObject *>_empty)
        _add_parameter(params, name, POSITIONAL_ONLY if i < posonly_count else POSITIONAL_OR_KEYWORD,
                       default, annotations)
    index = pos_count + kwonly_count
    if has_varargs:
        _add_parameter(params, name_items[index], VAR_POSITIONAL, <PyObject *>_empty, annotations)
        index += 1
    for i in range(pos_count, pos_count + kwonly_count):
        name = name_items[i]
        default = NULL
        if kwdefaults != NULL:
            default = PyDict_GetItemWithError(kwdefaults, name)
        # Held: making the Parameter can run Python code (a collection's
        # finalizers, an annotations key's own __eq__) that empties the dict.
        held_default = <object>default if default != NULL else _empty
        _add_parameter(params, name, KEYWORD_ONLY, <PyObject *>held_default, annotations)
    if has_varkw:
        _add_parameter(params, name_items[index], VAR_KEYWORD, <PyObject *>_empty, annotations)

    sig = _new_instance(cls)
    cdef PyObject *return_annotation = PyDict_GetItemWithError(<PyObject *>annotations, <PyObject *>_RETURN)
    held_return = <object>return_annotation if return_annotation != NULL else _empty  # (as above)
    proxy = PyDictProxy_New(params)
    _set_slot(<PyObject *>sig, _SIG_PARAMETERS, <PyObject *>proxy)
    _set_slot(<PyObject *>sig, _SIG_RETURN, <PyObject *>held_return)
    return sig


cdef inline int _add_parameter(object params, PyObject *name, int kind, PyObject *default,
                               dict annotations) except -1:
    param = _new_parameter(name, kind, default, <PyObject *>annotations)
    if _PARAMETERS_EXACT_DICT:
        return PyDict_SetItem(<PyObject *>params, name, <PyObject *>param)
    return PyObject_SetItem(<PyObject *>params, name, <PyObject *>param)



# -- the patched entry points ------------------------------------------------------
#
# ``InspectMethod``: what patch_inspect() puts in place of inspect's
# functions.  Called through vectorcall (posonly_method_vectorcall, in C):
# the caller's arguments reach the core below with no Python frame of
# posonly's, and what the core answers is returned, raised, or handed to
# inspect's own function as _dropin.h describes.  On a class it is called
# with the instance first, making no bound method (a method descriptor);
# looked up, it binds as a function does; it poses as inspect's function
# (name, qualname, module, doc, ``__wrapped__`` and, read through, every
# other attribute of the function), so that ``inspect.signature``,
# ``help`` and ``mock.create_autospec`` answer for it as for inspect's.

cdef object _MethodType = MethodType


cdef dict _kwargs_dict(PyObject **values, PyObject *kwnames):
    cdef dict kwargs = {}
    cdef Py_ssize_t i
    if kwnames != NULL:
        for i in range(PyTuple_GET_SIZE(kwnames)):
            PyDict_SetItem(<PyObject *>kwargs, PyTuple_GET_ITEM(kwnames, i), values[i])
    return kwargs


cdef inline bint _no_keywords(PyObject *kwnames) noexcept:
    return kwnames == NULL or PyTuple_GET_SIZE(kwnames) == 0


cdef object _bind_vector(PyObject **args, size_t nargsf, PyObject *kwnames, bint partial):
    """``Signature.bind``/``bind_partial`` called with the caller's array:
    ``args[0]`` is the signature.  A call that binds without a doubt is
    bound straight from the array and ``kwnames``; any other (errors above
    all) goes the way of ``bind_signature``, with inspect's messages."""
    cdef Py_ssize_t nargs = PyVectorcall_NARGS(nargsf)
    if nargs < 1:
        return _R_CALL
    sig = <object>args[0]
    if not _readable(sig):
        return _R_SIGNATURE_CLASS
    cdef PyObject *params = _parameters_dict(sig)
    if params == NULL:
        return _R_SIGNATURE_CLASS
    global _tick
    cdef PyObject *found = posonly_find_plan(params, <PyTypeObject *>_Plan)
    cdef _Plan plan
    if found != NULL and (<_Plan>found).count == PyDict_GET_SIZE(params):
        plan = <_Plan>found
        plan.used = True
        arguments = _bind_planned(plan, args + 1, nargs - 1, kwnames, partial)
    else:
        if found == NULL:
            _tick -= 1
            if _tick <= 0:
                _tick = _SAMPLE
                _make_plan(params)
        arguments = _bind_direct(params, args + 1, nargs - 1, kwnames, partial)
    if arguments is not None:
        return _bound_arguments(sig, arguments)
    return _bind_or_reason(sig, _tuple_from_array(args + 1, nargs - 1),
                      _kwargs_dict(args + nargs, kwnames), partial)


cdef inline Py_ssize_t _keyword_index(PyObject *kwnames, Py_ssize_t nkw, PyObject *name) noexcept:
    """The index of the keyword ``name`` (an exact str) in ``kwnames``: by
    identity, then by value; -1 where there is none, -2 where a keyword is
    not an exact str (its own ``__eq__`` decides: the general way)."""
    cdef Py_ssize_t j
    cdef PyObject *key
    for j in range(nkw):
        if PyTuple_GET_ITEM(kwnames, j) == name:
            return j
    for j in range(nkw):
        key = PyTuple_GET_ITEM(kwnames, j)
        if not PyUnicode_CheckExact(key):
            return -2
        if posonly_str_eq(key, name) > 0:
            return j
    return -1


cdef enum:
    _MAX_FAST_KEYWORDS = 64  # calls with more keywords take the general way


@cython.boundscheck(False)
@cython.wraparound(False)
cdef object _bind_direct(PyObject *params, PyObject **args, Py_ssize_t nargs, PyObject *kwnames,
                         bint partial):
    """The arguments (a dict) inspect's ``_bind`` gives for a call that it
    binds without a problem, read from the caller's array in one pass over
    the parameters as they are read; None for any other call, and for
    parameters out of inspect's order, which the general way answers.  The
    dict is filled in inspect's order: the positionals, ``*args`` when extra
    positionals were given, the parameters given by keyword in the
    signature's order, then ``**kwargs`` with the keywords left, in the
    call's order."""
    cdef Py_ssize_t pos = 0, i = 0, j, nkw = 0, matched = 0
    cdef PyObject *key
    cdef PyObject *value
    cdef PyObject *varkw = NULL
    cdef _param param
    cdef int last = -1
    cdef char taken[_MAX_FAST_KEYWORDS]
    cdef PyObject **kwvalues = args + nargs
    if kwnames != NULL:
        nkw = PyTuple_GET_SIZE(kwnames)
        if nkw > _MAX_FAST_KEYWORDS:
            return None
        for j in range(nkw):
            taken[j] = 0
    cdef dict arguments = {}
    held = <object>params  # the parameters stay alive while their pointers are used
    while PyDict_Next(params, &pos, &key, &value):
        if not _read_parameter(value, &param) or not PyUnicode_CheckExact(param.name):
            return None
        if param.kind < last or (param.kind == last and (param.kind == VAR_POSITIONAL
                                                           or param.kind == VAR_KEYWORD)):
            return None  # out of inspect's order
        last = param.kind
        if param.kind == VAR_POSITIONAL:
            if i < nargs:
                extra = _tuple_from_array(args + i, nargs - i)
                PyDict_SetItem(<PyObject *>arguments, param.name, <PyObject *>extra)
                i = nargs
            continue
        if param.kind == VAR_KEYWORD:
            varkw = param.name
            continue
        if param.kind <= POSITIONAL_OR_KEYWORD and i < nargs:
            # Given by position: a keyword of its name is a second value
            # (one for **kwargs where the parameter is positional-only).
            if nkw and param.kind == POSITIONAL_OR_KEYWORD:
                if _keyword_index(kwnames, nkw, param.name) != -1:
                    return None
            PyDict_SetItem(<PyObject *>arguments, param.name, args[i])
            i += 1
            continue
        j = _keyword_index(kwnames, nkw, param.name) if nkw else -1
        if j >= 0:
            if param.kind == POSITIONAL_ONLY:
                return None  # a positional-only parameter named by keyword
            PyDict_SetItem(<PyObject *>arguments, param.name, kwvalues[j])
            taken[j] = 1
            matched += 1
        elif j == -2 or (not partial and param.default == <PyObject *>_empty):
            return None  # missing
    if i < nargs:
        return None  # too many positional arguments
    if matched < nkw:
        if varkw == NULL:
            return None  # an unexpected keyword
        left = {}
        for j in range(nkw):
            if not taken[j]:
                PyDict_SetItem(<PyObject *>left, PyTuple_GET_ITEM(kwnames, j), kwvalues[j])
        PyDict_SetItem(<PyObject *>arguments, varkw, <PyObject *>left)
    return arguments


@cython.boundscheck(False)
@cython.wraparound(False)
cdef object _bind_planned(_Plan plan, PyObject **args, Py_ssize_t nargs, PyObject *kwnames,
                          bint partial):
    """``_bind_direct`` from a plan: the same steps over its array."""
    cdef Py_ssize_t index, i = 0, j, nkw = 0, matched = 0
    cdef PyObject *varkw = NULL
    cdef _planned *param
    cdef char taken[_MAX_FAST_KEYWORDS]
    cdef PyObject **kwvalues = args + nargs
    if kwnames != NULL:
        nkw = PyTuple_GET_SIZE(kwnames)
        if nkw > _MAX_FAST_KEYWORDS:
            return None
        for j in range(nkw):
            taken[j] = 0
    cdef dict arguments = {}
    for index in range(plan.count):
        param = &plan.params[index]
        if param.kind == VAR_POSITIONAL:
            if i < nargs:
                extra = _tuple_from_array(args + i, nargs - i)
                PyDict_SetItem(<PyObject *>arguments, param.name, <PyObject *>extra)
                i = nargs
            continue
        if param.kind == VAR_KEYWORD:
            varkw = param.name
            continue
        if param.kind <= POSITIONAL_OR_KEYWORD and i < nargs:
            if nkw and param.kind == POSITIONAL_OR_KEYWORD:
                if _keyword_index(kwnames, nkw, param.name) != -1:
                    return None
            PyDict_SetItem(<PyObject *>arguments, param.name, args[i])
            i += 1
            continue
        j = _keyword_index(kwnames, nkw, param.name) if nkw else -1
        if j >= 0:
            if param.kind == POSITIONAL_ONLY:
                return None
            PyDict_SetItem(<PyObject *>arguments, param.name, kwvalues[j])
            taken[j] = 1
            matched += 1
        elif j == -2 or (not partial and param.required):
            return None
    if i < nargs:
        return None
    if matched < nkw:
        if varkw == NULL:
            return None
        left = {}
        for j in range(nkw):
            if not taken[j]:
                PyDict_SetItem(<PyObject *>left, PyTuple_GET_ITEM(kwnames, j), kwvalues[j])
        PyDict_SetItem(<PyObject *>arguments, varkw, <PyObject *>left)
    return arguments


cdef object _answer_bind(object self, PyObject **args, size_t nargsf, PyObject *kwnames):
    return _bind_vector(args, nargsf, kwnames, False)


cdef object _answer_bind_partial(object self, PyObject **args, size_t nargsf, PyObject *kwnames):
    return _bind_vector(args, nargsf, kwnames, True)


cdef object _answer_apply_defaults(object self, PyObject **args, size_t nargsf, PyObject *kwnames):
    if PyVectorcall_NARGS(nargsf) != 1 or not _no_keywords(kwnames):
        return _R_CALL
    return _apply_defaults_core(<object>args[0])


cdef object _answer_args(object self, PyObject **args, size_t nargsf, PyObject *kwnames):
    if PyVectorcall_NARGS(nargsf) != 1 or not _no_keywords(kwnames):
        return _R_CALL
    return _args_or_reason(<object>args[0])


cdef object _answer_kwargs(object self, PyObject **args, size_t nargsf, PyObject *kwnames):
    if PyVectorcall_NARGS(nargsf) != 1 or not _no_keywords(kwnames):
        return _R_CALL
    return _kwargs_or_reason(<object>args[0])


cdef str _FOLLOW_WRAPPED = "follow_wrapped"
cdef str _ENTRY_SIGNATURE = "inspect.signature"
cdef str _ENTRY_FROM_CALLABLE = "Signature.from_callable"


cdef object _signature_vector(object serve, str entry, object cls, object obj, PyObject **values,
                              PyObject *kwnames):
    """A signature entry point's answer: the signature the core makes for a
    plain function called without options, else the call of
    ``serve(entry, cls, obj, follow_wrapped, options)`` (the options path,
    ``_options.signature_fallback``)."""
    cdef Py_ssize_t i
    cdef PyObject *name
    follow_wrapped = True
    options = None
    if kwnames != NULL:
        for i in range(PyTuple_GET_SIZE(kwnames)):
            name = PyTuple_GET_ITEM(kwnames, i)
            if name == <PyObject *>_FOLLOW_WRAPPED or <object>name == _FOLLOW_WRAPPED:
                follow_wrapped = <object>values[i]
            else:
                if options is None:
                    options = {}
                PyDict_SetItem(<PyObject *>options, name, values[i])
    if options is None:
        if Py_TYPE(obj) == &PyFunction_Type:
            sig = function_signature(cls, obj, follow_wrapped)
            if sig is not None:
                return sig
        # Other kinds (methods, classes, ...): served, or handed to inspect's
        # own code, by ``serve``.
        options = {}
    return [serve, (entry, cls, obj, follow_wrapped, options)]


cdef object _answer_signature(object self, PyObject **args, size_t nargsf, PyObject *kwnames):
    if PyVectorcall_NARGS(nargsf) != 1:
        return _R_CALL
    # inspect.signature looks its Signature class up when called.
    return _signature_vector((<InspectMethod>self)._serve, _ENTRY_SIGNATURE,
                             _inspect_module.Signature, <object>args[0], args + 1, kwnames)


cdef object _answer_from_callable(object self, PyObject **args, size_t nargsf, PyObject *kwnames):
    if PyVectorcall_NARGS(nargsf) != 2:
        return _R_CALL
    return _signature_vector((<InspectMethod>self)._serve, _ENTRY_FROM_CALLABLE, <object>args[0],
                             <object>args[1], args + 2, kwnames)


cdef object _answer_forward(object self, PyObject **args, size_t nargsf, PyObject *kwnames):
    # The call, as it came, to ``serve`` (``getfullargspec``, ``getcallargs``:
    # what they return is neither a str, a list nor a TypeError, so it is
    # returned as it is).
    return PyObject_Vectorcall((<InspectMethod>self)._serve, args, nargsf, kwnames)


@cython.final
cdef class InspectMethod:
    """InspectMethod(answer, original, qualname, entry, serve=None)

    One of inspect's functions, served by the compiled drop-in: ``answer``
    names what answers it (``bind``, ``bind_partial``, ``apply_defaults``,
    ``args``, ``kwargs``, ``signature``, ``from_callable``, or ``forward``:
    every call handed to ``serve``), ``original`` is inspect's function
    (called for what the core does not serve, and whose name, documentation
    and attributes this one shows), ``entry`` the name reported to the
    observer (None: not reported), ``serve`` what answers the calls the core
    hands on (the options path: a compiled function, so no Python frame)."""

    cdef posonly_method _c  # its vectorcall pointer is read by the interpreter
    cdef object _original
    cdef object _entry
    cdef object _serve
    cdef dict __dict__
    cdef object __weakref__

    def __cinit__(self, str answer not None, original, str qualname not None, entry, serve=None):
        if answer == "bind":
            self._c.answer = <posonly_method_answer>_answer_bind
        elif answer == "bind_partial":
            self._c.answer = <posonly_method_answer>_answer_bind_partial
        elif answer == "apply_defaults":
            self._c.answer = <posonly_method_answer>_answer_apply_defaults
        elif answer == "args":
            self._c.answer = <posonly_method_answer>_answer_args
        elif answer == "kwargs":
            self._c.answer = <posonly_method_answer>_answer_kwargs
        elif answer == "signature":
            self._c.answer = <posonly_method_answer>_answer_signature
        elif answer == "from_callable":
            self._c.answer = <posonly_method_answer>_answer_from_callable
        elif answer == "forward":
            self._c.answer = <posonly_method_answer>_answer_forward
        else:
            raise ValueError(f"no drop-in answer {answer!r}")
        if not callable(original):
            raise TypeError("original must be callable")
        if (answer == "signature" or answer == "from_callable" or answer == "forward") != callable(serve):
            raise TypeError(f"serve must be callable for the answer {answer!r}, else None")
        if entry is not None and type(entry) is not str:
            raise TypeError("entry must be a str or None")
        self._c.vectorcall = <vectorcallfunc>posonly_method_vectorcall
        self._original = original
        self._c.original = <PyObject *>original
        self._entry = entry
        self._serve = serve
        self._c.entry = NULL if entry is None else <PyObject *>entry
        attributes = getattr(self, "__dict__")
        attributes["__module__"] = getattr(original, "__module__", None)
        attributes["__qualname__"] = qualname
        attributes["__name__"] = qualname.rpartition(".")[2]
        attributes["__doc__"] = getattr(original, "__doc__", None)
        attributes["__wrapped__"] = original

    @property
    def __class__(self):
        # isinstance() asks __class__ when type() says no: a function, as
        # inspect's is (mock.create_autospec and inspect.isfunction look),
        # whose code-level attributes are read through below.
        return FunctionType

    def __getattr__(self, name):
        # Every other attribute of inspect's function (__code__,
        # __defaults__, __annotations__, ...), read through.
        return getattr(self._original, name)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return _MethodType(self, instance)

    def __call__(self, *args, **kwargs):
        # What collections.abc.Callable looks for; the interpreter's calls
        # take the vectorcall slot.
        return PyVectorcall_Call(self, args, kwargs)

    def __reduce__(self):
        return self.__qualname__

    def __repr__(self):
        return f"<function {self.__qualname__} at {id(self):#x}>"


def set_observer(observer):
    """Report each call of a patched entry point as ``observer(entry,
    reason)`` (see ``_dialect``); None: report nothing."""
    if observer is not None and not callable(observer):
        raise TypeError("observer must be callable or None")
    posonly_set_observer(observer)


def get_observer():
    """The observer set, or None."""
    return posonly_get_observer()


cdef InspectMethod _method_probe = InspectMethod("bind", len, "probe", None)
posonly_install_vectorcall(
    <PyTypeObject *>InspectMethod,
    <Py_ssize_t>(<char *>&_method_probe._c.vectorcall - <char *><PyObject *>_method_probe))
posonly_declare_method_descriptor(<PyTypeObject *>InspectMethod)
_method_probe = None
