"""A short tour of cuarray: arrays on the GPU, streams, memory pool, transfers and interop."""
import time

import numpy as np

import cuarray as cp


def main():
    dev = cp.cuda.Device()
    print(f"device {dev.id}, compute capability {dev.compute_capability}")

    a = cp.arange(12, dtype=cp.float32).reshape(3, 4)
    print("a =\n", a)
    print("a.T copied, C order:\n", a.T.copy())
    print("linspace:", cp.linspace(0, 1, 5), " eye(3):\n", cp.eye(3, dtype=cp.int32))

    x = np.random.default_rng(0).random(64 << 20, dtype=np.float32)  # 256 MiB
    t0 = time.perf_counter()
    g = cp.asarray(x)
    cp.cuda.Stream.null.synchronize()
    t1 = time.perf_counter()
    back = g.get()
    t2 = time.perf_counter()
    assert np.array_equal(back, x)
    print(f"host->device {x.nbytes / (t1 - t0) / 1e9:.1f} GB/s, device->host {x.nbytes / (t2 - t1) / 1e9:.1f} GB/s")

    s = cp.cuda.Stream(non_blocking=True)
    with s:
        z = cp.full((1 << 20,), 3.0)
    done = s.record()
    done.synchronize()
    print("filled on a stream:", float(z[0]), " pool in use:", cp.get_default_memory_pool().used_bytes(), "bytes")

    del g, z
    print("after del, pool in use:", cp.get_default_memory_pool().used_bytes(), "bytes")


if __name__ == "__main__":
    if not cp.is_available():
        raise SystemExit("no CUDA device available")
    main()
