"""Run-time compilation errors (cuarray.cuda.compiler)."""
from cuarray import _core

CompileException = _core.CompileException


# CuPy's compile_using_nvrtc (issue 17 item 6).
def _arch_of_device():
    from cuarray.cuda.device import Device
    return Device().compute_capability


def compile_using_nvrtc(source, options=(), arch=None, filename="kern.cu", name_expressions=None, log_stream=None,
                        cache_in_memory=False, jitify=False):
    """Compile CUDA C++ ``source`` with NVRTC, as CuPy's: returns ``(image, mapping)``, where image is a cubin
    (bytes) for ``sm_<arch>`` (default: the current device's compute capability, e.g. '90') and mapping the
    lowered name of each of ``name_expressions`` (a dict), or None without name expressions. NVRTC's log goes
    to ``log_stream`` when given. ``cache_in_memory`` is accepted for CuPy's signature: NVRTC compiles from
    memory either way, and the source is not written to a file. Jitify is not available in cuarray
    (``jitify=True`` raises RuntimeError)."""
    if jitify:
        raise RuntimeError("Jitify is not available in cuarray: compile without jitify")
    if isinstance(options, str):
        raise TypeError("options must be a tuple of str, not a str")
    options = tuple(options)
    for o in options:
        if not isinstance(o, str):
            raise TypeError(f"options must be str, not {type(o).__name__}")
    if arch is None:
        arch = _arch_of_device()
    arch = str(arch)
    if not arch.isdigit():
        raise ValueError(f"arch must be a compute capability such as '90', not {arch!r}")
    major, _ = _core._nvrtc_version()
    extra = ("--device-as-default-execution-space",) if major >= 12 else ()
    names = list(name_expressions) if name_expressions is not None else []
    image, lowered, log = _core._nvrtc_compile(source, filename, list(options + extra + (f"-arch=sm_{arch}",)),
                                               names, False)
    if log_stream is not None and log:
        log_stream.write(log)
    mapping = dict(zip(names, lowered)) if name_expressions is not None else None
    return image, mapping
