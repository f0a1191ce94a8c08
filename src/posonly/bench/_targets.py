"""What the suites time: the implementation under test and its baselines.

The implementation under test is ``posonly``'s own (``posonly.binder``,
``posonly.wrap``), whichever ``posonly.IMPLEMENTATION`` says it is; the pure
twin is timed beside it only when the compiled one is under test, and the C
copy only when the compiled module is in use.
"""

from __future__ import annotations

import contextlib
import inspect
from typing import Any, Iterator, Optional

import posonly
from posonly import _impl


def compiled_module() -> Optional[Any]:
    """The compiled module when it is the implementation under test."""
    return _impl.module if _impl.compiled else None


def pure_module() -> Any:
    from posonly import _bind_py

    return _bind_py


def pure_binder(f: Any) -> Any:
    from posonly._common import make_binder

    return make_binder(pure_module().Binder, f)


@contextlib.contextmanager
def patched() -> Iterator[None]:
    """``posonly.patch_inspect()`` for the duration, undone after."""
    posonly.patch_inspect()
    try:
        yield
    finally:
        posonly.unpatch_inspect()


class Patch:
    """Setup/teardown hooks for a cell timed with the patch applied: the
    patch is on only while that cell's sample is taken."""

    def __init__(self, prepare: Any = None) -> None:
        self.prepare = prepare
        self.original = inspect.Signature.bind

    def setup(self, n: int) -> None:
        posonly.patch_inspect()
        if self.prepare is not None:
            self.prepare()

    def teardown(self) -> None:
        posonly.unpatch_inspect()
        if inspect.Signature.bind is not self.original:
            raise RuntimeError("unpatch_inspect() left inspect.Signature.bind patched")
