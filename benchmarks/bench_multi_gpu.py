"""Two-GPU benchmarks (issue 21): NCCL allReduce of 1 GiB float32 and a 1 GiB peer copy device 0 -> device 1.

Targets: allReduce bus bandwidth >= 0.8x PyTorch's (torch.cuda.nccl.all_reduce over the two GPUs of one process);
peer copy >= 0.9x torch ``Tensor.to('cuda:1')``. Both cases skip themselves on a machine with fewer than two GPUs.
Timing uses the host clock around a call followed by a synchronisation of both devices: one stream's events
cannot bracket work on two devices.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

import numpy as np

from common import Backend, Config, Skip, Stats, Target, case, time_gpu
from common import is_torch as _is_torch

F32 = np.float32
N = 1 << 28  # 1 GiB of float32


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 2, "n_repeat": cfg.reps(10, 4)}


def _device_count(lib: Backend) -> int:
    if _is_torch(lib):
        return lib.module.cuda.device_count()
    return lib.module.cuda.runtime.getDeviceCount()


def _need_two(lib: Backend) -> None:
    if _device_count(lib) < 2:
        raise Skip("needs two GPUs")


def _sync_both(lib: Backend) -> Callable[[], None]:
    m = lib.module
    if _is_torch(lib):
        return lambda: (m.cuda.synchronize(0), m.cuda.synchronize(1))
    return lambda: (m.cuda.Device(0).synchronize(), m.cuda.Device(1).synchronize())


def _on(lib: Backend, host: np.ndarray, dev: int) -> Any:
    m = lib.module
    if _is_torch(lib):
        return m.from_numpy(host).to(f"cuda:{dev}")
    with m.cuda.Device(dev):
        return m.asarray(host)


def _to_host(lib: Backend, a: Any) -> np.ndarray:
    return a.cpu().numpy() if _is_torch(lib) else a.get()


@case("nccl_allreduce_1GiB_f32_2gpu", nbytes=N * 4, target=Target("torch", 0.8), heavy=True, key=True)
def nccl_allreduce(lib: Backend, cfg: Config) -> Stats:
    """NCCL allReduce (sum) of 1 GiB float32 over 2 GPUs in one process; GB/s = bus bandwidth; >= 0.8x torch."""
    _need_two(lib)
    x = cfg.host_random(N, F32, keep=True)
    send = [_on(lib, x, 0), _on(lib, x, 1)]
    m = lib.module
    if _is_torch(lib):
        recv = [m.empty_like(s) for s in send]
        fn = lambda: m.cuda.nccl.all_reduce(send, outputs=recv)  # noqa: E731
        comms = []
    else:
        nccl = importlib.import_module(m.__name__ + ".cuda.nccl")  # CuPy and cuarray load it on demand
        recv = []
        for dev in range(2):
            with m.cuda.Device(dev):
                recv.append(m.empty_like(send[dev]))
        comms = nccl.NcclCommunicator.initAll([0, 1])

        def fn() -> None:
            nccl.groupStart()
            for dev, c in enumerate(comms):
                with m.cuda.Device(dev):
                    c.allReduce(send[dev].data.ptr, recv[dev].data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM,
                                m.cuda.get_current_stream().ptr)
            nccl.groupEnd()
    sync = _sync_both(lib)
    try:
        if cfg.first_round:
            fn()
            sync()
            for r in recv:
                if not np.allclose(_to_host(lib, r[:4096]), 2 * x[:4096]):
                    raise AssertionError("allReduce: wrong result")
        return time_gpu(fn, sync, **_reps(cfg))
    finally:
        for c in comms:
            c.destroy()


@case("peer_copy_1GiB_dev0_to_dev1", nbytes=N * 4, target=Target("torch", 0.9), heavy=True, key=True)
def peer_copy(lib: Backend, cfg: Config) -> Stats:
    """Copy of 1 GiB float32 from device 0 to device 1 (asarray under Device(1); torch .to('cuda:1')); >= 0.9x torch.

    GB/s counts the bytes crossing the link once (1 GiB per copy).
    """
    _need_two(lib)
    x = cfg.host_random(N, F32, keep=True)
    a0 = _on(lib, x, 0)
    m = lib.module
    if _is_torch(lib):
        fn = lambda: a0.to("cuda:1")  # noqa: E731
    else:
        def fn() -> Any:
            with m.cuda.Device(1):
                return m.asarray(a0)
    sync = _sync_both(lib)
    if cfg.first_round:
        out = fn()
        sync()
        dev = out.device.index if _is_torch(lib) else out.device.id
        if dev != 1 or not np.array_equal(_to_host(lib, out[-4096:]), x[-4096:]):
            raise AssertionError("peer copy: wrong device or values")
        del out
    return time_gpu(fn, sync, **_reps(cfg))
