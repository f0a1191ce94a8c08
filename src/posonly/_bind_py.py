"""The pure-Python twin of the compiled ``_bind`` module: a map of its parts.

As ``_bind.pyx`` includes one file per concern, this module imports the
public names of the pure twin of each, so that ``_impl`` takes the same
names from ``_bind`` or from here:

- ``_binder.py`` (twin of ``_binder.pxi``): ``Binder``;
- ``_create.py`` (twin of ``_create.pxi``): ``binder`` (what
  ``posonly.binder`` calls) and ``binder_of_function``, a binder of a
  plain function made straight from its code object;
- ``_wrapper.py`` (twin of ``_wrapper.pxi``): ``wrap`` and ``Wrapper``;
- ``_dropin.py`` (twin of ``_dropin.pxi``): the drop-in's core, with the
  modules it draws on (``_dropin_generic``, ``_dropin_plans``,
  ``_dropin_cache``, ``_dropin_signature``);
- ``_values.py`` (twin of ``_values.pxi``): ``LAYOUT_METHODS``, Layout's
  methods on a call's values;
- ``_migrate.py`` (twin of ``_migrate.pxi``): ``migrate``.
"""

from __future__ import annotations

from ._binder import Binder
from ._create import binder, binder_of_function
from ._dropin import (
    apply_defaults,
    bind_signature,
    bound_args,
    bound_kwargs,
    cache_info,
    clear_cache,
    function_signature,
    get_observer,
    set_maxsize,
    set_observer,
)
from ._migrate import migrate
from ._values import LAYOUT_METHODS
from ._wrapper import Wrapper, wrap

__all__ = [
    "LAYOUT_METHODS", "Binder", "Wrapper", "apply_defaults", "bind_signature", "binder",
    "binder_of_function", "bound_args", "bound_kwargs", "cache_info", "clear_cache",
    "function_signature", "get_observer", "migrate", "set_maxsize", "set_observer", "wrap",
]
