"""Builds C++ source with the host compiler into a loaded shared library, leaving no files behind.

The test helpers that run the GPU kernels' source on the CPU (_ndimage_host, _ndimage_interp_host, _signal_host,
_special_host) build through here. The build directory is removed once the library is loaded: a loaded library
outlives its file, and a directory kept per kernel filled /tmp with tens of thousands of them over test runs.
"""
import ctypes
import pathlib
import shutil
import subprocess
import tempfile


def compiler():
    return shutil.which("g++") or shutil.which("c++")


def load_library(source, flags=(), context=""):
    """`source` compiled with -std=c++17 -O1 and `flags` and loaded; RuntimeError with the compiler's message
    (its last 8000 characters, then `context`) where it does not compile."""
    with tempfile.TemporaryDirectory(prefix="ca_host_build_") as name:
        d = pathlib.Path(name)
        (d / "k.cpp").write_text(source)
        r = subprocess.run([compiler(), "-std=c++17", "-O1", "-fPIC", "-shared", "-w", *flags, str(d / "k.cpp"),
                            "-o", str(d / "k.so")], capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError(r.stderr[-8000:] + ("\n" + context if context else ""))
        return ctypes.CDLL(str(d / "k.so"))
