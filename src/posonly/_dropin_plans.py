"""The drop-in's plans, made from source once per shape (pure core).

A signature bound again and again gets a *plan*: five small functions made
for its parameters (``bind``, ``bind_partial``, ``args``, ``kwargs``,
``apply_defaults``), with its names as constants and no loop over its
parameters.  The code is made once per *shape* (the parameters' kinds and
which have defaults): the source written here, compiled, and kept by shape;
each signature's plan is that shape's code with the names put in its
constants (``code.replace``), without compiling anything.  A plan binds the
calls it can bind without a doubt; for anything else (errors above all) it
answers ``FALLBACK``, and inspect's generic steps (``_dropin_generic``)
answer, with inspect's message.  A plan holds names only: no signature,
parameter, default or function.  Where plans are kept: ``_dropin_cache``.
"""

from __future__ import annotations

from types import FunctionType as _FunctionType
from typing import Any, Dict, List, Optional, Tuple

from ._dialect import DIALECT
from . import _errors

__all__ = ["FALLBACK", "MAX_PLANNED", "plan_for", "plannable"]

_Parameter = DIALECT.Parameter
_empty = DIALECT.empty
_KWONLY_MISSING_MESSAGE = DIALECT.kwonly_missing_message

FALLBACK = object()
"""What a plan answers for a call it leaves to the generic steps."""
MAX_PLANNED = 24  # more parameters than this bind generically
_templates: Dict[Tuple[Any, ...], Tuple[Any, ...]] = {}
_MAX_TEMPLATES = 512
_KIND_INDEX = {kind: i for i, kind in enumerate(DIALECT.kinds)}
_PO, _PK, _VP, _KO, _VK = range(5)


def plannable(proxy: Any) -> bool:
    """Whether a plan can bind for these parameters: plain ones, at most
    ``MAX_PLANNED``, each under its own name, their kinds in order, one of
    each variadic at most."""
    if len(proxy) > MAX_PLANNED:
        return False
    last = -1
    for name, param in proxy.items():
        if type(param) is not _Parameter or type(name) is not str or name != param._name:
            return False
        kind = _KIND_INDEX.get(param._kind)
        if kind is None or kind < last or (kind == last and kind in (_VP, _VK)):
            return False
        last = kind
    return True


def _shape(proxy: Any) -> Tuple[Any, ...]:
    return tuple((_KIND_INDEX[p._kind], p._default is not _empty) for p in proxy.values())


def plan_for(proxy: Any) -> Any:
    """The plan of the signature whose parameters are ``proxy``."""
    shape = _shape(proxy)
    template = _templates.get(shape)
    if template is None:
        if len(_templates) >= _MAX_TEMPLATES:
            _templates.clear()
        template = _templates[shape] = _make_template(shape)
    names = {}
    for i, name in enumerate(proxy):
        names[f"\x00{i}"] = name
        names[f"\x00m{i}"] = _errors.MISSING_ARGUMENT.format(name)
        names[f"\x00k{i}"] = _errors.MISSING_KEYWORD_ONLY_ARGUMENT.format(name)
    return tuple(_FunctionType(_with_names(code, names), _PLAN_GLOBALS) for code in template)


def _with_names(code: Any, names: Dict[str, str]) -> Any:
    return code.replace(co_consts=tuple(_put_names(c, names) for c in code.co_consts))


def _put_names(const: Any, names: Dict[str, str]) -> Any:
    if type(const) is str:
        return names.get(const, const)
    if type(const) is tuple:
        return tuple(_put_names(c, names) for c in const)
    if type(const) is frozenset:
        return frozenset(_put_names(c, names) for c in const)
    return const


_PLAN_GLOBALS: Dict[str, Any] = {
    "_FALLBACK": FALLBACK, "refusal": _errors.refusal,
    "TOO_MANY_POSITIONAL": _errors.TOO_MANY_POSITIONAL, "__builtins__": {
    "len": len, "tuple": tuple}}


def _make_template(shape: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """The code objects of the plan for ``shape``, with the placeholder
    ``"\\x00<i>"`` for the name of parameter ``i``."""
    namespace: Dict[str, Any] = {}
    source = "\n".join([_bind_source(shape, False), _bind_source(shape, True),
                        _args_source(shape), _kwargs_source(shape),
                        _apply_defaults_source(shape)])
    exec(compile(source, "<posonly plan>", "exec"), dict(_PLAN_GLOBALS), namespace)
    return tuple(namespace[name].__code__ for name in
                 ("bind", "bind_partial", "args", "kwargs", "apply_defaults"))


def _n(i: object) -> str:
    return repr(f"\x00{i}")


def _bind_source(shape: Tuple[Any, ...], partial: bool) -> str:
    positional = [i for i, (k, _) in enumerate(shape) if k in (_PO, _PK)]
    var_positional = next((i for i, (k, _) in enumerate(shape) if k == _VP), None)
    keyword_only = [i for i, (k, _) in enumerate(shape) if k == _KO]
    var_keyword = next((i for i, (k, _) in enumerate(shape) if k == _VK), None)
    count = len(positional)
    lines = [f"def {'bind_partial' if partial else 'bind'}(args, kwargs):", "    n = len(args)"]

    def given(n: int) -> List[str]:
        items = [f"{_n(positional[j])}: args[{j}]" for j in range(min(n, count))]
        if n > count:
            items.append(f"{_n(var_positional)}: args[{count}:]")
        return items

    def rest(n: int) -> List[int]:
        return [positional[j] for j in range(n, count)] + keyword_only

    counts = list(range(count, -1, -1))

    def missing(n: int, i: int) -> str:
        # inspect's message for parameter i, the first one missing: the
        # parameter right after the positionals is checked while they are
        # placed (with its own message for a keyword-only one, on some
        # versions), the others after them.
        while_placing = rest(n)[0] == i and (n < count or var_positional is None)
        if while_placing and _KWONLY_MISSING_MESSAGE and shape[i][0] == _KO:
            return f"refusal({_n(f'k{i}')}, True)"
        return f"refusal({_n(f'm{i}')}, True)"

    def first_missing(n: int, keywords: bool) -> Optional[int]:
        if partial:
            return None
        return next((i for i in rest(n) if not shape[i][1]
                     and not (keywords and shape[i][0] != _PO)), None)

    # Without keywords: the outcome is known for each count of positionals.
    lines.append("    if not kwargs:")
    if var_positional is not None:
        lines.append(f"        if n > {count}:")
        i = first_missing(count + 1, False)
        if i is None:
            lines.append(f"            return {{{', '.join(given(count + 1))}}}")
        else:
            lines.append(f"            return {missing(count + 1, i)}")
    for n in counts:
        lines.append(f"        if n == {n}:")
        i = first_missing(n, False)
        if i is None:
            lines.append(f"            return {{{', '.join(given(n))}}}")
        else:
            lines.append(f"            return {missing(n, i)}")
    lines.append('        return refusal(TOO_MANY_POSITIONAL, True)')
    # With keywords.
    cases = [(n, f"n == {n}") for n in counts]
    if var_positional is not None:
        cases.insert(0, (count + 1, f"n > {count}"))
    for n, test in cases:
        if not partial and any(shape[i][0] == _PO and not shape[i][1] for i in rest(n)):
            continue  # a positional-only parameter missing: inspect's way
        lines.append(f"    if {test}:")
        # A keyword naming a parameter given by position (but positional-only
        # ones, which may go to **kwargs), or naming a positional-only one
        # not given: inspect's way.
        clash = [positional[j] for j in range(min(n, count)) if shape[positional[j]][0] == _PK]
        clash += [positional[j] for j in range(n, count) if shape[positional[j]][0] == _PO]
        if clash:
            lines.append(f"        if {' or '.join(f'{_n(i)} in kwargs' for i in clash)}:")
            lines.append("            return _FALLBACK")
        lines.append(f"        bound = {{{', '.join(given(n))}}}")
        keywords = [i for i in rest(n) if shape[i][0] != _PO]
        for i in keywords:
            lines.append(f"        if {_n(i)} in kwargs:")
            lines.append(f"            bound[{_n(i)}] = kwargs[{_n(i)}]")
            if not partial and not shape[i][1]:
                lines.append("        else:")
                lines.append(f"            return {missing(n, i)}")
        taken = f"len(bound) - {min(n, count + 1)}"
        lines.append(f"        if {taken} != len(kwargs):")
        if var_keyword is None:
            lines.append("            return _FALLBACK")
        else:
            for i in keywords:
                lines.append(f"            kwargs.pop({_n(i)}, None)")
            lines.append(f"            bound[{_n(var_keyword)}] = kwargs")
        lines.append("        return bound")
    lines.append("    return _FALLBACK")
    return "\n".join(lines) + "\n"


def _args_source(shape: Tuple[Any, ...]) -> str:
    # The parameters args reads: up to the first keyword-only or **kwargs.
    order = []
    for i, (kind, _) in enumerate(shape):
        if kind in (_KO, _VK):
            break
        order.append(i)
    lines = ["def args(a):"]

    def values(upto: List[int]) -> str:
        # *args last, as list.extend takes it (and with its message).
        plain = "(" + "".join(f"a[{_n(i)}], " for i in upto if shape[i][0] != _VP) + ")"
        if upto and shape[upto[-1]][0] == _VP:
            return f"{plain} + tuple(a[{_n(upto[-1])}])"
        return plain

    # The first one not given ends it.
    for j in range(len(order)):
        lines.append(f"    if {_n(order[j])} not in a:")
        lines.append(f"        return {values(order[:j])}")
    lines.append(f"    return {values(order)}")
    return "\n".join(lines) + "\n"


def _kwargs_source(shape: Tuple[Any, ...]) -> str:
    lines = ["def kwargs(a):"]

    def tail(start: int, indent: str) -> None:
        # From parameter ``start`` on, everything given is a keyword.
        lines.append(f"{indent}k = {{}}")
        for i in range(start, len(shape)):
            if shape[i][0] == _VK:
                lines.append(f"{indent}if {_n(i)} in a:")
                lines.append(f"{indent}    k.update(a[{_n(i)}])")
            else:
                lines.append(f"{indent}if {_n(i)} in a:")
                lines.append(f"{indent}    k[{_n(i)}] = a[{_n(i)}]")
        lines.append(f"{indent}return k")

    for i, (kind, _) in enumerate(shape):
        if kind in (_KO, _VK):
            tail(i, "    ")
            break
        lines.append(f"    if {_n(i)} not in a:")
        tail(i + 1, "        ")
    else:
        lines.append("    return {}")
    return "\n".join(lines) + "\n"


def _apply_defaults_source(shape: Tuple[Any, ...]) -> str:
    lines = ["def apply_defaults(a, parameters):"]
    required = [i for i, (kind, has_default) in enumerate(shape)
                if not has_default and kind not in (_VP, _VK)]

    def fill(i: int) -> str:
        # The value of parameter i, given or its default.
        kind, has_default = shape[i]
        if has_default:
            return f"a[{_n(i)}] if {_n(i)} in a else parameters[{_n(i)}]._default"
        if kind == _VP:
            return f"a[{_n(i)}] if {_n(i)} in a else ()"
        if kind == _VK:
            return f"a[{_n(i)}] if {_n(i)} in a else {{}}"
        return f"a[{_n(i)}]"

    # Every required parameter given (as after bind): one display.
    if required:
        lines.append(f"    if {' and '.join(f'{_n(i)} in a' for i in required)}:")
        lines.append(f"        return {{{', '.join(f'{_n(i)}: {fill(i)}' for i in range(len(shape)))}}}")
    else:
        lines.append(f"    return {{{', '.join(f'{_n(i)}: {fill(i)}' for i in range(len(shape)))}}}")
        return "\n".join(lines) + "\n"
    lines.append("    d = {}")
    for i, (kind, has_default) in enumerate(shape):
        if i in required:
            lines.append(f"    if {_n(i)} in a:")
            lines.append(f"        d[{_n(i)}] = a[{_n(i)}]")
        else:
            lines.append(f"    d[{_n(i)}] = {fill(i)}")
    lines.append("    return d")
    return "\n".join(lines) + "\n"
