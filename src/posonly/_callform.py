"""``CallForm``: how a call was made, as a layout's parameters see it; what
a ``wrap(..., form=True)`` handler gets, and what ``migrate``'s legacy path
reads."""

from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from ._layout import Layout

__all__ = ["CallForm"]


class CallForm:
    """How a call was made, as a layout's parameters see it: which
    parameters came by position, which by keyword and under which name,
    and which were not given (their defaults, or missing).

    ``CallForm(layout, nargs, kwnames, renamed=None)`` reads only the number
    of positional arguments and the keyword names of the call (as a
    vectorcall passes them: ``len(args)`` and ``tuple(kwargs)``); it checks
    nothing, and costs nothing until it is made.  ``renamed`` maps old
    keyword names to the parameters they now stand for.

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

    __slots__ = ("layout", "positional", "extra_positional", "keywords", "extra_keywords",
                 "defaulted")

    layout: Layout
    positional: Tuple[str, ...]
    extra_positional: int
    keywords: Dict[str, str]
    extra_keywords: Tuple[str, ...]
    defaulted: Tuple[str, ...]

    def __init__(self, layout: Layout, nargs: int, kwnames: Sequence[str] = (),
                 renamed: Optional[Mapping[str, str]] = None) -> None:
        if not isinstance(layout, Layout):
            raise TypeError(f"CallForm() needs a Layout, not {type(layout).__name__}")
        if not isinstance(nargs, int) or nargs < 0:
            raise ValueError(f"CallForm() needs a number of positional arguments >= 0, not {nargs!r}")
        by_position = layout.posonly + layout.positional
        self.layout = layout
        self.positional = by_position[:nargs]
        self.extra_positional = nargs - len(by_position) if nargs > len(by_position) else 0
        # The parameters not given by position, in signature order: those
        # given by keyword are taken out below.
        rest = by_position[nargs:] + layout.kwonly
        keywords: Dict[str, str] = {}
        self.keywords = keywords
        if not kwnames:
            self.extra_keywords = ()
            self.defaulted = rest
            return
        positional, kwonly = layout.positional, layout.kwonly
        extra: List[str] = []
        for name in kwnames:
            if type(name) is not str and not isinstance(name, str):
                raise TypeError(f"CallForm() keyword names must be str, not {type(name).__name__}")
            parameter = renamed.get(name, name) if renamed else name
            if (parameter in positional or parameter in kwonly) and parameter not in keywords:
                keywords[parameter] = name
            else:
                extra.append(name)
        self.extra_keywords = tuple(extra)
        self.defaulted = tuple([name for name in rest if name not in keywords]) if keywords else rest

    def __eq__(self, other: object) -> bool:
        if type(other) is not CallForm:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in CallForm.__slots__)

    __hash__ = None  # type: ignore[assignment]  # (its keywords are a dict)

    def __repr__(self) -> str:
        return (f"CallForm(positional={self.positional!r}, extra_positional={self.extra_positional!r}, "
                f"keywords={self.keywords!r}, extra_keywords={self.extra_keywords!r}, "
                f"defaulted={self.defaulted!r})")
