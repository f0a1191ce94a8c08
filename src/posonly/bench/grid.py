"""The report's text, the parts every table's formatter uses: ratios and
spreads as the report prints them, prose wrapped to the report's width, and
a grid of columns that fits it."""

from __future__ import annotations

import shutil
import textwrap
from typing import Any, Dict, Iterable, List, Optional, Tuple

FLAG = "?"
#: The width of the report when the terminal's is unknown (not a terminal,
#: no ``COLUMNS``).
WIDTH = 100


def report_width() -> int:
    """The report's width: ``COLUMNS`` when set, else the terminal's, else
    ``WIDTH``; at least 60."""
    return max(60, shutil.get_terminal_size((WIDTH, 24)).columns)


def ratio(n: Optional[Dict[str, Any]], width: int = 9) -> str:
    """A ratio to three significant digits (``0.57x``, ``40.3x``, ``117x``),
    with ``?`` when its spread is too wide, else a space (the flags line up)."""
    if n is None or n.get("value") is None:
        return f"{'- ':>{width}}"
    value = n["value"]
    digits = 2 if abs(value) < 10 else 1 if abs(value) < 100 else 0
    text = f"{value:.{digits}f}x" + (FLAG if n["noisy"] else " ")
    return f"{text:>{width}}"


def pct(spread: Optional[float]) -> str:
    return "  inf" if spread is None else f"{100 * spread:4.1f}%"


def short(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, a signature or call keeping its
    closing parenthesis: ``(a, b, c, d...)``."""
    if len(text) <= width:
        return text
    end = ")" if text.endswith(")") else ""
    return text[: max(width - 3 - len(end), 0)] + "..." + end


def row_spread(row: Dict[str, Any]) -> Optional[float]:
    """The widest interval among the row's ratios."""
    spreads = [n["spread"] for n in row["ratios"].values()]
    return None if any(s is None for s in spreads) or not spreads else max(spreads)


def wrap_text(text: str, width: int, indent: str = "  ") -> List[str]:
    """A line of prose wrapped to ``width``, its continuation lines indented."""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=True) or [""]


#: A column of a grid: its head and one text per row.
Column = Tuple[str, List[str]]


def _blocks(label_width: int, value_widths: List[int], width: int) -> List[List[int]]:
    """The value columns (by index) of each block, packed in order."""
    blocks: List[List[int]] = [[]]
    taken = label_width
    for index, w in enumerate(value_widths):
        if blocks[-1] and taken + w > width:
            blocks.append([])
            taken = label_width
        blocks[-1].append(index)
        taken += w
    return blocks


def lines(labels: List[Column], values: List[Column], width: int) -> List[str]:
    """Rows named by the ``labels`` columns (left-aligned) with the
    ``values`` columns (right-aligned) beside them, fitting ``width``; the
    values that do not fit go into further blocks below, each naming its
    rows again.  Label columns are cut to 40 % of ``width``, and further
    (the widest first, to half that, never below 16) where that saves a
    block."""
    gap = 2
    cap = max(20, int(0.4 * width))  # a long signature is cut whatever the room
    natural = [min(cap, max([len(head)] + [len(c) for c in cells])) for head, cells in labels]
    floor = [w if w <= 16 else max(16, w // 2) for w in natural]
    # A ratio's flag (or a space) follows its "x": its head is set one place left.
    heads = [head + " " if cells and cells[0].endswith((" ", FLAG)) else head
             for head, cells in values]
    value_widths = [max([len(h)] + [len(c) for c in cells]) + 1
                    for h, (_, cells) in zip(heads, values)]
    label_widths = list(natural)
    best = (len(_blocks(sum(natural) + gap * len(labels), value_widths, width)), natural)
    while True:
        shrinkable = [i for i, w in enumerate(label_widths) if w > floor[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: label_widths[i])
        label_widths[widest] -= 1
        count = len(_blocks(sum(label_widths) + gap * len(labels), value_widths, width))
        if count < best[0]:
            best = (count, list(label_widths))
    label_widths = best[1]
    # A narrow terminal: labels cut further, until one value column fits.
    widest_value = max(value_widths, default=0)
    while (sum(label_widths) + gap * len(labels) + widest_value > width
           and max(label_widths, default=0) > 6):
        label_widths[label_widths.index(max(label_widths))] -= 1
    blocks = _blocks(sum(label_widths) + gap * len(labels), value_widths, width)
    rows = len(labels[0][1]) if labels else 0
    lines: List[str] = []
    for number, block in enumerate(blocks):
        if number:
            lines.append("")
        for row in range(-1, rows):
            text = "".join(
                f"{short(head if row < 0 else cells[row], w):<{w + gap}}"
                for (head, cells), w in zip(labels, label_widths))
            text += "".join(
                f"{heads[i] if row < 0 else values[i][1][row]:>{value_widths[i]}}"
                for i in block)
            lines.append(text.rstrip())
    return lines


def legend(entries: Iterable[Tuple[str, str]], width: int) -> List[str]:
    """``columns: head = what it is; ...``, wrapped to ``width``."""
    return wrap_text("columns: " + "; ".join(f"{head} = {text}" for head, text in entries), width)


def title(section: Dict[str, Any], width: int) -> List[str]:
    stops = section["stopped"].split(", ") if section["stopped"] else []
    stopped = ", ".join(f"{stop} x{stops.count(stop)}" if stops.count(stop) > 1 else stop
                        for stop in dict.fromkeys(stops))
    return wrap_text(f"{section['title']} ({section['rounds']} rounds, {section['seconds']:.1f} s, "
                 f"stopped: {stopped})", width)


def rows(section: Dict[str, Any], *keys: str) -> List[List[str]]:
    return [[str(row.get(key, "")) for row in section["rows"]] for key in keys]


def with_geomean(cells: List[str], section: Dict[str, Any], label: bool) -> List[str]:
    if not section["geomean"]:
        return cells
    return cells + (["geomean"] if label else [""])
