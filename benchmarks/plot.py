"""Draws PNG plots of a benchmark run from the runner's results.json (benchmarks/run.py calls it; docs use it too).

    python benchmarks/plot.py RESULTS_JSON [--out DIR]

One figure per benchmark module (median time of each case per library, log scale) and one of the speed ratios
peer time / cuarray time over all cases. matplotlib is imported only here, when plotting; without it the runner
prints a message and goes on.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

LIBRARIES = ("cuarray", "cupy", "torch")
LABELS = {"cuarray": "cuarray", "cupy": "CuPy", "torch": "PyTorch"}
COLORS = {"cuarray": "#76b900", "cupy": "#4a7fb5", "torch": "#e8743b"}


def _median(case: dict[str, Any], lib: str) -> float | None:
    r = case["results"].get(lib)
    if not r or r.get("status") != "ok":
        return None
    v = r.get("median_us")
    return v if isinstance(v, (int, float)) and math.isfinite(v) and v > 0 else None


def _libs(data: dict[str, Any]) -> list[str]:
    info = data["meta"].get("libraries", {})
    return [n for n in LIBRARIES if n == "cuarray" or info.get(n, {}).get("available")]


def _title(data: dict[str, Any], what: str) -> str:
    m = data["meta"]
    mode = "quick" if m.get("quick") else "full"
    return f"{what}\n{m.get('device', '?')}, commit {m.get('commit', '?')}, {m.get('date', '?')[:10]} ({mode} run)"


def _module_figure(plt: Any, data: dict[str, Any], module: str, cases: list[dict[str, Any]], path: Path) -> None:
    libs = _libs(data)
    n = len(cases)
    fig, ax = plt.subplots(figsize=(9, 1.4 + 0.4 * n))
    height = 0.8 / len(libs)
    for j, lib in enumerate(libs):
        ys, xs = [], []
        for i, c in enumerate(cases):
            v = _median(c, lib)
            if v is not None:
                ys.append(i + (j - (len(libs) - 1) / 2) * height)
                xs.append(v)
        # Markers, not bars: on a log axis a bar's length depends on where the axis happens to start.
        ax.plot(xs, ys, "o", color=COLORS[lib], label=LABELS[lib], markersize=6)
    ax.set_yticks(range(n))
    ax.set_yticklabels([c["name"] for c in cases], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("median time per call (µs, log scale; shorter is faster)")
    ax.set_title(_title(data, module), fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _ratio_figure(plt: Any, data: dict[str, Any], path: Path) -> bool:
    peers = [p for p in _libs(data) if p != "cuarray"]
    rows = []
    for c in data["cases"]:
        base = _median(c, "cuarray")
        times = {p: _median(c, p) for p in peers}
        ratios = {p: t / base for p, t in times.items() if base is not None and t is not None}
        if ratios:
            rows.append((c["name"], ratios))
    if not rows:
        return False
    fig, ax = plt.subplots(figsize=(9, 1.5 + 0.22 * len(rows) * max(1, len(peers))))
    height = 0.8 / len(peers)
    for j, p in enumerate(peers):
        ys = [i + (j - (len(peers) - 1) / 2) * height for i, (_, r) in enumerate(rows) if p in r]
        xs = [r[p] for _, r in rows if p in r]
        # Bars grow from 1 (equal speed) to the ratio, so that their length means something on the log axis.
        ax.barh(ys, [x - 1.0 for x in xs], left=1.0, height=height, color=COLORS[p],
                label=f"{LABELS[p]} time / cuarray time")
        for x, y in zip(xs, ys):
            ax.annotate(f"{x:.3g}x", (x, y), xytext=(3 if x >= 1 else -3, 0), textcoords="offset points",
                        ha="left" if x >= 1 else "right", va="center", fontsize=7)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([name for name, _ in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("speed ratio (log scale; right of 1: cuarray is faster)")
    ax.set_title(_title(data, "cuarray against its peers"), fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def plot_results(data: dict[str, Any], out_dir: Path) -> list[Path]:
    """Writes the PNGs into out_dir and returns their paths; [] (with a message) when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench: matplotlib is not installed, no plots (pip install matplotlib)", file=sys.stderr)
        return []
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    by_module: dict[str, list[dict[str, Any]]] = {}
    for c in data["cases"]:
        if any(_median(c, lib) is not None for lib in LIBRARIES):
            by_module.setdefault(c["module"], []).append(c)
    for module, cases in sorted(by_module.items()):
        path = out_dir / f"{module}.png"
        _module_figure(plt, data, module, cases, path)
        written.append(path)
    path = out_dir / "ratios.png"
    if _ratio_figure(plt, data, path):
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", type=Path, help="a results.json written by benchmarks/run.py")
    ap.add_argument("--out", type=Path, default=None, help="folder for the PNGs (default: beside the JSON)")
    args = ap.parse_args(argv)
    try:
        data = json.loads(args.results.read_text())
    except (OSError, ValueError) as e:
        print(f"bench: cannot read {args.results}: {e}", file=sys.stderr)
        return 1
    paths = plot_results(data, args.out or args.results.parent / "plots")
    for p in paths:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
