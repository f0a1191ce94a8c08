# Layout's methods on a call's values, compiled (included by _bind.pyx).
#
# The twins of Layout.arguments, values, replace, key and instance as
# _values.py writes them in Python: the same behaviour, the same messages,
# the same docstrings.  Where this module is the implementation in use, the
# selector (posonly/__init__.py) puts them on Layout in place of the pure
# ones (LAYOUT_METHODS).  They read the layout's slots in C, at the offsets
# of Layout's member descriptors, and need nothing made per layout: a
# handler's call costs a C function call and the result's allocation.

from posonly._values import PURE_VALUE_METHODS

cdef extern from "Python.h":
    object PyDict_New()
    object PyFrozenSet_New(object iterable)

cdef Py_ssize_t _LAYOUT_NAME = posonly_slot_offset(Layout.__dict__["name"])
cdef Py_ssize_t _LAYOUT_NAMES = posonly_slot_offset(Layout.__dict__["names"])
cdef Py_ssize_t _LAYOUT_POSONLY = posonly_slot_offset(Layout.__dict__["posonly"])
cdef Py_ssize_t _LAYOUT_POSITIONAL = posonly_slot_offset(Layout.__dict__["positional"])
cdef Py_ssize_t _LAYOUT_VARARGS = posonly_slot_offset(Layout.__dict__["varargs"])
cdef Py_ssize_t _LAYOUT_KWONLY = posonly_slot_offset(Layout.__dict__["kwonly"])
cdef Py_ssize_t _LAYOUT_VARKW = posonly_slot_offset(Layout.__dict__["varkw"])
cdef Py_ssize_t _LAYOUT_DEFAULTS = posonly_slot_offset(Layout.__dict__["defaults"])
cdef Py_ssize_t _LAYOUT_KWDEFAULTS = posonly_slot_offset(Layout.__dict__["_kwdefaults"])
if min(_LAYOUT_NAME, _LAYOUT_NAMES, _LAYOUT_POSONLY, _LAYOUT_POSITIONAL, _LAYOUT_VARARGS,
       _LAYOUT_KWONLY, _LAYOUT_VARKW, _LAYOUT_DEFAULTS, _LAYOUT_KWDEFAULTS) < 0:
    raise ImportError("posonly: Layout's fields are not the slots this module reads")


ctypedef struct _shape:
    # A layout's numbers, read from its slots (borrowed: the layout holds them)
    PyObject *names
    Py_ssize_t size, argcount, total, varargs_slot, varkw_slot


cdef inline PyObject *_layout_slot(object layout, Py_ssize_t offset):
    return (<PyObject **>(<char *><PyObject *>layout + offset))[0]


cdef PyTypeObject *_LAYOUT_TYPE = <PyTypeObject *>Layout


cdef int _read_shape(object layout, _shape *shape) except -1:
    if Py_TYPE(layout) != _LAYOUT_TYPE and not PyObject_TypeCheck(layout, _LAYOUT_TYPE):
        raise TypeError(f"a Layout method needs a Layout, not {type(layout).__name__}")
    if _layout_slot(layout, _LAYOUT_NAMES) == NULL:
        getattr(layout, "names")  # a deferred layout: read from its function now
    shape.names = _layout_slot(layout, _LAYOUT_NAMES)
    shape.size = PyTuple_GET_SIZE(shape.names)
    shape.argcount = (PyTuple_GET_SIZE(_layout_slot(layout, _LAYOUT_POSONLY))
                      + PyTuple_GET_SIZE(_layout_slot(layout, _LAYOUT_POSITIONAL)))
    shape.total = shape.argcount + PyTuple_GET_SIZE(_layout_slot(layout, _LAYOUT_KWONLY))
    shape.varargs_slot = shape.total if _layout_slot(layout, _LAYOUT_VARARGS) != <PyObject *>None else -1
    shape.varkw_slot = shape.size - 1 if _layout_slot(layout, _LAYOUT_VARKW) != <PyObject *>None else -1
    return 0


cdef inline object _name_of(object layout):
    return <object>_layout_slot(layout, _LAYOUT_NAME)


cdef int _check_values(str method, object layout, object values, _shape *shape) except -1:
    _read_shape(layout, shape)
    if not PyTuple_CheckExact(<PyObject *>values):
        raise TypeError(f"{method}() needs a tuple of values, not {type(values).__name__}")
    if PyTuple_GET_SIZE(<PyObject *>values) != shape.size:
        raise TypeError(f"{method}() needs {shape.size} values for {_name_of(layout)}(), "
                        f"got {PyTuple_GET_SIZE(<PyObject *>values)}")
    return 0


cdef Py_ssize_t _slot_of(PyObject *names, Py_ssize_t size, PyObject *name) except -2:
    """The slot of ``name`` in ``names`` (exact interned strs), matched by
    identity first, then as str equality decides; -1 when none."""
    cdef Py_ssize_t i
    for i in range(size):
        if PyTuple_GET_ITEM(names, i) == name:
            return i
    if PyUnicode_Check(name):
        for i in range(size):
            if PyObject_RichCompareBool(PyTuple_GET_ITEM(names, i), name, Py_EQ):
                return i
    return -1


cdef inline void _set_item(PyObject *t, Py_ssize_t i, PyObject *o) noexcept:
    """Store ``o`` into an empty slot of a new tuple."""
    Py_INCREF(o)
    PyTuple_SET_ITEM(t, i, o)


cdef inline void _replace_item(PyObject *t, Py_ssize_t i, PyObject *o) noexcept:
    """Store ``o`` into a filled slot of a new tuple no other code has seen."""
    cdef PyObject *old = PyTuple_GET_ITEM(t, i)
    Py_INCREF(o)
    PyTuple_SET_ITEM(t, i, o)
    Py_DECREF(old)


def _layout_arguments(layout, values, /):
    cdef _shape shape
    _check_values("arguments", layout, values, &shape)
    cdef PyObject *v = <PyObject *>values
    cdef Py_ssize_t i
    result = PyDict_New()
    for i in range(shape.argcount):
        PyDict_SetItem(<PyObject *>result, PyTuple_GET_ITEM(shape.names, i), PyTuple_GET_ITEM(v, i))
    if shape.varargs_slot >= 0:
        PyDict_SetItem(<PyObject *>result, PyTuple_GET_ITEM(shape.names, shape.varargs_slot),
                       PyTuple_GET_ITEM(v, shape.varargs_slot))
    for i in range(shape.argcount, shape.total):
        PyDict_SetItem(<PyObject *>result, PyTuple_GET_ITEM(shape.names, i), PyTuple_GET_ITEM(v, i))
    if shape.varkw_slot >= 0:
        PyDict_SetItem(<PyObject *>result, PyTuple_GET_ITEM(shape.names, shape.varkw_slot),
                       PyTuple_GET_ITEM(v, shape.varkw_slot))
    return result


def _layout_values(layout, arguments, /):
    cdef _shape shape
    _read_shape(layout, &shape)
    if not PyDict_CheckExact(<PyObject *>arguments):
        arguments = dict(arguments)
    cdef PyObject *given = <PyObject *>arguments
    cdef PyObject *defaults = _layout_slot(layout, _LAYOUT_DEFAULTS)
    cdef PyObject *kwdefaults = _layout_slot(layout, _LAYOUT_KWDEFAULTS)
    cdef Py_ssize_t first_default = shape.argcount - PyTuple_GET_SIZE(defaults)
    cdef Py_ssize_t i, j, found = 0
    cdef PyObject *name
    cdef PyObject *value
    cdef PyObject *pair
    # Filled with None first: the lookups may run Python code (a key's
    # __eq__), which must never meet a tuple with empty slots.
    result = PyTuple_New(shape.size)
    for i in range(shape.size):
        _set_item(<PyObject *>result, i, <PyObject *>None)
    for i in range(shape.size):
        name = PyTuple_GET_ITEM(shape.names, i)
        value = PyDict_GetItemWithError(given, name)
        if value != NULL:
            found += 1
            _replace_item(<PyObject *>result, i, value)
            continue
        if i < shape.argcount:
            if i >= first_default:
                value = PyTuple_GET_ITEM(defaults, i - first_default)
        elif i < shape.total:
            for j in range(PyTuple_GET_SIZE(kwdefaults)):
                pair = PyTuple_GET_ITEM(kwdefaults, j)
                if PyTuple_GET_ITEM(pair, 0) == name:
                    value = PyTuple_GET_ITEM(pair, 1)
                    break
        elif i == shape.varargs_slot:
            value = <PyObject *>()
        else:
            new_dict = PyDict_New()
            _replace_item(<PyObject *>result, i, <PyObject *>new_dict)
            continue
        if value == NULL:
            raise TypeError(f"values() needs a value for {_name_of(layout)}()'s parameter "
                            f"{<object>name!r}")
        _replace_item(<PyObject *>result, i, value)
    if found != PyDict_GET_SIZE(given):
        for key in arguments:
            if _slot_of(shape.names, shape.size, <PyObject *>key) < 0:
                raise TypeError(f"{_name_of(layout)}() has no parameter {key!r}")
    return result


def _layout_replace(layout, values, /, **changes):
    cdef _shape shape
    _check_values("replace", layout, values, &shape)
    cdef PyObject *v = <PyObject *>values
    cdef Py_ssize_t i, slot
    cdef Py_ssize_t pos = 0
    cdef PyObject *key
    cdef PyObject *value
    result = PyTuple_New(shape.size)
    for i in range(shape.size):
        _set_item(<PyObject *>result, i, PyTuple_GET_ITEM(v, i))
    while PyDict_Next(<PyObject *>changes, &pos, &key, &value):
        slot = _slot_of(shape.names, shape.size, key)
        if slot < 0:
            raise TypeError(f"{_name_of(layout)}() has no parameter {<object>key!r}")
        _replace_item(<PyObject *>result, slot, value)
    return result


def _layout_key(layout, values, /, ignore=()):
    cdef _shape shape
    _check_values("key", layout, values, &shape)
    cdef PyObject *v = <PyObject *>values
    cdef Py_ssize_t i, n_ignored
    if PyTuple_CheckExact(<PyObject *>ignore):
        names_ignored = ignore
    else:
        names_ignored = tuple(ignore)
    n_ignored = PyTuple_GET_SIZE(<PyObject *>names_ignored)
    # The **kwargs slot's frozenset is made before the key's tuple: hashing
    # runs Python code, which must never meet a tuple with empty slots.
    if n_ignored == 0:
        if shape.varkw_slot < 0:
            return values
        frozen = PyFrozenSet_New((<object>PyTuple_GET_ITEM(v, shape.varkw_slot)).items())
        result = PyTuple_New(shape.size)
        for i in range(shape.size - 1):
            _set_item(<PyObject *>result, i, PyTuple_GET_ITEM(v, i))
        _set_item(<PyObject *>result, shape.size - 1, <PyObject *>frozen)
        return result
    # The slots of the names ignored: on the stack for the usual few.
    cdef Py_ssize_t few[8]
    cdef Py_ssize_t *slots = few
    if n_ignored > 8:
        slots = <Py_ssize_t *>PyMem_Malloc(n_ignored * sizeof(Py_ssize_t))
        if slots == NULL:
            raise MemoryError()
    try:
        return _key_without(layout, values, names_ignored, n_ignored, slots, &shape)
    finally:
        if slots != few:
            PyMem_Free(slots)


cdef object _key_without(object layout, object values, object names_ignored,
                         Py_ssize_t n_ignored, Py_ssize_t *slots, _shape *shape):
    cdef PyObject *v = <PyObject *>values
    cdef Py_ssize_t i, j, kept, slot
    cdef bint varkw
    kept = shape.size
    for j in range(n_ignored):
        slot = _slot_of(shape.names, shape.size,
                        PyTuple_GET_ITEM(<PyObject *>names_ignored, j))
        if slot < 0:
            raise TypeError(f"{_name_of(layout)}() has no parameter "
                            f"{names_ignored[j]!r}")
        slots[j] = slot
        for i in range(j):
            if slots[i] == slot:
                break
        else:
            kept -= 1
    varkw = shape.varkw_slot >= 0
    for j in range(n_ignored):
        if slots[j] == shape.varkw_slot:
            varkw = False
    frozen = None
    if varkw:
        frozen = PyFrozenSet_New((<object>PyTuple_GET_ITEM(v, shape.varkw_slot)).items())
    result = PyTuple_New(kept)
    kept = 0
    for i in range(shape.size):
        for j in range(n_ignored):
            if slots[j] == i:
                break
        else:
            if i == shape.varkw_slot:
                _set_item(<PyObject *>result, kept, <PyObject *>frozen)
            else:
                _set_item(<PyObject *>result, kept, PyTuple_GET_ITEM(v, i))
            kept += 1
    return result


def _layout_instance(layout, values, /):
    cdef _shape shape
    _check_values("instance", layout, values, &shape)
    cdef PyObject *v = <PyObject *>values
    if shape.argcount:
        return <object>PyTuple_GET_ITEM(v, 0)
    if shape.varargs_slot >= 0 and PyTuple_GET_SIZE(PyTuple_GET_ITEM(v, shape.varargs_slot)):
        return <object>PyTuple_GET_ITEM(PyTuple_GET_ITEM(v, shape.varargs_slot), 0)
    raise TypeError(f"{_name_of(layout)}() was called with no positional value: no instance")


LAYOUT_METHODS = {}
for _function in (_layout_arguments, _layout_values, _layout_replace, _layout_key,
                  _layout_instance):
    _method_name = _function.__name__[len("_layout_"):]
    _function.__name__ = _method_name
    _function.__qualname__ = "Layout." + _method_name
    # As the pure method answers help() and inspect.signature().
    _function.__module__ = PURE_VALUE_METHODS[_method_name].__module__
    _function.__doc__ = PURE_VALUE_METHODS[_method_name].__doc__
    _function.__signature__ = _inspect_module.signature(PURE_VALUE_METHODS[_method_name])
    LAYOUT_METHODS[_method_name] = _function
del _function, _method_name
