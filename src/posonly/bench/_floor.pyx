# cython: language_level=3
"""The bench's C floor, built beside the compiled binder and not part of
posonly's API: :class:`TupleFloor` is what a binder's call would cost if
binding cost nothing (``_floor.h``)."""

cimport cython
from cpython.object cimport PyObject, PyTypeObject

cdef extern from "Python.h":
    PyObject **tuple_items "&PyTuple_GET_ITEM"(PyObject *t, Py_ssize_t i)
    Py_ssize_t PyTuple_GET_SIZE(PyObject *t)

cdef extern from "_floor.h":
    ctypedef void *vectorcallfunc
    int posonly_install_vectorcall(PyTypeObject *tp, Py_ssize_t offset) except -1
    ctypedef struct posonly_floor_plan:
        vectorcallfunc vectorcall
        PyObject **fill
        Py_ssize_t size
    vectorcallfunc posonly_floor_vectorcall


@cython.final
@cython.no_gc_clear
cdef class TupleFloor:
    """A C callable whose call builds the tuple ``like`` (its size, its
    tail) from the call's arguments with no matching at all."""

    cdef posonly_floor_plan _c
    cdef tuple _fill

    def __cinit__(self, tuple like not None):
        self._c.vectorcall = posonly_floor_vectorcall
        self._fill = like
        self._c.fill = tuple_items(<PyObject *>like, 0)
        self._c.size = PyTuple_GET_SIZE(<PyObject *>like)


cdef TupleFloor _probe = TupleFloor(())
posonly_install_vectorcall(<PyTypeObject *>TupleFloor,
                           <Py_ssize_t>(<char *>&_probe._c.vectorcall - <char *><PyObject *>_probe))
_probe = None
