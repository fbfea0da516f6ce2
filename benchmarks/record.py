"""The last recorded figures of every case, per GPU model, and the check that a new run kept them.

`recorded.json` (next to this file, in the repository) holds, for each device name and case, cuarray's median
time of the last run recorded: where it was measured (date, commit, quick or full mode). After a run,
`run.py` prints every case that got more than 5% slower than that record on the same GPU model; a session
merges a verified run's figures into the record with `run.py --record RESULTS_JSON` (here, after the GPU
machine's results came back), and commits it with benchmarks/RESULTS.md.

Only cuarray's time is compared: the peers' times move with the machine as ours do, and the ratios are in the
tables. A case measured on another GPU model, or never recorded, is not compared.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from common import fmt_time

RECORD = Path(__file__).resolve().parent / "recorded.json"
THRESHOLD = 0.05  # slower by more than this fraction of the recorded time is reported


def _median(case: dict[str, Any]) -> float | None:
    r = case.get("results", {}).get("cuarray", {})
    if r.get("status", "ok") != "ok":
        return None
    t = r.get("median_us")
    return float(t) if isinstance(t, (int, float)) and t > 0 else None


def load(path: Path = RECORD) -> dict[str, Any]:
    """The record at `path`; an empty one where there is no file yet."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return {"devices": {}}
    if not isinstance(data, dict) or not isinstance(data.get("devices"), dict):
        raise ValueError(f"{path}: not a benchmark record (no 'devices' map)")
    return data


def slower(run: dict[str, Any], record: dict[str, Any], threshold: float = THRESHOLD) -> list[dict[str, Any]]:
    """The cases of `run` whose cuarray median is more than `threshold` above the record of the same device,
    slowest first: name, now_us, was_us, change (a fraction), and the record's date, commit and mode."""
    device = run.get("meta", {}).get("device")
    known = record.get("devices", {}).get(device, {})
    out = []
    for c in run.get("cases", []):
        now, was = _median(c), known.get(c["name"])
        if now is None or not was or not was.get("us"):
            continue
        change = now / was["us"] - 1.0
        if change > threshold:
            out.append({"name": c["name"], "now_us": now, "was_us": was["us"], "change": change,
                        "date": was.get("date", "?"), "commit": was.get("commit", "?"), "quick": was.get("quick")})
    out.sort(key=lambda s: -s["change"])
    return out


def compared(run: dict[str, Any], record: dict[str, Any]) -> int:
    """How many of the run's measured cases have a record on the run's device."""
    known = record.get("devices", {}).get(run.get("meta", {}).get("device"), {})
    return sum(1 for c in run.get("cases", []) if _median(c) is not None and c["name"] in known)


def report(run: dict[str, Any], record: dict[str, Any], threshold: float = THRESHOLD) -> str:
    """The lines run.py prints: a header with the count, then one line per slower case."""
    device = run.get("meta", {}).get("device", "?")
    n = compared(run, record)
    if n == 0:
        return f"slower than recorded: no case of this run has a record on {device}"
    found = slower(run, record, threshold)
    head = f"slower than recorded (> {threshold:.0%} on {device}, {n} cases compared): "
    if not found:
        return head + "none"
    lines = [head + f"{len(found)}"]
    for s in found:
        mode = "quick" if s["quick"] else "full" if s["quick"] is not None else "?"
        lines.append(f"  {s['name']}: {fmt_time(s['now_us'])} against {fmt_time(s['was_us'])} (+{s['change']:.1%}; "
                     f"recorded {str(s['date'])[:10]}, {s['commit']}, {mode})")
    return "\n".join(lines)


def merge(run: dict[str, Any], record: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """`record` with the run's cuarray medians written over its device's entries; returns it and the count."""
    meta = run.get("meta", {})
    device = meta.get("device")
    if not device:
        raise ValueError("the run names no device")
    entries = record.setdefault("devices", {}).setdefault(device, {})
    n = 0
    for c in run.get("cases", []):
        t = _median(c)
        if t is None:
            continue
        entries[c["name"]] = {"us": round(t, 4), "date": meta.get("date"), "commit": meta.get("commit"),
                              "quick": bool(meta.get("quick"))}
        n += 1
    record["devices"][device] = dict(sorted(entries.items()))
    return record, n


def save(record: dict[str, Any], path: Path = RECORD) -> None:
    Path(path).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")

