"""Where the CUDA toolkit is (cuarray.cuda.get_cuda_path, get_nvcc_path), found as CuPy finds it."""
import os
import shutil

_cuda_path = None
_nvcc_path = None
_unset = object()


def _find_cuda_path():
    path = os.environ.get("CUDA_PATH", "")
    if path and os.path.isdir(path):
        return path
    nvcc = shutil.which("nvcc")
    if nvcc is not None:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    if os.path.isdir("/usr/local/cuda"):
        return "/usr/local/cuda"
    return None


def get_cuda_path():
    """The CUDA toolkit's directory: $CUDA_PATH, else the one above nvcc on PATH, else /usr/local/cuda; None
    when none exists (cached after the first call, as CuPy)."""
    global _cuda_path
    if _cuda_path is None:
        _cuda_path = _find_cuda_path() or _unset
    return None if _cuda_path is _unset else _cuda_path


def get_nvcc_path():
    """The nvcc command: $NVCC, else <cuda path>/bin/nvcc when it exists, else nvcc on PATH; None when none."""
    global _nvcc_path
    if _nvcc_path is None:
        nvcc = os.environ.get("NVCC")
        if not nvcc:
            cuda = get_cuda_path()
            candidate = os.path.join(cuda, "bin", "nvcc") if cuda else None
            nvcc = candidate if candidate and os.path.isfile(candidate) else shutil.which("nvcc")
        _nvcc_path = nvcc or _unset
    return None if _nvcc_path is _unset else _nvcc_path
