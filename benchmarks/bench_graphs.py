"""CUDA graphs (issue 17 item 4): 100 small elementwise ops replayed as one graph against launched one by one.

Both cases report microseconds per op (the time of the whole sequence, host loop and final synchronisation
included, over 100). The same 100 ops (multiply and add with out=, float32, 1024 elements, on a stream of
the case's own) run one by one in `graph_eager_100_ops` and as one captured graph in `graph_replay_100_ops`.
Target: the graph replay takes at least 3x fewer µs per op than launching one by one; the replay case
measures the one-by-one sequence in the same round and states the ratio in its note ("pass"/"FAIL").
CuPy runs the same capture through its own Stream.begin_capture for comparison.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, Stats, case, time_host_loop

N = 1024
N_OPS = 100
MIN_RATIO = 3.0
LIBS = ("cuarray", "cupy")


def _ops(xp: Any, x: Any, y: Any) -> None:
    for _ in range(N_OPS // 2):
        xp.multiply(x, 1.0001, out=y)
        xp.add(y, 0.5, out=x)


def _setup(lib: Backend) -> tuple[Any, Any, Any, Any]:
    xp = lib.module
    stream = xp.cuda.Stream(non_blocking=True)
    with stream:
        x = xp.asarray(np.random.default_rng(0).random(N, dtype=np.float32))
        y = xp.empty_like(x)
    stream.synchronize()
    return xp, stream, x, y


def _capture(xp: Any, stream: Any, x: Any, y: Any) -> Any:
    with stream:
        _ops(xp, x, y)  # eager once: kernels compiled and loaded before the capture
        stream.synchronize()
        stream.begin_capture()
        try:
            _ops(xp, x, y)
        finally:
            graph = stream.end_capture()
    graph.upload(stream)
    stream.synchronize()
    return graph


def _loop(cfg: Config) -> dict[str, int]:
    return {"n_loop": 200 if not cfg.quick else 50, "n_repeat": cfg.reps(18, 10)}


def _per_op(st: Stats, note: str | None = None) -> Stats:
    return Stats([s / N_OPS for s in st.samples_s], st.method, st.inner_loop, note)


def _eager(xp: Any, stream: Any, x: Any, y: Any, cfg: Config) -> Stats:
    def run() -> None:
        with stream:
            _ops(xp, x, y)

    return _per_op(time_host_loop(run, stream.synchronize, **_loop(cfg)))


@case("graph_eager_100_ops", libs=LIBS)
def graph_eager(lib: Backend, cfg: Config) -> Stats:
    """100 small elementwise ops (1024 float32, out=) launched one by one: µs per op."""
    xp, stream, x, y = _setup(lib)
    return _eager(xp, stream, x, y, cfg)


@case("graph_replay_100_ops", libs=LIBS)
def graph_replay(lib: Backend, cfg: Config) -> Stats:
    """The same 100 ops captured once and replayed as one CUDA graph: µs per op (>= 3x fewer than one by one)."""
    xp, stream, x, y = _setup(lib)
    graph = _capture(xp, stream, x, y)
    if cfg.first_round:
        # One replay from known values equals the same ops run eagerly from those values.
        start = np.random.default_rng(1).random(N, dtype=np.float32)
        x.set(start, stream=stream)
        graph.launch(stream)
        stream.synchronize()
        got = x.get(stream=stream)
        ref_x = xp.asarray(start)
        ref_y = xp.empty_like(ref_x)
        _ops(xp, ref_x, ref_y)
        np.testing.assert_allclose(got, ref_x.get(), rtol=1e-5)
    eager = _eager(xp, stream, x, y, cfg)
    st = _per_op(time_host_loop(lambda: graph.launch(stream), stream.synchronize, **_loop(cfg)))
    ratio = eager.median_s / st.median_s
    verdict = "pass" if ratio >= MIN_RATIO else "FAIL"
    st.note = (f"one by one {eager.median_s * 1e6:.2f} µs/op, graph {st.median_s * 1e6:.2f} µs/op: "
               f"{ratio:.1f}x fewer (target >= {MIN_RATIO:g}x: {verdict})")
    return st
