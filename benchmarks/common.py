"""Benchmark framework: library back ends (cuarray, cupy, torch), timing helpers, case registry, result tables."""

from __future__ import annotations

import dataclasses
import datetime
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Callable

import numpy as np

LIBRARIES = ("cuarray", "cupy", "torch")
PEERS = ("cupy", "torch")
# A target missed by less than this fraction is marked 'close', not 'FAIL'.  On an H200 (2026-11-22),
# CuPy measured under two names in one --quick run gave ratios of 0.95 to 1.08 (full runs: 0.97 to 1.00).
CLOSE_FRACTION = 0.10


# ---------------------------------------------------------------------------
# Library back ends
# ---------------------------------------------------------------------------


class Backend:
    """One array library: its module, how to synchronise, time with events and free cached memory."""

    name = "?"

    def __init__(self) -> None:
        self.module: Any = None
        self.available = False
        self.reason = "not probed"
        self.version: str | None = None
        self.extra: dict[str, Any] = {}

    # The three hooks every back end provides once available.
    def sync(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def event(self) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def elapsed_ms(self, start: Any, end: Any) -> float:  # pragma: no cover - overridden
        raise NotImplementedError

    def cleanup(self, collect: bool = False) -> None:
        """Return the library's cached device and pinned memory to the driver (after a full gc if asked)."""
        if collect:
            gc.collect()

    def device_name(self) -> str | None:
        return None

    def info(self) -> dict[str, Any]:
        return {"available": self.available, "version": self.version, "reason": self.reason, **self.extra}


class CupyLikeBackend(Backend):
    """cuarray and cupy: both expose CuPy's API (cuda.Event, cuda.get_elapsed_time, memory pools)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self._sync: Callable[[], None] | None = None

    def probe(self) -> "CupyLikeBackend":
        try:
            mod = __import__(self.name)
        except Exception as e:  # ImportError, or a broken extension module
            self.reason = f"import failed: {type(e).__name__}: {e}".strip()
            return self
        self.module = mod
        self.version = str(getattr(mod, "__version__", "unknown"))
        try:
            is_avail = getattr(mod, "is_available", None)
            ok = bool(is_avail()) if is_avail is not None else mod.cuda.runtime.getDeviceCount() > 0
        except Exception as e:
            self.reason = f"is_available() failed: {type(e).__name__}: {e}"
            return self
        if not ok:
            self.reason = "imported, but reports no usable GPU (is_available() is False)"
            return self
        cuda = mod.cuda
        # Synchronise the current stream (what a user would do); fall back to the device.
        if hasattr(cuda, "get_current_stream"):
            self._sync = lambda: cuda.get_current_stream().synchronize()
        elif hasattr(cuda, "Device"):
            self._sync = lambda: cuda.Device().synchronize()
        else:
            self._sync = lambda: cuda.runtime.deviceSynchronize()
        try:
            rt = cuda.runtime
            self.extra["cuda_runtime_version"] = rt.runtimeGetVersion()
            self.extra["cuda_driver_version"] = rt.driverGetVersion()
        except Exception:
            pass
        self.available = True
        self.reason = "ok"
        return self

    def sync(self) -> None:
        assert self._sync is not None
        self._sync()

    def event(self) -> Any:
        return self.module.cuda.Event()

    def elapsed_ms(self, start: Any, end: Any) -> float:
        return float(self.module.cuda.get_elapsed_time(start, end))

    def cleanup(self, collect: bool = False) -> None:
        if collect:
            gc.collect()
        if not self.available:
            return
        try:
            self.sync()
        except Exception:
            pass
        for getter in ("get_default_memory_pool", "get_default_pinned_memory_pool"):
            try:
                getattr(self.module, getter)().free_all_blocks()
            except Exception:
                pass

    def device_name(self) -> str | None:
        props = self.module.cuda.runtime.getDeviceProperties(0)
        name = props["name"]
        return name.decode() if isinstance(name, bytes) else str(name)


class TorchBackend(Backend):
    name = "torch"

    def probe(self) -> "TorchBackend":
        try:
            import torch
        except Exception as e:
            self.reason = f"import failed: {type(e).__name__}: {e}".strip()
            return self
        self.module = torch
        self.version = str(torch.__version__)
        self.extra["cuda_version"] = getattr(torch.version, "cuda", None)
        try:
            ok = torch.cuda.is_available()
        except Exception as e:
            self.reason = f"torch.cuda.is_available() failed: {type(e).__name__}: {e}"
            return self
        if not ok:
            self.reason = "imported, but torch.cuda.is_available() is False"
            return self
        self.available = True
        self.reason = "ok"
        return self

    def sync(self) -> None:
        self.module.cuda.synchronize()

    def event(self) -> Any:
        return self.module.cuda.Event(enable_timing=True)

    def elapsed_ms(self, start: Any, end: Any) -> float:
        return float(start.elapsed_time(end))

    def cleanup(self, collect: bool = False) -> None:
        if collect:
            gc.collect()
        if self.available:
            try:
                self.module.cuda.synchronize()
                self.module.cuda.empty_cache()
            except Exception:
                pass
            try:  # pinned host blocks live in a separate cache
                self.module._C._host_emptyCache()
            except Exception:
                pass

    def device_name(self) -> str | None:
        return str(self.module.cuda.get_device_name(0))


def detect_backends(names: tuple[str, ...] = LIBRARIES) -> dict[str, Backend]:
    """Import each library that is installed and usable; unavailable ones keep the reason why."""
    out: dict[str, Backend] = {}
    for name in names:
        b: Backend = TorchBackend().probe() if name == "torch" else CupyLikeBackend(name).probe()
        out[name] = b
    return out


# ---------------------------------------------------------------------------
# Timing helpers
# ---------------------------------------------------------------------------


_FUSED: dict[tuple[str, Any], Any] = {}


def fused_of(lib: "Backend", fn: Callable[..., Any]) -> Any:
    """`lib`'s fuse(fn), made once per library and function, so that later rounds reuse the compiled kernel."""
    key = (lib.name, fn)
    f = _FUSED.get(key)
    if f is None:
        fuse = getattr(lib.module, "fuse", None)
        if fuse is None:
            raise AttributeError(f"{lib.name} has no fuse()")
        f = _FUSED[key] = fuse(fn)
    return f


@dataclasses.dataclass
class Stats:
    """Samples of one measurement, each the time of one call in seconds."""

    samples_s: list[float]
    method: str
    inner_loop: int = 1  # calls averaged inside one sample (time_host_loop)
    note: str | None = None

    @property
    def median_s(self) -> float:
        return statistics.median(self.samples_s)

    @property
    def min_s(self) -> float:
        return min(self.samples_s)

    @property
    def p90_s(self) -> float:
        return float(np.percentile(self.samples_s, 90))

    def to_json(self, nbytes: int | None) -> dict[str, Any]:
        d: dict[str, Any] = {
            "status": "ok",
            "method": self.method,
            "median_us": self.median_s * 1e6,
            "min_us": self.min_s * 1e6,
            "p90_us": self.p90_s * 1e6,
            "mean_us": statistics.fmean(self.samples_s) * 1e6,
            "repetitions": len(self.samples_s),
            "inner_loop": self.inner_loop,
            "samples_us": [s * 1e6 for s in self.samples_s],
        }
        if nbytes:
            d["bytes"] = nbytes
            d["gbps_median"] = nbytes / self.median_s / 1e9
            d["gbps_best"] = nbytes / self.min_s / 1e9
        if self.note:
            d["note"] = self.note
        return d


class _NoGC:
    """Keep the cyclic garbage collector out of timed regions (as timeit does)."""

    def __enter__(self) -> None:
        self._was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: Any) -> None:
        if self._was:
            gc.enable()


def _sync_of(sync: Any) -> Callable[[], None]:
    if isinstance(sync, Backend):
        return sync.sync
    if sync is None:
        return lambda: None
    return sync


def time_gpu(fn: Callable[[], Any], sync: Any, n_warmup: int = 3, n_repeat: int = 20) -> Stats:
    """GPU-bound work: events recorded on the library's current stream around each call; median of repeats.

    `sync` is a Backend (events are used).  A plain callable is accepted too; then each call is
    bracketed by synchronisations and timed with the host clock.
    """
    if not isinstance(sync, Backend):
        s = _sync_of(sync)

        def once() -> None:
            fn()
            s()

        st = time_blocking(once, n_repeat=n_repeat, n_warmup=n_warmup)
        st.method = "gpu-hostclock"
        return st
    b = sync
    for _ in range(n_warmup):
        fn()
    b.sync()
    pairs = [(b.event(), b.event()) for _ in range(n_repeat)]
    with _NoGC():
        for start, end in pairs:
            start.record()
            fn()
            end.record()
        b.sync()
    samples = [b.elapsed_ms(start, end) * 1e-3 for start, end in pairs]
    return Stats(samples, "events")


def time_host_loop(
    fn: Callable[[], Any], sync: Any, n_loop: int = 1000, n_repeat: int = 7, n_warmup: int | None = None
) -> Stats:
    """Per-call overhead: a tight loop of n_loop calls timed with perf_counter, then one synchronise.

    One sample is (loop time + final sync) / n_loop; the median of n_repeat samples is reported.
    The Python loop itself (~30 ns a call) is included, equally for every library.
    """
    s = _sync_of(sync)
    for _ in range(n_warmup if n_warmup is not None else max(10, n_loop // 10)):
        fn()
    s()
    samples = []
    rng = range(n_loop)
    with _NoGC():
        for _ in range(n_repeat):
            t0 = time.perf_counter()
            for _ in rng:
                fn()
            s()
            samples.append((time.perf_counter() - t0) / n_loop)
    return Stats(samples, "host-loop", inner_loop=n_loop)


def time_blocking(fn: Callable[[], Any], n_repeat: int = 20, n_warmup: int = 2) -> Stats:
    """Synchronous host-visible work (the call blocks until done): perf_counter around each call; median."""
    for _ in range(n_warmup):
        fn()
    samples = []
    with _NoGC():
        for _ in range(n_repeat):
            t0 = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - t0)
    return Stats(samples, "blocking")


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------


class Skip(Exception):
    """Raised by a case for a library it does not apply to; the cell reads 'n/a'."""


@dataclasses.dataclass(frozen=True)
class Target:
    """A goal stated as a speed ratio: peer_time / cuarray_time >= min_ratio."""

    peer: str
    min_ratio: float
    label: str | None = None  # the text shown instead of ">= 1.0x cupy" (e.g. "<= 0.55x cupy time")

    kind = "peer"  # not a field: how judge_case() evaluates it

    @property
    def text(self) -> str:
        return self.label or f">= {self.min_ratio:.1f}x {self.peer}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "peer": self.peer, "min_ratio": self.min_ratio, "text": self.text}


# Reference cases of the targets below, measured in the same run (bench_elementwise / bench_foundation).
FLOOR_CASE = "launch_floor"
COPY_CASE = "d2d_copy_1GiB"


@dataclasses.dataclass(frozen=True)
class FloorTarget:
    """A goal stated against the launch floor: cuarray_time - floor <= max_above_us.

    The floor is the case `ref` (a C++ loop of cuLaunchKernel of an empty kernel) measured again right
    before each of cuarray's rounds of the case (run_case: the "paired floor", median of those samples),
    so that drift of the machine between cases cancels; results without it are judged against the `ref`
    case of the same run, once that has run (judge_targets), whatever the order of the cases.
    """

    max_above_us: float
    ref: str = FLOOR_CASE

    kind = "floor"

    @property
    def text(self) -> str:
        return f"<= floor + {self.max_above_us:g} µs"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "ref": self.ref, "max_above_us": self.max_above_us, "text": self.text}


@dataclasses.dataclass(frozen=True)
class BandwidthTarget:
    """A goal stated against the device copy: cuarray_GB/s >= min_fraction * copy_GB/s.

    Both GB/s count bytes read + bytes written (the case's nbytes).  The copy bandwidth is the best median
    GB/s of any library in the case `ref` of the same run (the device's copy bandwidth, not one library's).
    """

    min_fraction: float
    ref: str = COPY_CASE

    kind = "bandwidth"

    @property
    def text(self) -> str:
        return f">= {self.min_fraction:.2f}x copy GB/s"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "ref": self.ref, "min_fraction": self.min_fraction, "text": self.text}


AnyTarget = Any  # Target | FloorTarget | BandwidthTarget


@dataclasses.dataclass
class Case:
    name: str
    fn: Callable[[Backend, "Config"], Stats]
    module: str
    nbytes: int | None = None  # bytes moved per call, for GB/s
    target: AnyTarget | None = None  # the first of `targets`
    libs: tuple[str, ...] = LIBRARIES
    key: bool = False  # shown in gpu_check's short summary even without a target
    heavy: bool = False  # large data: fewer rounds (each round repeats the set-up)
    doc: str = ""
    targets: tuple[AnyTarget, ...] = ()  # every target of the case (all must be met)


REGISTRY: list[Case] = []


def case(
    name: str,
    *,
    nbytes: int | None = None,
    target: AnyTarget | tuple[AnyTarget, ...] | list[AnyTarget] | None = None,
    libs: tuple[str, ...] = LIBRARIES,
    key: bool = False,
    heavy: bool = False,
) -> Callable[[Callable[[Backend, "Config"], Stats]], Callable[[Backend, "Config"], Stats]]:
    """Register `fn(backend, cfg) -> Stats` as a benchmark case.

    `target` is one target (Target, FloorTarget, BandwidthTarget) or a tuple of them, all of which must be met.
    """

    def deco(fn: Callable[[Backend, "Config"], Stats]) -> Callable[[Backend, "Config"], Stats]:
        if any(c.name == name for c in REGISTRY):
            raise ValueError(f"duplicate benchmark case name {name!r}")
        mod = fn.__module__.rsplit(".", 1)[-1]
        doc = (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else ""
        if target is None:
            targets: tuple[AnyTarget, ...] = ()
        elif isinstance(target, (tuple, list)):
            targets = tuple(target)
        else:
            targets = (target,)
        for t in targets:
            if not callable(getattr(t, "to_json", None)):
                raise TypeError(f"case {name!r}: {t!r} is not a target")
        first = targets[0] if targets else None
        REGISTRY.append(Case(name, fn, mod, nbytes, first, libs, key, heavy, doc, targets))
        return fn

    return deco


class Config:
    """Run settings handed to every case, and a per-case cache of host data shared by the libraries.

    A case is measured in `rounds` rounds; each round calls the case once per library, in an order
    rotated from round to round, and the samples of all rounds are pooled.  Drift of the machine
    (clocks, other load, the allocator's state) then falls on every library alike instead of on
    whichever ran first.  `reps()` returns the repetitions for one round.
    """

    def __init__(self, quick: bool, rounds: int | None = None) -> None:
        self.quick = quick
        self.rounds_override = rounds
        self.rounds = 1  # set per case by rounds_for()
        self.round = 0  # the round being measured (cases check results in round 0 only)
        self._host: dict[Any, np.ndarray] = {}
        self._kept: dict[Any, np.ndarray] = {}

    def rounds_for(self, c: "Case") -> int:
        if self.rounds_override is not None:
            return self.rounds_override
        if c.heavy:
            return 3 if self.quick else 5
        return 5 if self.quick else 9

    def reps(self, full: int, quick: int) -> int:
        """Repetitions for one round, so that all rounds together give about `full` (or `quick`)."""
        total = quick if self.quick else full
        return max(2, math.ceil(total / self.rounds))

    @property
    def first_round(self) -> bool:
        return self.round == 0

    def host_random(self, n: int, dtype: Any = np.float32, seed: int = 0, keep: bool = False) -> np.ndarray:
        """Random (never zero-filled) host data in ordinary pageable NumPy memory, made once per case.

        keep=True keeps it for later cases too (until the run ends): large inputs that several cases share.
        """
        dt = np.dtype(dtype)
        key = (n, dt.str, seed)
        arr = self._kept.get(key)
        if arr is None:
            arr = self._host.get(key)
        if arr is None:
            rng = np.random.default_rng(seed)
            if dt.kind == "f":
                arr = rng.random(n, dtype=np.float32 if dt.itemsize <= 4 else np.float64).astype(dt, copy=False)
            else:
                arr = rng.integers(1, 100, n).astype(dt)
        if keep:
            self._kept[key] = arr
            self._host.pop(key, None)
        elif key not in self._kept:
            self._host[key] = arr
        return arr

    def clear(self, kept: bool = False) -> None:
        self._host.clear()
        if kept:
            self._kept.clear()


# ---------------------------------------------------------------------------
# Running and reporting
# ---------------------------------------------------------------------------


def _short_error(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}".strip().replace("\n", " ")


def _merge(parts: list[Stats]) -> Stats:
    st = Stats([x for p in parts for x in p.samples_s], parts[0].method, parts[0].inner_loop, parts[0].note)
    return st


def run_case(c: Case, backends: dict[str, Backend], cfg: Config, log: Callable[[str], None]) -> dict[str, Any]:
    """Measure one case for every library, in rotating rounds; an exception becomes that cell's error text."""
    res: dict[str, Any] = {}
    active = []
    for name in LIBRARIES:
        b = backends.get(name)
        if b is None:
            continue
        if not b.available:
            res[name] = {"status": "unavailable", "error": b.reason}
        elif name not in c.libs:
            res[name] = {"status": "skip", "error": "not applicable"}
        else:
            active.append(name)
    parts: dict[str, list[Stats]] = {n: [] for n in active}
    # A case with a floor target has the floor measured again right before each of cuarray's rounds (the
    # paired floor): the machine's drift between the floor case and this one then cancels out.
    paired_floor = None
    if any(getattr(t, "kind", None) == "floor" for t in (c.targets or ())) and c.name != FLOOR_CASE:
        refs = {t.ref for t in c.targets if getattr(t, "kind", None) == "floor"}
        paired_floor = next((x for x in REGISTRY if x.name in refs), None)
    floor_parts: list[Stats] = []
    spent: dict[str, float] = {n: 0.0 for n in active}
    cfg.rounds = cfg.rounds_for(c)
    for r in range(cfg.rounds):
        cfg.round = r
        k = r % len(active) if active else 0
        for name in active[k:] + active[:k]:
            if name in res:  # failed or skipped in an earlier round
                continue
            b = backends[name]
            t0 = time.perf_counter()
            failed = False
            try:
                if name == "cuarray" and paired_floor is not None:
                    floor_parts.append(paired_floor.fn(b, cfg))
                parts[name].append(c.fn(b, cfg))
            except Skip as e:
                res[name] = {"status": "skip", "error": str(e) or "not applicable"}
            except Exception as e:  # one library failing must not stop the run
                res[name] = {"status": "error", "error": _short_error(e), "round": r, "traceback": traceback.format_exc()}
                log(f"  {c.name:<28} {name:<8} ERROR {_short_error(e)[:200]}")
                failed = True
            b.cleanup(collect=failed)  # after a failure the traceback held the case's frames and arrays
            spent[name] += time.perf_counter() - t0
    for name in active:
        if name in res:
            continue
        st = _merge(parts[name])
        res[name] = st.to_json(c.nbytes)
        res[name]["rounds"] = len(parts[name])
        res[name]["round_medians_us"] = [p.median_s * 1e6 for p in parts[name]]
        if name == "cuarray" and floor_parts:
            res[name]["paired_floor_us"] = _merge(floor_parts).median_s * 1e6
        log(f"  {c.name:<28} {name:<8} {fmt_time(st.median_s * 1e6):>10}  ({spent[name]:.1f} s)")
    res = {n: res[n] for n in LIBRARIES if n in res}
    cfg.clear()
    cfg.round = 0
    for name in active:
        backends[name].cleanup(collect=True)

    out: dict[str, Any] = {
        "name": c.name,
        "module": c.module,
        "doc": c.doc,
        "bytes": c.nbytes,
        "key": c.key,
        "target": None if c.target is None else c.target.to_json(),
        "targets": [t.to_json() for t in (c.targets or ((c.target,) if c.target is not None else ()))],
        "results": res,
        "ratios": {},
        "target_met": None,
        "target_mark": None,
    }
    mine = res.get("cuarray", {})
    for peer in PEERS:
        other = res.get(peer, {})
        if mine.get("status") == "ok" and other.get("status") == "ok":
            out["ratios"][peer] = other["median_us"] / mine["median_us"]
    # Peer targets are judged now; floor and bandwidth targets once their reference case has run too
    # (judge_targets, called by write_results and the renderers).
    judge_case(out, {})
    return out


# ---------------------------------------------------------------------------
# Judging targets (also those that refer to another case of the same run)
# ---------------------------------------------------------------------------

_MARK_ORDER = {"FAIL": 0, "close": 1, "n/a": 2, "pass": 3}


def _ok_result(case_res: dict[str, Any] | None, lib: str = "cuarray") -> dict[str, Any] | None:
    if not case_res:
        return None
    r = case_res.get("results", {}).get(lib)
    return r if r and r.get("status") == "ok" else None


def _judge_one(t: dict[str, Any], case_res: dict[str, Any], by_name: dict[str, dict[str, Any]]) -> None:
    """Fill t's value, met, mark and detail (None / 'n/a' where it cannot be judged)."""
    kind = t.get("kind", "peer")
    t.update(value=None, met=None, mark="n/a", detail="")
    mine = _ok_result(case_res)
    if kind == "peer":
        ratio = case_res.get("ratios", {}).get(t["peer"])
        if ratio is None:
            return
        need = t["min_ratio"]
        t["value"] = ratio
        t["met"] = bool(ratio >= need)
        close = ratio >= need * (1 - CLOSE_FRACTION)
    elif kind == "floor":
        ref = _ok_result(by_name.get(t["ref"]))
        paired = mine.get("paired_floor_us") if mine else None
        if mine is None or (ref is None and paired is None):
            t["detail"] = "" if mine is None else f"no {t['ref']} result"
            return
        # The floor measured alongside the case's own rounds when there is one (run_case), else the
        # floor case of the run.
        if paired is not None:
            floor, ref_text = paired, f"{t['ref']} paired with each case"
        else:
            floor, ref_text = ref["median_us"], f"{t['ref']} {fmt_time(ref['median_us'])}"
        limit = t["max_above_us"]
        above = mine["median_us"] - floor
        t.update(value=above, ref_value=floor, ref_text=ref_text)
        t["met"] = bool(above <= limit)
        # Close: cuarray's time within CLOSE_FRACTION of the time the target allows.
        close = mine["median_us"] <= (floor + limit) * (1 + CLOSE_FRACTION)
        t["detail"] = ("+" if above >= 0 else "-") + fmt_time(abs(above))
        if paired is not None:
            t["detail"] += f" over {fmt_time(floor)}"
    elif kind == "bandwidth":
        ref_case = by_name.get(t["ref"])
        refs = [(r["gbps_median"], n) for n, r in (ref_case or {}).get("results", {}).items()
                if r.get("status") == "ok" and r.get("gbps_median")]
        if mine is None or not mine.get("gbps_median") or not refs:
            t["detail"] = "" if mine is None else f"no {t['ref']} result"
            return
        best, lib = max(refs)
        frac = mine["gbps_median"] / best
        t.update(value=frac, ref_value=best, ref_lib=lib, ref_text=f"{t['ref']} {fmt_gbps(best)} ({lib})")
        need = t["min_fraction"]
        t["met"] = bool(frac >= need)
        close = frac >= need * (1 - CLOSE_FRACTION)
        t["detail"] = f"{frac:.2f}x"
    else:
        t["detail"] = f"unknown target kind {kind!r}"
        return
    t["mark"] = "pass" if t["met"] else ("close" if close else "FAIL")


def judge_case(case_res: dict[str, Any], by_name: dict[str, dict[str, Any]]) -> None:
    """Judge every target of one case result; sets the per-target fields and target_met / target_mark.

    target_met: True when every target is met, False when any judged one is missed, else None.
    target_mark: the worst mark (FAIL < close < n/a < pass); None when nothing could be judged.
    Results written before "targets" existed keep their stored marks.
    """
    targets = case_res.get("targets")
    if not targets:
        return
    for t in targets:
        _judge_one(t, case_res, by_name)
    mets = [t["met"] for t in targets]
    if any(m is False for m in mets):
        case_res["target_met"] = False
    elif all(m is True for m in mets):
        case_res["target_met"] = True
    else:
        case_res["target_met"] = None
    judged = [t["mark"] for t in targets if t["met"] is not None]
    case_res["target_mark"] = min((t["mark"] for t in targets), key=_MARK_ORDER.__getitem__) if judged else None


def judge_targets(data: dict[str, Any]) -> None:
    """(Re)judge every case's targets against the other cases of the same run; idempotent."""
    by_name = {c["name"]: c for c in data.get("cases", [])}
    for c in data.get("cases", []):
        judge_case(c, by_name)


def _case_targets(case_res: dict[str, Any]) -> list[dict[str, Any]]:
    """The judged targets of a case result (one synthesised from the old single-target fields if need be)."""
    if case_res.get("targets"):
        return case_res["targets"]
    t = case_res.get("target")
    if not t:
        return []
    mark = case_res.get("target_mark")
    met = case_res.get("target_met")
    if mark is None and met is not None:  # results written before marks existed
        mark = "pass" if met else "FAIL"
    return [{**t, "met": met, "mark": mark or "n/a", "detail": ""}]


def _num(v: float) -> str:
    """Three significant figures, trailing zeros kept (2.00, 12.3, 456)."""
    return f"{v:.2f}" if v < 10 else (f"{v:.1f}" if v < 100 else f"{v:.0f}")


def fmt_time(us: float) -> str:
    if not math.isfinite(us):
        return "?"
    if us < 1.0:
        return f"{us * 1e3:.0f} ns"
    if us < 1000.0:
        return f"{_num(us)} µs"
    if us < 1e6:
        return f"{_num(us / 1e3)} ms"
    return f"{_num(us / 1e6)} s"


def fmt_gbps(gbps: float) -> str:
    return f"{_num(gbps * 1e3)} MB/s" if gbps < 1 else f"{_num(gbps)} GB/s"


def _cell(r: dict[str, Any] | None) -> str:
    if r is None:
        return "—"
    st = r.get("status")
    if st == "ok":
        s = fmt_time(r["median_us"])
        if "gbps_median" in r:
            s += f" ({fmt_gbps(r['gbps_median'])})"
        return s
    if st == "skip":
        return "n/a"
    if st == "unavailable":
        return "—"
    err = str(r.get("error", "error"))
    if len(err) > 60:
        err = err[:57] + "..."
    return "ERR " + err.replace("|", "\\|")


def _ratio_cell(case_res: dict[str, Any], peer: str) -> str:
    v = case_res["ratios"].get(peer)
    return "—" if v is None else f"{v:.2f}x"


def _target_cells(case_res: dict[str, Any]) -> tuple[str, str]:
    """Target texts and marks, '; '-separated when a case has several (a mark may carry its measured value)."""
    ts = _case_targets(case_res)
    if not ts:
        return "", ""
    texts = "; ".join(t["text"] for t in ts)
    marks = "; ".join(t["mark"] + (f" ({t['detail']})" if t.get("detail") else "") for t in ts)
    return texts, marks


def _columns(data: dict[str, Any]) -> tuple[list[str], list[str]]:
    libs_info = data["meta"]["libraries"]
    libs = [n for n in LIBRARIES if n in libs_info and (n == "cuarray" or libs_info[n]["available"])]
    peers = [p for p in PEERS if p in libs]
    return libs, peers


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def render_table(data: dict[str, Any]) -> str:
    """The full Markdown table: per library median time (and GB/s), speed ratios, target and mark."""
    judge_targets(data)
    libs, peers = _columns(data)
    header = ["case"] + libs + [f"cuarray/{p}" for p in peers] + ["target", "ok"]
    rows = []
    for c in data["cases"]:
        tgt, ok = _target_cells(c)
        rows.append([c["name"]] + [_cell(c["results"].get(n)) for n in libs] + [_ratio_cell(c, p) for p in peers] + [tgt, ok])
    return _md_table(header, rows)


def render_short(data: dict[str, Any], max_rows: int = 8) -> str:
    """Name, ratio and target columns for the key rows (a target, marked key, or a cuarray error).

    When there are more than max_rows, rows that need a look (a target missed, close or not judged, a
    cuarray error) are kept first; the rows shown keep the run's order.
    """
    judge_targets(data)
    _, peers = _columns(data)
    header = ["case"] + [f"cuarray/{p}" for p in peers] + ["target", "ok"]
    rows = []
    urgent = []
    for c in data["cases"]:
        mine = c["results"].get("cuarray", {})
        if not (c.get("target") or c.get("targets") or c.get("key") or mine.get("status") == "error"):
            continue
        tgt, ok = _target_cells(c)
        if mine.get("status") == "error":
            ok = (ok + " ERR").strip()
        rows.append([c["name"]] + [_ratio_cell(c, p) for p in peers] + [tgt, ok])
        marks = [t["mark"] for t in _case_targets(c)]
        urgent.append(mine.get("status") == "error" or any(m != "pass" for m in marks))
    more = len(rows) - max_rows
    if more > 0:
        order = [i for i, u in enumerate(urgent) if u] + [i for i, u in enumerate(urgent) if not u]
        keep = sorted(order[:max_rows])
        left_urgent = sum(1 for i in order[max_rows:] if urgent[i])
        rows = [rows[i] for i in keep]
    text = _md_table(header, rows)
    if more > 0:
        tail = f"{left_urgent} of them not passing" if left_urgent else "all passing or without a target"
        text += f"\n(+{more} more rows in results.md, {tail})"
    return text


def summary_line(data: dict[str, Any]) -> str:
    """One line: cases, targets met (each target of a case counted), cuarray errors, reference values."""
    judge_targets(data)
    cases = data["cases"]
    all_t = [t for c in cases for t in _case_targets(c)]
    met = sum(1 for t in all_t if t.get("met"))
    judged = sum(1 for t in all_t if t.get("met") is not None)
    errs = [c["name"] for c in cases if c["results"].get("cuarray", {}).get("status") == "error"]
    cu = data["meta"]["libraries"].get("cuarray", {})
    close = sum(1 for t in all_t if t.get("mark") == "close")
    s = f"{len(cases)} cases, targets met {met}/{len(all_t)}"
    notes = ([f"{close} close"] if close else []) + ([f"{len(all_t) - judged} not judged"] if judged < len(all_t) else [])
    if notes:
        s += f" ({', '.join(notes)})"
    refs = list(dict.fromkeys(t["ref_text"] for t in all_t if t.get("ref_text")))
    if refs:
        s += f"; refs: {', '.join(refs)}"
    if not cu.get("available"):
        s += f"; cuarray unavailable: {cu.get('reason', '?')[:80]}"
    elif errs:
        s += f"; cuarray errors in {len(errs)}: {', '.join(errs[:4])}"
    return s


def render_markdown(data: dict[str, Any]) -> str:
    m = data["meta"]
    lines = [
        "# cuarray benchmarks",
        "",
        f"- date: {m['date']}",
        f"- device: {m.get('device') or 'unknown'}",
        f"- commit: {m.get('commit') or 'unknown'}",
        f"- mode: {'quick' if m.get('quick') else 'full'}",
        "- libraries: "
        + ", ".join(
            f"{n} {i['version']}" if i["available"] else f"{n} unavailable ({i['reason']})" for n, i in m["libraries"].items()
        ),
        f"- python {m['python']}, numpy {m['numpy']}",
        "",
        "Times are medians over rotating rounds; ratios are speed ratios peer_time / cuarray_time"
        " (> 1: cuarray is faster). ok: pass, close (missed by < "
        f"{CLOSE_FRACTION:.0%}, within run-to-run noise: measure again without --quick), FAIL, n/a (not measured).",
        f"Targets 'floor + X': cuarray's time minus the `{FLOOR_CASE}` time measured right before each of the"
        " case's own rounds (the paired floor; the floor case of the run where there is none), shown after the"
        " mark; 'copy GB/s': cuarray's GB/s over the best GB/s of `{COPY_CASE}` in this run (bytes read +"
        " written in both); a case with several targets must meet all.",
        "",
        render_table(data),
        "",
        f"Summary: {summary_line(data)}",
    ]
    errors = [
        (c["name"], n, r["error"]) for c in data["cases"] for n, r in c["results"].items() if r.get("status") == "error"
    ]
    if errors:
        lines += ["", "## Errors", ""] + [f"- {cn} / {ln}: `{e}`" for cn, ln, e in errors]
    # Figures a case reports beside its time (pool memory, accuracy against a reference, GB/s): kept in
    # results.json as each result's "note", listed here so that the Markdown report carries them too.
    notes = [
        (c["name"], n, r["note"]) for c in data["cases"] for n, r in c["results"].items()
        if r.get("status") == "ok" and r.get("note")
    ]
    if notes:
        lines += ["", "## Notes", ""] + [f"- {cn} / {ln}: {text}" for cn, ln, text in notes]
    return "\n".join(lines) + "\n"


def _commit() -> str | None:
    root = Path(__file__).resolve().parent.parent
    try:
        r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        if r.returncode == 0 and r.stdout.strip():
            return r.stdout.strip()
    except Exception:
        pass
    f = root / "COMMIT"
    if f.is_file():
        return f.read_text().strip() or None
    return None


def collect_meta(backends: dict[str, Backend], quick: bool) -> dict[str, Any]:
    device = None
    for name in ("torch", "cupy", "cuarray"):
        b = backends.get(name)
        if b is not None and b.available:
            try:
                device = b.device_name()
                break
            except Exception:
                continue
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": device,
        "host": platform.node(),
        "commit": _commit(),
        "quick": quick,
        "argv": sys.argv,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "libraries": {n: b.info() for n, b in backends.items()},
        "env": {k: v for k, v in os.environ.items() if k.startswith("CUARRAY_") or k == "CUDA_VISIBLE_DEVICES"},
    }


def write_results(data: dict[str, Any], out_dir: Path) -> None:
    judge_targets(data)  # targets that refer to other cases: judged as soon as those have run
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / "results.json.tmp"
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(out_dir / "results.json")
    (out_dir / "results.md").write_text(render_markdown(data))


# --- moving data for the peers (shared by the bench_* modules) -------------------------------------------


def is_torch(lib: "Backend") -> bool:
    return lib.name == "torch"


def to_device(lib: "Backend", x: np.ndarray) -> Any:
    """A host array on the library's device (torch: a CUDA tensor)."""
    if is_torch(lib):
        return lib.module.from_numpy(x).to("cuda")
    return lib.module.asarray(x)


def to_host(lib: "Backend", a: Any) -> np.ndarray:
    return a.cpu().numpy() if is_torch(lib) else a.get()
