"""benchmarks/record.py and run.py's --record/--baseline: the record of each case's last time per GPU model, and
the report of every case of a new run more than 5% slower than it (issue 23). No GPU needed."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import record  # noqa: E402


def _run(device, times, commit="abc1234", quick=True, errors=()):
    cases = []
    for name, t in times.items():
        r = {"status": "error", "error": "boom"} if name in errors else {"status": "ok", "median_us": t}
        cases.append({"name": name, "results": {"cuarray": r, "cupy": {"status": "ok", "median_us": 2 * t}}})
    libraries = {"cuarray": {"available": True, "version": "0"}, "cupy": {"available": True, "version": "0"}}
    return {"meta": {"device": device, "commit": commit, "date": "2026-11-28T17:00:00+00:00", "quick": quick,
                     "libraries": libraries}, "cases": cases}


def test_merge_then_compare_reports_only_cases_past_the_threshold():
    rec, n = record.merge(_run("H200", {"a": 100.0, "b": 10.0, "c": 1.0, "d": 50.0}), {"devices": {}})
    assert n == 4
    now = _run("H200", {"a": 104.9, "b": 10.51, "c": 2.0, "d": 40.0, "new": 3.0})
    found = record.slower(now, rec)
    # a: +4.9% is within; b: +5.1% and c: +100% are reported, slowest first; d got faster; new has no record
    assert [s["name"] for s in found] == ["c", "b"]
    assert found[0]["was_us"] == 1.0 and found[0]["now_us"] == 2.0
    assert found[0]["change"] == pytest.approx(1.0)
    assert found[1]["change"] == pytest.approx(0.051)
    assert found[0]["commit"] == "abc1234" and found[0]["quick"] is True
    assert record.compared(now, rec) == 4
    text = record.report(now, rec)
    assert "4 cases compared" in text and "c: 2.00 µs against 1.00 µs (+100.0%" in text and "b:" in text
    assert "a:" not in text and "d:" not in text and "new" not in text
    assert record.slower(now, rec, threshold=2.0) == []
    assert record.report(now, rec, threshold=2.0).endswith(": none")


def test_other_devices_and_failed_cases_are_not_compared():
    rec, _ = record.merge(_run("H100", {"a": 1.0}), {"devices": {}})
    rec, _ = record.merge(_run("H200", {"a": 1.0, "e": 1.0}, errors=("e",)), rec)
    assert set(rec["devices"]) == {"H100", "H200"}
    assert set(rec["devices"]["H200"]) == {"a"}  # an error is not recorded
    assert record.slower(_run("A100", {"a": 9.0}), rec) == []
    assert "no case of this run has a record on A100" in record.report(_run("A100", {"a": 9.0}), rec)
    assert record.slower(_run("H200", {"a": 9.0}, errors=("a",)), rec) == []
    assert [s["name"] for s in record.slower(_run("H100", {"a": 9.0}), rec)] == ["a"]


def test_a_newer_run_replaces_the_entries_it_measured_and_keeps_the_rest():
    rec, _ = record.merge(_run("H200", {"a": 1.0, "b": 2.0}, commit="old"), {"devices": {}})
    rec, n = record.merge(_run("H200", {"b": 3.0}, commit="new", quick=False), rec)
    assert n == 1
    assert rec["devices"]["H200"]["a"]["commit"] == "old"
    assert rec["devices"]["H200"]["b"] == {"us": 3.0, "date": "2026-11-28T17:00:00+00:00", "commit": "new",
                                           "quick": False}
    with pytest.raises(ValueError):
        record.merge({"meta": {}, "cases": []}, rec)


def test_load_and_save(tmp_path):
    p = tmp_path / "rec.json"
    assert record.load(p) == {"devices": {}}
    rec, _ = record.merge(_run("H200", {"a": 1.5}), record.load(p))
    record.save(rec, p)
    assert record.load(p) == rec
    p.write_text(json.dumps([1, 2]))
    with pytest.raises(ValueError):
        record.load(p)


def test_the_repository_record_is_well_formed():
    rec = record.load()
    assert rec["devices"], "benchmarks/recorded.json holds no device"
    for device, cases in rec["devices"].items():
        assert cases, device
        for name, e in cases.items():
            assert e["us"] > 0 and e["commit"] and e["date"] and isinstance(e["quick"], bool), (device, name)


def test_run_py_records_and_compares(tmp_path):
    base = tmp_path / "rec.json"
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(json.dumps(_run("H200", {"a": 10.0, "b": 10.0})))
    second.write_text(json.dumps(_run("H200", {"a": 20.0, "b": 10.2})))
    run_py = [sys.executable, str(BENCH / "run.py")]
    r = subprocess.run(run_py + ["--record", str(first), "--baseline", str(base), "--commit", "fedcba9"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "recorded 2 cases of H200 at fedcba9" in r.stdout
    assert json.loads(base.read_text())["devices"]["H200"]["a"]["commit"] == "fedcba9"
    r = subprocess.run(run_py + ["--summarize", str(second), "--baseline", str(base)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "slower than recorded (> 5% on H200, 2 cases compared): 1" in r.stdout
    assert "a: 20.0 µs against 10.0 µs (+100.0%; recorded 2026-11-28, fedcba9, quick)" in r.stdout
    assert "  b:" not in r.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"meta": {}, "cases": []}))
    r = subprocess.run(run_py + ["--record", str(bad), "--baseline", str(base)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1 and "cannot record (the run names no device)" in r.stdout, (r.stdout, r.stderr)
