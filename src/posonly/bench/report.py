"""Reporting: the tables as text, the JSON, pyperf's JSON, the plot, and the
comparison of two runs."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, Iterable, List, Optional, Tuple

from . import grid
from .grid import FLAG, report_width, wrap_text
from .runner import NOISY
from .suites import OPT_IN, SUITES


def _header(result: Dict[str, Any], width: int) -> List[str]:
    m = result["meta"]
    s = m["settings"]
    lines = [
        f"posonly {m['posonly']} bench: {m['python']}, implementation under test: "
        f"{m['implementation']}, {s['name']} run, {m['when']}",
        f"interpreter: {m['build']}",
        f"cpu: {m['cpu']} ({m['cpu_count']} cpus), load average before "
        f"{m['load_average_before']}, after {m.get('load_average_after')}",
        f"ns: a cell's best sample (samples of ~{s['sample_ns'] / 1e6:g} ms, one per round, "
        "cells interleaved round by round); ratio: the median over the rounds of the ratio "
        "within each round;",
        "+-: the widest half-width of a 95% confidence interval among the row's ratios; "
        f"{FLAG} marks a ratio known only within more than +-{100 * NOISY:.0f}% (not to be quoted)",
    ]
    if m["filter"] is not None:
        lines.append(f"filter: -k {m['filter']!r} (rows whose \"table: row\" contains it)")
    return [part for line in lines for part in wrap_text(line, width)]


def _skipped(section: Dict[str, Any], key: str, result: Dict[str, Any]) -> Optional[str]:
    name = section["title"].split(":")[0]
    if not section["selected"]:
        if key in OPT_IN:
            return f"{name}: not run (not in the default tables; --tables {key} runs it)"
        return f"{name}: not run (--tables)"
    if not section["rows"]:
        return (f"{name}: no row matches -k "
                f"{result['meta']['filter']!r} ({section['rows_filtered_out']} rows left out)")
    return None


def format_report(result: Dict[str, Any], width: Optional[int] = None) -> str:
    """The run as text, every line at most ``width`` characters (default:
    :func:`report_width`)."""
    width = report_width() if width is None else width
    lines = _header(result, width)
    for key, suite in SUITES.items():
        section = result[key]
        lines.append("")
        skipped = _skipped(section, key, result)
        lines.extend(wrap_text(skipped, width) if skipped else suite.format_section(section, width))
    lines.append("")
    lines.append(f"({result['meta']['seconds']:.1f} s)")
    return "\n".join(lines)


def write_json(result: Dict[str, Any], path: str) -> None:
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(result, stream, indent=1)
        stream.write("\n")


def cells(result: Dict[str, Any]) -> Iterable[Tuple[str, str, str, Dict[str, Any]]]:
    """Every measured cell: (table, row, column, cell)."""
    for key in SUITES:
        for row in result.get(key, {}).get("rows", []):
            for column, cell in row["cells"].items():
                yield key, row["name"], column, cell


# -- pyperf ----------------------------------------------------------------------


def pyperf_suite(result: Dict[str, Any]) -> Dict[str, Any]:
    """The run in pyperf's JSON format (version 1.0): one benchmark per cell,
    named "table: row: column", each sample a run of one value, in seconds
    per operation, with its loops; pyperf's own tools read it
    (``python -m pyperf compare_to old.json new.json``)."""
    m = result["meta"]
    benchmarks = []
    for table, row, column, cell in cells(result):
        benchmarks.append({
            "metadata": {
                "name": f"{table}: {row}: {column}",
                "loops": int(cell["loops"]),
                "inner_loops": int(cell["ops_per_loop"]),
                "unit": "second",
            },
            "runs": [{"values": [s * 1e-9]} for s in cell["samples"]],
        })
    return {
        "version": "1.0",
        "metadata": {
            "description": "python -m posonly bench",
            "python_version": m["python"].split()[-1],
            "python_implementation": m["python"].split()[0].lower(),
            "python_executable": m["executable"],
            "platform": m["platform"],
            "cpu_model_name": m["cpu"],
            "cpu_count": m["cpu_count"] or 1,
            "date": m["when"].replace("+00:00", ""),
            "perf_version": "posonly bench " + m["posonly"],
            "posonly_implementation": m["implementation"],
        },
        "benchmarks": benchmarks,
    }


def write_pyperf(result: Dict[str, Any], path: str) -> None:
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(pyperf_suite(result), stream)
        stream.write("\n")


# -- comparing two runs ----------------------------------------------------------


def mann_whitney(a: List[float], b: List[float]) -> float:
    """Two-sided p-value of the Mann-Whitney U test (normal approximation,
    with the correction for ties): how likely samples this different would
    be if both came from one distribution."""
    n1, n2 = len(a), len(b)
    if n1 < 2 or n2 < 2:
        return 1.0
    merged = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(merged)
    ties = 0.0
    i = 0
    while i < len(merged):
        j = i
        while j + 1 < len(merged) and merged[j + 1][0] == merged[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    r1 = sum(r for r, (_, which) in zip(ranks, merged) if which == 0)
    u = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(variance)
    return max(0.0, min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2))))


def check_result(result: Dict[str, Any]) -> None:
    """Raise ValueError naming the first part of ``result`` (a run's JSON)
    that ``compare`` cannot read: a missing or mistyped meta entry, table,
    row, cell, ratio or sample (``binding.rows[2].cells.floor.samples: ...``)."""

    def kind(value: Any) -> str:
        return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
                type(None): "null"}.get(type(value), "a number")

    def need(value: Any, types: Any, where: str, what: str) -> Any:
        if not isinstance(value, types) or isinstance(value, bool) and bool not in (
                types if isinstance(types, tuple) else (types,)):
            raise ValueError(f"{where} is {kind(value)}, not {what}")
        return value

    def number(value: Any, where: str, positive: bool = False) -> None:
        need(value, (int, float), where, "a number")
        if positive and not value > 0:
            raise ValueError(f"{where} is {value!r}, not a positive number")

    def entry(mapping: Dict[str, Any], key: str, where: str) -> Any:
        if key not in mapping:
            raise ValueError(f"{where} has no {key!r}")
        return mapping[key]

    meta = need(entry(result, "meta", "the result"), dict, "meta", "an object")
    for key in ("python", "implementation", "posonly", "when", "build"):
        need(entry(meta, key, "meta"), str, f"meta.{key}", "a string")
    settings = need(entry(meta, "settings", "meta"), dict, "meta.settings", "an object")
    need(entry(settings, "name", "meta.settings"), str, "meta.settings.name", "a string")
    for key in SUITES:
        if key not in result:
            continue  # a table this run did not know
        section = need(result[key], dict, key, "an object")
        rows = need(section.get("rows", []), list, f"{key}.rows", "an array")
        numbers: List[Tuple[str, Any]] = []
        for index, row in enumerate(rows):
            where = f"{key}.rows[{index}]"
            need(row, dict, where, "an object")
            need(entry(row, "name", where), str, f"{where}.name", "a string")
            cells = need(entry(row, "cells", where), dict, f"{where}.cells", "an object")
            for column, cell in cells.items():
                at = f"{where}.cells.{column}"
                need(cell, dict, at, "an object")
                number(entry(cell, "value", at), f"{at}.value", positive=True)
                samples = need(entry(cell, "samples", at), list, f"{at}.samples", "an array")
                for i, sample in enumerate(samples):
                    number(sample, f"{at}.samples[{i}]")
                if cell.get("spread") is not None:
                    number(cell["spread"], f"{at}.spread")
            ratios = need(row.get("ratios", {}), dict, f"{where}.ratios", "an object")
            numbers += [(f"{where}.ratios.{c}", n) for c, n in ratios.items()]
        geomean = need(section.get("geomean", {}), dict, f"{key}.geomean", "an object")
        numbers += [(f"{key}.geomean.{c}", n) for c, n in geomean.items()]
        for at, n in numbers:
            need(n, dict, at, "an object")
            if n.get("value") is not None:
                number(n["value"], f"{at}.value", positive=True)
            if n.get("spread") is not None:
                number(n["spread"], f"{at}.spread")


def compare_cell(old: Dict[str, Any], new: Dict[str, Any], alpha: float = 0.01) -> Dict[str, Any]:
    """A cell's change from ``old`` to ``new`` and whether it is significant:
    the samples differ by the Mann-Whitney test at ``alpha``, and the change
    of the best exceeds both cells' spreads (what the instrument resolves)."""
    change = new["value"] / old["value"] - 1.0
    p = mann_whitney(old["samples"], new["samples"])
    resolution = (old["spread"] or 0.0) + (new["spread"] or 0.0)
    significant = p < alpha and abs(change) > max(resolution, 0.01)
    return {"change": change, "p": p, "resolution": resolution, "significant": significant}


def compare(old: Dict[str, Any], new: Dict[str, Any], width: Optional[int] = None,
            only_significant: bool = False) -> Tuple[str, List[Dict[str, Any]]]:
    """Every cell and every ratio present in both runs: its change and
    significance, as text at most ``width`` characters wide (default:
    :func:`report_width`; with ``only_significant``, the rows that changed
    significantly), and as rows."""
    width = report_width() if width is None else width
    found = {(t, r, c): cell for t, r, c, cell in cells(old)}
    rows = []
    for t, r, c, cell in cells(new):
        before = found.get((t, r, c))
        if before is None:
            continue
        verdict = compare_cell(before, cell)
        rows.append({"table": t, "row": r, "column": c, "old": before["value"],
                     "new": cell["value"], **verdict})
    ratios = compare_ratios(old, new)
    lines = []
    for label, run in (("old", old), ("new", new)):
        m = run["meta"]
        lines += wrap_text(f"{label}: {m['python']} ({m['implementation']}), posonly "
                           f"{m['posonly']}, {m['settings']['name']} run, {m['when']}, "
                           f"{m['build']}", width)

    def shown(found: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        return [r for r in found if r["significant"]] if only_significant else found

    def changes(found: List[Dict[str, Any]], name: str, number: str,
                last: Tuple[str, List[str]], words: Tuple[str, str]) -> List[str]:
        kept = shown(found)
        if not kept:
            return []
        labels = [("table: row", [f"{r['table']}: {r['row']}" for r in kept]),
                  (name, [r["column"] for r in kept])]
        values: List[grid.Column] = [
            ("old", [format(r["old"], number) for r in kept]),
            ("new", [format(r["new"], number) for r in kept]),
            ("change", [f"{100 * r['change']:+.1f}%" for r in kept]),
            last,
            ("verdict", [(words[0] if r["change"] > 0 else words[1]) if r["significant"]
                         else "n.s." for r in kept]),
        ]
        return [""] + grid.lines(labels, values, width)

    lines += changes(rows, "column", ".1f", ("p", [f"{r['p']:.3g}" for r in shown(rows)]),
                     ("slower", "faster"))
    significant = [r for r in rows if r["significant"]]
    lines.append("")
    lines += wrap_text(f"{len(rows)} cells compared, {len(significant)} changed "
                       "significantly (Mann-Whitney p < 0.01 on the samples and a change wider "
                       "than the two spreads; n.s.: not significant)", width)
    lines.append("")
    lines += wrap_text("ratios (the tables' answers; absolute times above move with the load, "
                       "ratios should not):", width)
    lines += changes(ratios, "ratio", ".3f",
                     ("+-", [f"{100 * r['resolution']:.1f}%" for r in shown(ratios)]),
                     ("higher", "lower"))
    moved = [r for r in ratios if r["significant"]]
    lines.append("")
    lines += wrap_text(f"{len(ratios)} ratios compared, {len(moved)} changed significantly "
                       "(a change wider than the two ratios' intervals together, and over 1 %)",
                       width)
    return "\n".join(lines), rows + ratios


def ratio_items(result: Dict[str, Any]) -> Iterable[Tuple[str, str, str, Dict[str, Any]]]:
    """Every ratio and geomean: (table, row, column, number)."""
    for key in SUITES:
        section = result.get(key, {})
        for row in section.get("rows", []):
            for column, n in row["ratios"].items():
                yield key, row["name"], column, n
        for column, n in section.get("geomean", {}).items():
            yield key, "geomean", column, n


def compare_ratios(old: Dict[str, Any], new: Dict[str, Any]) -> List[Dict[str, Any]]:
    found = {(t, r, c): n for t, r, c, n in ratio_items(old)}
    out = []
    for t, r, c, n in ratio_items(new):
        before = found.get((t, r, c))
        if before is None or before["value"] is None or n["value"] is None:
            continue
        change = n["value"] / before["value"] - 1.0
        resolution = sum(float("inf") if x["spread"] is None else x["spread"] for x in (before, n))
        out.append({"table": t, "row": r, "column": c, "old": before["value"],
                    "new": n["value"], "change": change, "resolution": resolution,
                    "significant": abs(change) > max(resolution, 0.01), "kind": "ratio"})
    return out


# -- the plot ---------------------------------------------------------------------


def plot(result: Dict[str, Any], path: str) -> None:
    """Every table's ratios as grouped bars with their spread as error bars,
    one panel per table, each legend beside its panel (it covers no bar).
    A noisy ratio's bar is hatched."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import FormatStrFormatter

    panels = [(key, result[key]) for key in SUITES if result[key]["rows"]]
    if not panels:
        return
    fig, axes = plt.subplots(len(panels), 1, figsize=(14, 3.4 * len(panels) + 0.6),
                             squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (key, section) in zip(axes[:, 0], panels):
        rows = section["rows"]
        columns: List[str] = []
        for row in rows:
            for column in row["ratios"]:
                if column not in columns:
                    columns.append(column)
        width = 0.8 / max(1, len(columns))
        handles = []
        values: List[float] = []
        for k, column in enumerate(columns):
            colour = colours[k % len(colours)]
            xs, ys, errs, noisy = [], [], [], []
            for i, row in enumerate(rows):
                n = row["ratios"].get(column)
                if n is None or n["value"] is None:
                    continue
                xs.append(i + (k - (len(columns) - 1) / 2) * width)
                ys.append(n["value"])
                errs.append(n["value"] * (n["spread"] if n["spread"] is not None else 0.0))
                noisy.append(n["noisy"])
            values += ys
            bars = ax.bar(xs, ys, width, color=colour, yerr=[[0] * len(errs), errs],
                          capsize=2, error_kw={"lw": 0.8})
            for bar, flag in zip(bars, noisy):
                if flag:
                    bar.set_hatch("///")
                    bar.set_edgecolor("white")
            handles.append(Patch(color=colour, label=section["columns"].get(column, column)))
        handles.append(Patch(facecolor="lightgrey", hatch="///", edgecolor="white",
                             label=f"noisy: spread over {100 * NOISY:.0f}%"))
        ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
        if values and max(values) / max(min(values), 1e-9) > 8:
            ax.set_yscale("log")
            ax.set_ylabel("ratio (log scale)")
        else:
            ax.set_ylabel("ratio")
            ax.set_ylim(0, max(values + [1.0]) * 1.15)
        ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels([r["name"] for r in rows], rotation=15, ha="right", fontsize=7)
        ax.set_title(f"{section['title']}\nratio = {section['reference']}", fontsize=8,
                     loc="left")
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  borderaxespad=0.0)
    m = result["meta"]
    fig.suptitle(f"posonly bench: {m['python']}, implementation {m['implementation']}, "
                 f"{m['settings']['name']} run, {m['when']}; error bars: spread", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.985))
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)
