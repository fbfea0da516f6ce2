"""Points the C++ library loader at NVIDIA's pip wheels (nvidia-cuda-nvrtc, nvidia-cublas...) on sys.path.

Imported by cuarray/__init__.py before the extension module, and kept to the standard library (os, sys), so
that the directories are in place before the first library is loaded. The loader (Note [cuda library search
order] in src/cuda/library.cpp) reads CUARRAY_NVIDIA_LIB_DIRS on each first use of a library and tries
those directories before the CUDA toolkit.
"""
import os
import sys

_ENV = "CUARRAY_NVIDIA_LIB_DIRS"


def nvidia_lib_dirs(paths=None):
    """The library directories of the ``nvidia-*`` wheels installed under any entry of ``paths`` (default
    ``sys.path``), in search order: per entry, CUDA 13's shared ``nvidia/cu13/lib`` first, then CUDA 12's
    ``nvidia/cu12/lib``, then one ``nvidia/<library>/lib`` per wheel (CUDA 12's layout, name order)."""
    out = []
    for entry in sys.path if paths is None else paths:
        root = os.path.join(entry or os.curdir, "nvidia")
        try:
            names = sorted(e.name for e in os.scandir(root) if e.is_dir())
        except OSError:  # no such folder, not a folder, unreadable: nothing installed there
            continue
        # CUDA 13's wheels share one folder; a CUDA 12 wheel beside them only serves a library CUDA 13 lacks.
        ordered = [n for n in ("cu13", "cu12") if n in names] + [n for n in names if n not in ("cu13", "cu12")]
        for name in ordered:
            lib = os.path.join(os.path.abspath(root), name, "lib")
            if lib not in out and os.path.isdir(lib):
                out.append(lib)
    return out


def install(paths=None):
    """Appends the wheels' directories to CUARRAY_NVIDIA_LIB_DIRS (directories the user put there come
    first) and returns the list the loader will search."""
    user = [d for d in os.environ.get(_ENV, "").split(os.pathsep) if d]
    dirs = user + [d for d in nvidia_lib_dirs(paths) if d not in user]
    if dirs:
        os.environ[_ENV] = os.pathsep.join(dirs)
    return dirs


install()
