"""Issue 23's last rows: concatenate/stack of 64 float32 arrays of 2**20 trail torch.cat by 0.5-0.8% on an H200
(bw_rows23.py), at the rate of a flat copy on an H100. Is the join kernel's form the cause? The forms in
join_lean23.cu (the library's kernel, lean one-vector-a-thread kernels by block size, index width and store hint,
PyTorch's capped 128-thread form) are built with nvcc into a shared library and launched through ctypes on
PyTorch's stream over the very tensors torch.cat joins, so every form and torch.cat copy the same bytes. Timed in
interleaved rounds (median of single calls between events, as the benchmark times); prints the median over rounds
and each form's ratio to torch.cat (median, least, most over rounds). The last rows swap the inputs (each library
joins the other's arrays) and then join the same inputs into the same output (out=), to tell the kernel's share of
a difference from the share of where each library's memory lies. `placements` times the forms and both
libraries' joins on one set of inputs and one output at a time, for several sets placed at shifted addresses
(spacer allocations between them): a form that is not slower than torch.cat on any of them.

    python tools/diag/join_lean23.py [rounds]
    python tools/diag/join_lean23.py placements [count]
    ncu --clock-control none -k regex:'lib_form|lean|capped|flat|Cat|join' python tools/diag/join_lean23.py ncu
"""
import ctypes
import os
import random
import statistics
import subprocess
import sys
import tempfile

from _events import gpu_us_each, optional

import torch

ca = optional("cuarray")

FORMS = {
    0: "library form (loop, 256)",
    1: "lean 256 cs",
    2: "lean 128 cs",
    3: "lean 512 cs",
    4: "lean 1024 cs",
    5: "lean 256 cs i32",
    6: "lean 256 plain store",
    7: "lean 128 plain i32",
    8: "capped 128 (PyTorch's form)",
    9: "library form (loop, 128)",
    10: "lean 128 plain",
}


def build():
    here = os.path.dirname(os.path.abspath(__file__))
    so = os.path.join(tempfile.mkdtemp(), "join_lean23.so")
    major, minor = torch.cuda.get_device_capability()
    subprocess.run(["nvcc", "-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC", f"-arch=sm_{major}{minor}",
                    "-o", so, os.path.join(here, "join_lean23.cu")], check=True)
    lib = ctypes.CDLL(so)
    lib.join_form.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint64, ctypes.c_longlong,
                              ctypes.c_int, ctypes.c_uint64, ctypes.c_int]
    lib.flat_copy.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_longlong, ctypes.c_uint64]
    return lib


def form_calls(lib, forms, parts, out):
    """{name: (call, "torch")} launching each form of `forms` to join `parts` into `out` on PyTorch's stream."""
    k, each = len(parts), parts[0].numel() * parts[0].element_size()
    ptrs = (ctypes.c_uint64 * k)(*[p.data_ptr() for p in parts])
    sms = torch.cuda.get_device_properties(0).multi_processor_count

    def launcher(f):
        def call():
            rc = lib.join_form(f, ptrs, out.data_ptr(), each, k, torch.cuda.current_stream().cuda_stream, sms)
            assert rc == 0, rc
        return call

    return {FORMS[f]: (launcher(f), "torch") for f in forms}


def check_outputs(checks, out, want):
    """Each call of `checks` (writing into `out`) must leave torch.cat's result there."""
    for name, (fn, _) in checks.items():
        out.zero_()
        fn()
        torch.cuda.synchronize()
        assert torch.equal(out, want), name


def timed_rounds(calls, rounds, base, indent=""):
    """Median of single calls between events for each call, in `rounds` interleaved rounds; prints each call's
    median and its ratio to the call named `base` (median, least, most over rounds)."""
    times = {name: [] for name in calls}
    for _ in range(rounds):
        for name, (fn, lib_name) in calls.items():
            times[name].append(gpu_us_each(fn, lib_name, reps=40))
    for name, ts in times.items():
        r = [b / t for b, t in zip(times[base], ts)]
        print(f"{indent}{name:34} {statistics.median(ts):7.1f} us  vs {base} {statistics.median(r):.4f}x "
              f"[{min(r):.4f}, {max(r):.4f}]", flush=True)


def placements_main(lib, nplace, rounds):
    """Per placement: the forms and both libraries joining the same inputs into the same output (out=)."""
    k, n = 64, 1 << 20
    rng = random.Random(1)
    keep = []
    print(f"{torch.cuda.get_device_name()}; 64 x 4 MiB float32 joined into one output (out=), "
          f"{nplace} placements of the inputs and output, {rounds} interleaved rounds each")
    for j in range(nplace):
        keep.append(torch.empty(rng.randrange(1, 300) << 18, device="cuda"))  # shifts where the next arrays land
        parts = []
        for _ in range(k):
            parts.append(torch.randn(n, device="cuda"))
            if rng.random() < 0.3:
                keep.append(torch.empty(rng.randrange(1, 64) << 16, device="cuda"))
        out = torch.empty(k * n, device="cuda")
        calls = form_calls(lib, [0, 2, 6, 7, 8, 10], parts, out)
        if ca is not None:
            cviews, cout = [ca.from_dlpack(p) for p in parts], ca.from_dlpack(out)
            calls["cuarray.concatenate(out=)"] = (lambda: ca.concatenate(cviews, out=cout), "cuarray")
        check_outputs(calls, out, torch.cat(parts))
        calls["torch.cat(out=)"] = (lambda: torch.cat(parts, out=out), "torch")
        print(f"placement {j}:")
        timed_rounds(calls, rounds, "torch.cat(out=)", indent="  ")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "placements":
        placements_main(build(), int(sys.argv[2]) if len(sys.argv) > 2 else 6, 5)
        return
    mode_ncu = len(sys.argv) > 1 and sys.argv[1] == "ncu"
    rounds = 9 if mode_ncu or len(sys.argv) < 2 else int(sys.argv[1])
    lib = build()
    k, n = 64, 1 << 20
    parts = [torch.randn(n, device="cuda") for _ in range(k)]
    out = torch.empty(k * n, device="cuda")
    want = torch.cat(parts)
    big = torch.randn(k * n, device="cuda")
    calls = form_calls(lib, FORMS, parts, out)
    check_outputs(calls, out, want)
    calls["torch.cat"] = (lambda: torch.cat(parts), "torch")
    calls["torch.stack"] = (lambda: torch.stack(parts), "torch")
    calls["flat copy kernel 256 MiB"] = (
        lambda: lib.flat_copy(big.data_ptr(), out.data_ptr(), out.numel() * 4, torch.cuda.current_stream().cuda_stream),
        "torch")
    calls["cudaMemcpyAsync (copy_)"] = (lambda: out.copy_(big), "torch")
    if ca is not None:
        cparts = [ca.asarray(p.cpu().numpy()) for p in parts]
        assert torch.equal(torch.from_dlpack(ca.concatenate(cparts)), want)
        assert torch.equal(torch.from_dlpack(ca.stack(cparts)), want.reshape(k, n))
        calls["cuarray.concatenate"] = (lambda: ca.concatenate(cparts), "cuarray")
        calls["cuarray.stack"] = (lambda: ca.stack(cparts), "cuarray")
        # The same memory: each library joins the other's inputs, then both write into one output (out=).
        cviews = [ca.from_dlpack(p) for p in parts]
        tviews = [torch.from_dlpack(c) for c in cparts]
        cout = ca.from_dlpack(out)
        check_outputs({"cuarray.concatenate(out=)": (lambda: ca.concatenate(cviews, out=cout), "cuarray")}, out, want)
        calls["cuarray.concatenate, torch's inputs"] = (lambda: ca.concatenate(cviews), "cuarray")
        calls["torch.cat, cuarray's inputs"] = (lambda: torch.cat(tviews), "torch")
        calls["cuarray.concatenate, same memory"] = (lambda: ca.concatenate(cviews, out=cout), "cuarray")
        calls["torch.cat, same memory"] = (lambda: torch.cat(parts, out=out), "torch")
    if mode_ncu:
        for fn, _ in calls.values():
            for _ in range(3):
                fn()
        torch.cuda.synchronize()
        return
    print(f"{torch.cuda.get_device_name()}; 64 x 4 MiB float32, {rounds} interleaved rounds")
    timed_rounds(calls, rounds, "torch.cat")


if __name__ == "__main__":
    main()
