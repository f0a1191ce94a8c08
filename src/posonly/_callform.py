"""``CallForm``: how a call was made, as a layout's parameters see it; what
a ``wrap(..., form=True)`` handler gets, and what ``migrate``'s legacy path
reads."""

from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from ._layout import Layout

__all__ = ["CallForm", "form_of_call"]


class CallForm:
    """How a call was made, as a layout's parameters see it: which
    parameters came by position, which by keyword and under which name,
    and which were not given (their defaults, or missing).

    ``CallForm(layout, nargs, kwnames, renamed=None)`` reads only the number
    of positional arguments and the keyword names of the call (as a
    vectorcall passes them: ``len(args)`` and ``tuple(kwargs)``); it checks
    nothing of the call, and its fields are read from these at the first
    look.  ``renamed`` maps old keyword names to the parameters they now
    stand for.

    - ``positional``: the names of the parameters filled by position, in
      order; ``extra_positional``: how many positional arguments go beyond
      them (into ``*args``, or too many);
    - ``keywords``: ``{parameter: name as given}`` for each keyword that names
      a parameter that takes keywords (or an old name of one), in call order;
    - ``extra_keywords``: the keyword names that name no such parameter (into
      ``**kwargs``, or unexpected), in call order; a positional-only
      parameter's name given by keyword is one of them, as the interpreter
      sees it;
    - ``defaulted``: the parameters, but ``*args`` and ``**kwargs``, given
      neither way, in signature order.

    A handler of ``wrap(func, ..., form=True)`` gets the form of each call
    over ``wrapper.layout``.  Two forms are equal when their layouts and
    their fields are.
    """

    # The fields are read from the call's numbers at the first look: a
    # handler that never looks pays for none of them, and the compiled
    # wrapper makes a form in C (posonly_call_form, _wrapper.h) by setting
    # the slots, with no Python frame.
    __slots__ = ("layout", "_nargs", "_kwnames", "_renamed", "_fields")

    layout: Layout

    def __init__(self, layout: Layout, nargs: int, kwnames: Sequence[str] = (),
                 renamed: Optional[Mapping[str, str]] = None) -> None:
        if not isinstance(layout, Layout):
            raise TypeError(f"CallForm() needs a Layout, not {type(layout).__name__}")
        if not isinstance(nargs, int) or nargs < 0:
            raise ValueError(f"CallForm() needs a number of positional arguments >= 0, not {nargs!r}")
        kwnames = tuple(kwnames)
        for name in kwnames:
            if type(name) is not str and not isinstance(name, str):
                raise TypeError(f"CallForm() keyword names must be str, not {type(name).__name__}")
        self.layout = layout
        self._nargs = nargs
        self._kwnames = kwnames
        self._renamed = dict(renamed) if renamed else None
        self._fields: Optional[_Fields] = None

    def _read(self) -> "_Fields":
        fields = self._fields
        if fields is None:
            fields = self._fields = _read_form(self.layout, self._nargs, self._kwnames, self._renamed)
        return fields

    @property
    def positional(self) -> Tuple[str, ...]:
        """The names of the parameters filled by position, in order."""
        return self._read()[0]

    @property
    def extra_positional(self) -> int:
        """How many positional arguments go beyond ``positional``."""
        return self._read()[1]

    @property
    def keywords(self) -> Dict[str, str]:
        """``{parameter: name as given}``, in call order."""
        return self._read()[2]

    @property
    def extra_keywords(self) -> Tuple[str, ...]:
        """The keyword names that name no parameter taking keywords."""
        return self._read()[3]

    @property
    def defaulted(self) -> Tuple[str, ...]:
        """The parameters given neither way, in signature order."""
        return self._read()[4]

    def __eq__(self, other: object) -> bool:
        if type(other) is not CallForm:
            return NotImplemented
        return self.layout == other.layout and self._read() == other._read()

    __hash__ = None  # type: ignore[assignment]  # (its keywords are a dict)

    def __repr__(self) -> str:
        return (f"CallForm(positional={self.positional!r}, extra_positional={self.extra_positional!r}, "
                f"keywords={self.keywords!r}, extra_keywords={self.extra_keywords!r}, "
                f"defaulted={self.defaulted!r})")


_Fields = Tuple[Tuple[str, ...], int, Dict[str, str], Tuple[str, ...], Tuple[str, ...]]


def _read_form(layout: Layout, nargs: int, kwnames: Tuple[str, ...],
               renamed: Optional[Mapping[str, str]]) -> _Fields:
    """A form's fields: ``positional``, ``extra_positional``, ``keywords``,
    ``extra_keywords``, ``defaulted``."""
    by_position = layout.posonly + layout.positional
    positional = by_position[:nargs]
    extra_positional = nargs - len(by_position) if nargs > len(by_position) else 0
    # The parameters not given by position, in signature order: those given
    # by keyword are taken out below.
    rest = by_position[nargs:] + layout.kwonly
    keywords: Dict[str, str] = {}
    if not kwnames:
        return positional, extra_positional, keywords, (), rest
    named_positional, kwonly = layout.positional, layout.kwonly
    extra: List[str] = []
    for name in kwnames:
        parameter = renamed.get(name, name) if renamed else name
        if (parameter in named_positional or parameter in kwonly) and parameter not in keywords:
            keywords[parameter] = name
        else:
            extra.append(name)
    defaulted = tuple([name for name in rest if name not in keywords]) if keywords else rest
    return positional, extra_positional, keywords, tuple(extra), defaulted


_new = object.__new__


def form_of_call(layout: Layout, nargs: int, kwnames: Tuple[str, ...]) -> CallForm:
    """``CallForm(layout, nargs, kwnames)`` for a call a pure wrapper was
    given, whose names the interpreter made str: made without the checks,
    as the compiled wrapper makes it in C."""
    form: CallForm = _new(CallForm)
    form.layout = layout
    form._nargs = nargs
    form._kwnames = kwnames
    form._renamed = None
    form._fields = None
    return form
