"""What both twins of ``migrate`` share: the declaration checked against the
function's signature, the warnings' words, and the pure twin's legacy path.

A migrated function is written in its *future* signature.  Calls that are
valid in that form (no legacy form used) go straight to the function: the
compiled twin's vectorcall slot (``_migrate.pxi``, ``_migrate.h``) and the
pure twin's generated function (``_migrate.py``) look only at the number of
positional arguments and at the keyword names.  Any other call takes the
legacy path, :meth:`Migration.legacy_call` in the pure twin and
``_migrated_legacy`` in the compiled one (the same steps, over what a
:class:`Migration` makes once for both), which

1. tells which legacy forms the call uses, as the call's :class:`CallForm`
   over the future layout tells them (old keyword names read as the new
   ones), read straight from the declaration; a call that uses none is
   handed to the function, whose errors it gets;
2. binds the call with a binder of the *legacy layout* (the future one with
   the deprecated positional-only parameters made positional-or-keyword, the
   deprecated keyword-only ones appended to the positional ones, old names
   rewritten to the new ones), so a legacy call that does not bind gets the
   interpreter's message for the legacy signature, named as the function;
3. warns once per legacy form used, at the caller's line, through
   :func:`warnings.warn` (the caller's module registry and filters), with
   words made once per migration (:meth:`Migration.keyword_message_of`,
   ``positional_messages``, ``renamed_messages``);
4. calls the function in its future form with the arguments given (a
   parameter not given is not passed, so the function applies its defaults).
"""

from __future__ import annotations

import textwrap
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type

from ._errors import missing_arguments
from ._layout import Layout, is_plain_function
from ._plan import name_function

__all__ = ["Migration", "migrate_arguments"]


def migrate_arguments(
    func: Any = None,
    /,
    *,
    positional_only: Sequence[str] = (),
    keyword_only: Sequence[str] = (),
    renamed: Optional[Mapping[str, str]] = None,
    since: Optional[str] = None,
    removal: Optional[str] = None,
    category: Type[Warning] = DeprecationWarning,
) -> Tuple[Any, Dict[str, Any]]:
    """``migrate``'s signature: its arguments as ``(func, declaration)``,
    with the interpreter's messages for a wrong call."""
    return func, {"positional_only": positional_only, "keyword_only": keyword_only,
                  "renamed": renamed, "since": since, "removal": removal, "category": category}


name_function(migrate_arguments, "migrate")  # its errors name migrate, on every version


def _names(value: Any, what: str) -> Tuple[str, ...]:
    if isinstance(value, str):
        raise TypeError(f"migrate() {what} must be a sequence of parameter names, not a str "
                        f"(write ({value!r},))")
    try:
        names = tuple(value)
    except TypeError:
        raise TypeError(f"migrate() {what} must be a sequence of parameter names, "
                        f"not {type(value).__name__}") from None
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"migrate() {what} names must be str, not {type(name).__name__}")
    if len(set(names)) != len(names):
        raise TypeError(f"migrate() {what} names a parameter twice")
    return names


def _words(names: Sequence[str]) -> str:
    """'a', 'a' and 'b', 'a', 'b' and 'c': as Argument Clinic lists names."""
    quoted = [repr(name) for name in names]
    if len(quoted) < 2:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


class _Defaulted:
    """A legacy layout's default: the parameter was not given."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<not given>"


_DEFAULTED = _Defaulted()


class Migration:
    """A ``migrate`` declaration checked against a function's future
    signature, and the legacy path of its calls.  ``binder_type`` is the
    implementation's ``Binder``; ``stacklevel`` is the level, counted from
    :meth:`legacy_call`'s frame, of the caller's frame."""

    __slots__ = ("func", "layout", "name", "positional_only", "keyword_only", "renamed",
                 "since", "removal", "category", "max_nargs", "legacy_names", "legacy_binder",
                 "legacy_layout", "notes", "stacklevel", "argcount", "kwonly", "posonly_index",
                 "first_deprecated", "varargs_slot", "varkw_slot", "keyword_messages",
                 "positional_messages", "renamed_messages", "_in_version")

    def __init__(self, func: Any, declaration: Mapping[str, Any], binder_type: Any,
                 stacklevel: int) -> None:
        if not callable(func):
            raise TypeError(f"migrate() func must be callable, not {type(func).__name__}")
        positional_only = _names(declaration["positional_only"], "positional_only")
        keyword_only = _names(declaration["keyword_only"], "keyword_only")
        renamed_arg = declaration["renamed"]
        if renamed_arg is None:
            renamed_arg = {}
        if not isinstance(renamed_arg, Mapping):
            raise TypeError(f"migrate() renamed must be a mapping of old names to new ones, "
                            f"not {type(renamed_arg).__name__}")
        renamed: Dict[str, str] = {}
        for old, new in renamed_arg.items():
            if not isinstance(old, str) or not isinstance(new, str):
                raise TypeError("migrate() renamed must map str to str")
            renamed[old] = new
        since, removal, category = declaration["since"], declaration["removal"], declaration["category"]
        for what, value in (("since", since), ("removal", removal)):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"migrate() {what} must be a str or None, not {type(value).__name__}")
        if not (isinstance(category, type) and issubclass(category, Warning)):
            raise TypeError(f"migrate() category must be a Warning subclass, not {category!r}")
        if not (positional_only or keyword_only or renamed):
            raise TypeError("migrate() needs something to deprecate: "
                            "positional_only, keyword_only or renamed")

        layout = Layout.from_callable(func)
        # The warnings name the function by its qualified name, as Argument
        # Clinic names a C function by its full name; the legacy binder's
        # errors name it as the interpreter does (before 3.10, by its name).
        qualname = getattr(func, "__qualname__", None)
        name = qualname if isinstance(qualname, str) else layout.name
        self.func = func
        self.layout = layout
        self.name = name
        self.positional_only = positional_only
        self.keyword_only = keyword_only
        self.renamed = renamed
        self.since = since
        self.removal = removal
        self.category = category
        self.stacklevel = stacklevel
        self._in_version = f"in version {removal}" if removal is not None else "in a future version"
        self._check(layout)
        # In signature order, as the warnings name them.
        self.positional_only = tuple(p for p in layout.posonly if p in positional_only)
        self.keyword_only = tuple(p for p in layout.kwonly if p in keyword_only)
        self.legacy_layout = self._legacy_layout(layout)
        self.legacy_binder = binder_type(self.legacy_layout)
        self.max_nargs = layout.argcount if keyword_only else -1  # -1: any number
        self.legacy_names = positional_only + tuple(renamed)
        self.notes = self._notes()
        # What the legacy path reads of the layouts, made once.
        self.argcount = layout.argcount
        self.kwonly = layout.kwonly
        self.posonly_index = {name: layout.posonly.index(name) for name in self.positional_only}
        self.first_deprecated = len(layout.posonly) - len(self.positional_only)
        legacy_names = self.legacy_layout.names
        self.varargs_slot = legacy_names.index(layout.varargs) if layout.varargs else -1
        self.varkw_slot = legacy_names.index(layout.varkw) if layout.varkw else -1
        # The words of each warning, made once (a legacy call makes none):
        # those of the positional-only parameters passed by keyword by the
        # set of them (keyword_message_of), those of the keyword-only ones
        # passed by position by how many, those of the old names by name.
        self.keyword_messages: Dict[int, str] = {}
        self.positional_messages = tuple(self.positional_message(self.keyword_only[:n])
                                         for n in range(1, len(self.keyword_only) + 1))
        self.renamed_messages = {old: self.renamed_message(old) for old in renamed}

    # -- the declaration, against the signature ----------------------------

    def _check(self, layout: Layout) -> None:
        name = self.name
        parameters = set(layout.names)
        for what, names in (("positional_only", self.positional_only),
                            ("keyword_only", self.keyword_only)):
            for parameter in names:
                if parameter not in parameters:
                    raise TypeError(f"migrate() {what} names {parameter!r}, "
                                    f"which is not a parameter of {name}()")
        for parameter in self.positional_only:
            if parameter not in layout.posonly:
                raise TypeError(f"migrate() positional_only names {parameter!r}, which is not "
                                f"positional-only in {name}() (its future signature)")
        tail = layout.posonly[len(layout.posonly) - len(self.positional_only):]
        if set(tail) != set(self.positional_only):
            raise TypeError(f"migrate() positional_only must be the last positional-only "
                            f"parameters of {name}() (here {_words(tail)}): a parameter passed "
                            f"by keyword could not be followed by one passed only by position")
        if layout.varkw is not None:
            n_defaults = len(layout.defaults)
            first_default = layout.argcount - n_defaults
            for parameter in self.positional_only:
                if (layout.posonly + layout.positional).index(parameter) >= first_default:
                    raise TypeError(
                        f"migrate() positional_only names {parameter!r}, which has a default "
                        f"while {name}() takes **{layout.varkw}: {name}({parameter}=...) "
                        f"would mean two things")
        for parameter in self.keyword_only:
            if parameter not in layout.kwonly:
                raise TypeError(f"migrate() keyword_only names {parameter!r}, which is not "
                                f"keyword-only in {name}() (its future signature)")
        if self.keyword_only:
            head = layout.kwonly[: len(self.keyword_only)]
            if set(head) != set(self.keyword_only):
                raise TypeError(f"migrate() keyword_only must be the first keyword-only "
                                f"parameters of {name}() (here {_words(head)}): they were "
                                f"passed by position, in signature order, after the others")
            if layout.varargs is not None:
                raise TypeError(f"migrate() keyword_only: {name}() takes *{layout.varargs}, "
                                f"which takes every extra positional argument")
            has_default = bool(layout.defaults)
            kwdefaults = layout.kwdefaults
            for parameter in head:
                if parameter in kwdefaults:
                    has_default = True
                elif has_default:
                    raise TypeError(f"migrate() keyword_only names {parameter!r}, which has "
                                    f"no default but follows a parameter with one: it could "
                                    f"not have been passed by position")
        for old, new in self.renamed.items():
            if old in parameters:
                raise TypeError(f"migrate() renamed {old!r}, which is still a parameter "
                                f"of {name}()")
            if new not in parameters or new in (layout.varargs, layout.varkw):
                raise TypeError(f"migrate() renamed {old!r} to {new!r}, which is not a "
                                f"parameter of {name}() that takes a keyword")
            if new in layout.posonly and new not in self.positional_only:
                raise TypeError(f"migrate() renamed {old!r} to {new!r}, which is "
                                f"positional-only in {name}() and not in positional_only")
            if layout.varkw is not None:
                raise TypeError(f"migrate() renamed {old!r}: {name}() takes "
                                f"**{layout.varkw}, where {name}({old}=...) would mean two things")

    def _legacy_layout(self, layout: Layout) -> Layout:
        """The future layout with the deprecated forms still valid, each
        default replaced by a mark of its own (a parameter not given is not
        passed on)."""
        n_kept = len(layout.posonly) - len(self.positional_only)
        kwdefaults = layout.kwdefaults
        moved = layout.kwonly[: len(self.keyword_only)]
        positional = layout.posonly[n_kept:] + layout.positional + moved
        argcount = n_kept + len(positional)
        n_defaults = len(layout.defaults) + sum(1 for p in moved if p in kwdefaults)
        return Layout(
            name=self.layout.name,
            posonly=layout.posonly[:n_kept],
            positional=positional,
            varargs=layout.varargs,
            kwonly=layout.kwonly[len(moved):],
            varkw=layout.varkw,
            defaults=(_DEFAULTED,) * min(n_defaults, argcount),
            kwdefaults={p: _DEFAULTED for p in layout.kwonly[len(moved):] if p in kwdefaults},
        )

    # -- the words ----------------------------------------------------------

    def keyword_message(self, names: Sequence[str]) -> str:
        """Positional-only parameters passed by keyword."""
        s = "s" if len(names) != 1 else ""
        return (f"Passing keyword argument{s} {_words(names)} to {self.name}() is deprecated. "
                f"Parameter{s} {_words(names)} will become positional-only {self._in_version}.")

    def positional_message(self, names: Sequence[str]) -> str:
        """Keyword-only parameters passed by position (all those that may be:
        the warning says where the limit is, as Argument Clinic's does)."""
        limit = self.layout.argcount
        if limit:
            preamble = (f"Passing more than {limit} positional {_plural(limit, 'argument')} "
                        f"to {self.name}() is deprecated.")
        else:
            preamble = f"Passing positional arguments to {self.name}() is deprecated."
        if len(names) == 1:
            change = f"Parameter {_words(names)} will become a keyword-only parameter"
        else:
            change = f"Parameters {_words(names)} will become keyword-only parameters"
        return f"{preamble} {change} {self._in_version}."

    def renamed_message(self, old: str) -> str:
        new = self.renamed[old]
        return (f"Passing keyword argument {old!r} to {self.name}() is deprecated. "
                f"Parameter {old!r} was renamed {new!r}; {old!r} will stop working "
                f"{self._in_version}.")

    def _notes(self) -> List[str]:
        notes = []
        if self.positional_only:
            notes.append(self.keyword_message(
                [p for p in self.layout.posonly if p in self.positional_only]))
        if self.keyword_only:
            notes.append(self.positional_message(self.layout.kwonly[: len(self.keyword_only)]))
        notes.extend(self.renamed_message(old) for old in self.renamed)
        if self.since is not None:
            notes = [f"{note} (Deprecated since version {self.since}.)" for note in notes]
        return notes

    def docstring(self, doc: Optional[str]) -> str:
        """The function's docstring with a note per deprecation, as Argument
        Clinic appends them."""
        notes = "\n\n".join(textwrap.fill(f"Note: {note}") for note in self.notes)
        if not doc:
            return notes
        return f"{doc.rstrip()}\n\n{notes}\n"

    # -- the legacy path ------------------------------------------------------

    def keyword_message_of(self, mask: int) -> str:
        """The warning for the deprecated positional-only parameters passed
        by keyword, by their bits in ``mask`` (bit ``i``: the ``i``-th of
        them, in signature order); made once per set of them, then kept."""
        message = self.keyword_messages.get(mask)
        if message is None:
            names = [name for i, name in enumerate(self.positional_only) if mask >> i & 1]
            message = self.keyword_messages[mask] = self.keyword_message(names)
        return message

    def legacy_call(self, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
        """The pure twin's call that its fast check let through (the
        compiled twin's is ``_migrated_legacy`` in ``_migrate.pxi``, the
        same steps in C): the legacy forms read from the declaration, the
        call bound to the legacy layout, a warning per form, the call made
        again in the future form."""
        nargs = len(args)
        mask = 0
        old = False
        if kwargs:
            index = self.posonly_index
            for name in kwargs:
                if name in index:
                    i = index[name]
                    if i >= nargs:
                        mask |= 1 << (i - self.first_deprecated)
                elif name in self.renamed:
                    old = True
        extra = nargs - self.argcount
        by_position = extra > 0 and self.keyword_only
        if not (mask or by_position or old):
            return self.func(*args, **kwargs)
        if old:
            values = self._bind_renamed(args, kwargs)
        else:
            values = self.legacy_binder(*args, **kwargs)
        category, stacklevel = self.category, self.stacklevel
        if mask:
            message = self.keyword_messages.get(mask) or self.keyword_message_of(mask)
            warnings.warn(message, category, stacklevel)
        if by_position:
            warnings.warn(self.positional_messages[min(extra, len(self.keyword_only)) - 1],
                          category, stacklevel)
        if old:
            messages = self.renamed_messages
            for name in kwargs:
                if name in messages:
                    warnings.warn(messages[name], category, stacklevel)
        return self._call_future(values)

    def _bind_renamed(self, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
        """Bind a call that gives old names, under their new ones; one that
        gives a name under both goes as a vectorcall, whose keyword names
        may repeat, for the interpreter's error."""
        renamed = self.renamed
        new_kwargs: Dict[str, Any] = {}
        for name, value in kwargs.items():
            new = renamed.get(name, name)
            if new in new_kwargs:
                kwnames = tuple([renamed.get(name, name) for name in kwargs])
                return self.legacy_binder.vectorcall(args + tuple(kwargs.values()), kwnames)
            new_kwargs[new] = value
        return self.legacy_binder(*args, **new_kwargs)

    def _call_future(self, values: Tuple[Any, ...]) -> Any:
        """Call the function in its future form with the values bound to the
        legacy layout, whose positional parameters are the future ones then
        the deprecated keyword-only ones, in order: the positional parameters
        by position up to the last one given (those before it not given get
        their defaults), the keyword-only ones given by keyword, ``*args``
        and ``**kwargs`` as they are."""
        last = self.argcount
        extra: Tuple[Any, ...] = values[self.varargs_slot] if self.varargs_slot >= 0 else ()
        if not extra:
            while last and values[last - 1] is _DEFAULTED:
                last -= 1
        args = values[:last]
        for value in args:
            if value is _DEFAULTED:
                args = self._defaults_filled(args)
                break
        if extra:
            args += extra
        kwargs: Dict[str, Any] = {}
        if self.kwonly:
            for name, value in zip(self.kwonly, values[self.argcount:]):
                if value is not _DEFAULTED:
                    kwargs[name] = value
        if self.varkw_slot >= 0:
            kwargs.update(values[self.varkw_slot])
        if kwargs:
            return self.func(*args, **kwargs)
        return self.func(*args)

    def _defaults_filled(self, args: Tuple[Any, ...]) -> Tuple[Any, ...]:
        """``args`` with each parameter not given (before the last one
        given) set to its default as it is now."""
        defaults = self.current_defaults()
        first_default = self.argcount - len(defaults)
        filled = list(args)
        for i, value in enumerate(filled):
            if value is _DEFAULTED:
                if i < first_default:  # its default taken away since
                    raise missing_arguments(self.legacy_layout.name, "positional",
                                            [self.layout.names[i]])
                filled[i] = defaults[i - first_default]
        return tuple(filled)

    def current_defaults(self) -> Tuple[Any, ...]:
        """The positional defaults as they are now: a plain function's own,
        else those read when it was migrated."""
        func = self.func
        if is_plain_function(func) and not hasattr(func, "__wrapped__"):
            return func.__defaults__ or ()
        return self.layout.defaults


def docstring_of(func: Any) -> Optional[str]:
    doc = getattr(func, "__doc__", None)
    return doc if isinstance(doc, str) else None
