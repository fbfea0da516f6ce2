"""cuarray's compiled core"""

from collections.abc import Sequence
from typing import Any, overload

from cuarray._core import (
    _cuda_driver as _cuda_driver,
    _cuda_runtime as _cuda_runtime,
    _cufft as _cufft,
    _lapack as _lapack,
    _nccl as _nccl,
    _nvtx as _nvtx,
    _texture as _texture,
    fft as fft,
    linalg as linalg,
    sparse as sparse
)
import cuarray._signature
from cuarray.exceptions import (
    PerformanceWarning as PerformanceWarning
)


class CompileException(Exception): ...

class CUDARuntimeError(RuntimeError):
    status: int

class OutOfMemoryError(MemoryError): ...

def is_available() -> bool: ...

def cuda_library_paths() -> list[tuple[str, str]]: ...

def get_device_count() -> int: ...

def device_count_or_zero() -> int: ...

def get_device_id() -> int: ...

def set_device_id(arg: int, /) -> None: ...

def device_synchronize(arg: int, /) -> None: ...

def compute_capability(arg: int, /) -> str: ...

def device_attribute(arg0: int, arg1: int, /) -> int: ...

def device_attributes(arg: int, /) -> dict: ...

def mem_info(arg: int, /) -> tuple[int, int]: ...

def get_device_properties(arg: int, /) -> dict: ...

def runtime_version() -> int: ...

def driver_version() -> int: ...

def validate_device(arg: int, /) -> None: ...

class _StreamHandle:
    def __init__(self, non_blocking: bool = False, priority: int = 0) -> None: ...

    @property
    def ptr(self) -> int: ...

    @property
    def device_id(self) -> int: ...

    def close(self) -> None: ...

def stream_synchronize(arg: int, /) -> None: ...

def stream_query(arg: int, /) -> bool: ...

def stream_wait_event(arg0: int, arg1: _EventHandle, /) -> None: ...

def set_current_stream_ptr(arg: int, /) -> None: ...

def get_current_stream_ptr() -> int: ...

def stream_priority_range() -> tuple[int, int]: ...

class _EventHandle:
    def __init__(self, block: bool = False, disable_timing: bool = False, interprocess: bool = False) -> None: ...

    def record(self, arg: int, /) -> None: ...

    def synchronize(self) -> None: ...

    def query(self) -> bool: ...

    @property
    def ptr(self) -> int: ...

def elapsed_time(arg0: _EventHandle, arg1: _EventHandle, /) -> float: ...

class _GraphHandle:
    def launch(self, arg: int, /) -> None: ...

    def upload(self, arg: int, /) -> None: ...

    def debug_dot_str(self, flags: int = 0) -> str: ...

    @property
    def graph(self) -> int: ...

    @property
    def graph_exec(self) -> int: ...

def stream_begin_capture(arg0: int, arg1: int, /) -> None: ...

def stream_end_capture(arg: int, /) -> _GraphHandle: ...

def stream_is_capturing(arg: int, /) -> bool: ...

class Memory:
    def __init__(self, size: int) -> None: ...

    @property
    def ptr(self) -> int: ...

    @property
    def size(self) -> int: ...

    @property
    def device_id(self) -> int: ...

    @property
    def device(self) -> "cuarray.cuda.device.Device": ...

class ManagedMemory(Memory):
    def __init__(self, size: int) -> None: ...

    def prefetch(self, stream: "cuarray.cuda.stream.Stream") -> None: ...

    def advise(self, advise: int, device: "int | cuarray.cuda.device.Device") -> None: ...

class UnownedMemory(Memory):
    def __init__(self, ptr: int, size: int, owner: object, device_id: object | None = None) -> None: ...

class MemoryPointer:
    def __init__(self, mem: object, offset: int) -> None: ...

    @property
    def ptr(self) -> int: ...

    @property
    def device_id(self) -> int: ...

    @property
    def mem(self) -> Any: ...

    @property
    def size(self) -> int: ...

    def __int__(self) -> int: ...

    def __add__(self, arg: int, /) -> MemoryPointer: ...

    def __radd__(self, arg: int, /) -> MemoryPointer: ...

    def __iadd__(self, arg: int, /) -> MemoryPointer: ...

    def __sub__(self, arg: int, /) -> MemoryPointer: ...

    def __isub__(self, arg: int, /) -> MemoryPointer: ...

    def __repr__(self) -> str: ...

    def copy_from_device(self, src: MemoryPointer, size: int) -> None: ...

    def copy_from_device_async(self, src: MemoryPointer, size: int, stream: object | None = None) -> None: ...

    def copy_from_host(self, mem: object, size: int) -> None: ...

    def copy_from_host_async(self, mem: object, size: int, stream: object | None = None) -> None: ...

    def copy_from(self, mem: object, size: int) -> None: ...

    def copy_from_async(self, mem: object, size: int, stream: object | None = None) -> None: ...

    def copy_to_host(self, mem: object, size: int) -> None: ...

    def copy_to_host_async(self, mem: object, size: int, stream: object | None = None) -> None: ...

    def memset(self, value: int, size: int) -> None: ...

    def memset_async(self, value: int, size: int, stream: object | None = None) -> None: ...

    @property
    def device(self) -> "cuarray.cuda.device.Device": ...

class MemoryPool:
    def __init__(self) -> None: ...

    def malloc(self, arg: int, /) -> MemoryPointer: ...

    def used_bytes(self) -> int: ...

    def total_bytes(self) -> int: ...

    def free_bytes(self) -> int: ...

    def n_free_blocks(self) -> int: ...

    def free_all_free(self) -> None: ...

    def free_all_blocks(self, stream: object | None = None) -> None: ...

    def set_limit(self, size: object | None = None, fraction: object | None = None) -> None: ...

    def get_limit(self) -> int: ...

class MemoryAsyncPool:
    def __init__(self) -> None: ...

    def malloc(self, arg: int, /) -> MemoryPointer: ...

    def used_bytes(self) -> int: ...

    def total_bytes(self) -> int: ...

    def free_bytes(self) -> int: ...

    def free_all_blocks(self, stream: object | None = None) -> None: ...

    def set_limit(self, size: object | None = None, fraction: object | None = None) -> None: ...

    def get_limit(self) -> int: ...

def get_default_memory_pool() -> MemoryPool: ...

def set_allocator_pool(arg0: MemoryPool, arg1: bool, /) -> None: ...

def set_allocator_async_pool(arg0: MemoryAsyncPool, arg1: bool, /) -> None: ...

def set_allocator_plain(arg: bool, /) -> None: ...

def set_allocator_python(arg0: object, arg1: bool, /) -> None: ...

def reset_allocator(arg: bool, /) -> None: ...

def alloc(arg: int, /) -> MemoryPointer: ...

def malloc_managed(arg: int, /) -> MemoryPointer: ...

class PinnedMemoryPointer:
    @property
    def ptr(self) -> int: ...

    def size(self) -> int: ...

    def __int__(self) -> int: ...

    def __add__(self, arg: int, /) -> PinnedMemoryPointer: ...

class PinnedMemoryPool:
    def __init__(self) -> None: ...

    def malloc(self, arg: int, /) -> PinnedMemoryPointer: ...

    def n_free_blocks(self) -> int: ...

    def free_all_blocks(self) -> None: ...

def get_default_pinned_memory_pool() -> PinnedMemoryPool: ...

def alloc_pinned_memory_unpooled(arg: int, /) -> PinnedMemoryPointer: ...

def is_pinned(arg: int, /) -> bool: ...

class ndarray:
    def __init__(self, shape: object, dtype: object | None = None, memptr: object | None = None, strides: object | None = None, order: object = 'C') -> None: ...

    @property
    def shape(self) -> tuple: ...

    @shape.setter
    def shape(self, value: object, /) -> None: ...

    @property
    def strides(self) -> tuple: ...

    @property
    def ndim(self) -> int: ...

    @property
    def size(self) -> int: ...

    @property
    def itemsize(self) -> int: ...

    @property
    def nbytes(self) -> int: ...

    @property
    def dtype(self) -> Any: ...

    @property
    def base(self) -> Any: ...

    @property
    def flags(self) -> Any: ...

    @property
    def data(self) -> MemoryPointer: ...

    @property
    def _device_id(self) -> int: ...

    @property
    def T(self) -> Any: ...

    def transpose(self, /, *axes): ...

    def reshape(self, /, *shape, order='C', copy=None): ...

    def ravel(self, order: object = 'C') -> Any: ...

    def flatten(self, order: object = 'C') -> Any: ...

    def __len__(self) -> int: ...

    def __getitem__(self, key: object | None) -> Any: ...

    def __setitem__(self, key: object | None, value: object | None) -> None: ...

    def copy(self, order: object = 'C') -> Any: ...

    def __copy__(self) -> Any: ...

    def __deepcopy__(self, arg: object, /) -> Any: ...

    def view(self, dtype: object | None = None) -> Any: ...

    def fill(self, value: object | None) -> None: ...

    def astype(self, dtype: object, order: object = 'K', casting: object | None = 'unsafe', subok: object | None = True, copy: bool = True) -> Any: ...

    def get(self, stream: object | None = None, order: object = 'C', out: object | None = None, blocking: bool = True) -> Any: ...

    def set(self, arr: object, stream: object | None = None) -> None: ...

    def item(self, *args) -> Any: ...

    def tolist(self) -> Any: ...

    def __bool__(self) -> Any: ...

    def __int__(self) -> Any: ...

    def __float__(self) -> Any: ...

    def __complex__(self) -> Any: ...

    def __index__(self) -> Any: ...

    def __repr__(self) -> str: ...

    def __str__(self) -> str: ...

    def __array__(self, *args, **kwargs) -> Any: ...

    def _same_storage(self, arg: ndarray, /) -> bool: ...

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """
        The array as a DLPack capsule (DLPack 1.x protocol): a versioned capsule ("dltensor_versioned", version
            1.0) when ``max_version >= (1, 0)``, else a legacy "dltensor" one. ``stream`` is the consumer's stream
            (1: legacy default, 2: per-thread default, -1: no ordering); the consumer waits for the work enqueued so far.
            ``copy=True`` exports a copy (flagged IS_COPIED in a versioned capsule); ``copy=False`` never copies.
            ``dl_device=(kDLCUDA, this device)`` is the zero-copy export; ``dl_device=(kDLCPU, 0)`` exports a host copy
            (a device-to-host transfer; BufferError with ``copy=False``); any other device is a BufferError.
        """

    def __dlpack_device__(self) -> tuple: ...

    @property
    def __cuda_array_interface__(self) -> dict: ...

    def __add__(self, arg: object, /) -> Any: ...

    def __radd__(self, arg: object, /) -> Any: ...

    def __sub__(self, arg: object, /) -> Any: ...

    def __rsub__(self, arg: object, /) -> Any: ...

    def __mul__(self, arg: object, /) -> Any: ...

    def __rmul__(self, arg: object, /) -> Any: ...

    def __truediv__(self, arg: object, /) -> Any: ...

    def __rtruediv__(self, arg: object, /) -> Any: ...

    def __floordiv__(self, arg: object, /) -> Any: ...

    def __rfloordiv__(self, arg: object, /) -> Any: ...

    def __mod__(self, arg: object, /) -> Any: ...

    def __rmod__(self, arg: object, /) -> Any: ...

    def __pow__(self, arg: object, /) -> Any: ...

    def __rpow__(self, arg: object, /) -> Any: ...

    def __lshift__(self, arg: object, /) -> Any: ...

    def __rlshift__(self, arg: object, /) -> Any: ...

    def __rshift__(self, arg: object, /) -> Any: ...

    def __rrshift__(self, arg: object, /) -> Any: ...

    def __and__(self, arg: object, /) -> Any: ...

    def __rand__(self, arg: object, /) -> Any: ...

    def __or__(self, arg: object, /) -> Any: ...

    def __ror__(self, arg: object, /) -> Any: ...

    def __xor__(self, arg: object, /) -> Any: ...

    def __rxor__(self, arg: object, /) -> Any: ...

    def __lt__(self, arg: object, /) -> Any: ...

    def __le__(self, arg: object, /) -> Any: ...

    def __gt__(self, arg: object, /) -> Any: ...

    def __ge__(self, arg: object, /) -> Any: ...

    def __eq__(self, arg: object, /) -> Any: ...

    def __ne__(self, arg: object, /) -> Any: ...

    def __iadd__(self, arg: object, /) -> Any: ...

    def __isub__(self, arg: object, /) -> Any: ...

    def __imul__(self, arg: object, /) -> Any: ...

    def __itruediv__(self, arg: object, /) -> Any: ...

    def __ifloordiv__(self, arg: object, /) -> Any: ...

    def __imod__(self, arg: object, /) -> Any: ...

    def __ipow__(self, arg: object, /) -> Any: ...

    def __ilshift__(self, arg: object, /) -> Any: ...

    def __irshift__(self, arg: object, /) -> Any: ...

    def __iand__(self, arg: object, /) -> Any: ...

    def __ior__(self, arg: object, /) -> Any: ...

    def __ixor__(self, arg: object, /) -> Any: ...

    def __neg__(self) -> Any: ...

    def __pos__(self) -> Any: ...

    def __abs__(self) -> Any: ...

    def __invert__(self) -> Any: ...

    def __divmod__(self, arg: object, /) -> Any: ...

    def __rdivmod__(self, arg: object, /) -> Any: ...

    def sum(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

    def prod(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

    def max(self, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

    def min(self, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

    def any(self, axis: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> Any: ...

    def all(self, axis: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> Any: ...

    def mean(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> Any: ...

    def var(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> Any: ...

    def std(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> Any: ...

    def argmax(self, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> Any: ...

    def argmin(self, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> Any: ...

    @property
    def real(self) -> Any: ...

    @real.setter
    def real(self, value: object, /) -> None: ...

    @property
    def imag(self) -> Any: ...

    @imag.setter
    def imag(self, value: object, /) -> None: ...

    def conj(self) -> Any: ...

    def conjugate(self) -> Any: ...

    def round(self, decimals: object = 0, out: object | None = None) -> Any: ...

    def clip(self, min: object | None = None, max: object | None = None, out: object | None = None, **kwargs) -> Any: ...

    def cumsum(self, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> Any: ...

    def cumprod(self, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> Any: ...

    def nonzero(self) -> tuple: ...

    def sort(self, axis: object = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object | None = None) -> None: ...

    def argsort(self, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object | None = None) -> Any: ...

    def partition(self, kth: object, axis: object = -1, kind: object = 'introselect', order: object | None = None) -> None: ...

    def argpartition(self, kth: object, axis: object | None = -1, kind: object = 'introselect', order: object | None = None) -> Any: ...

    def searchsorted(self, v: object, side: object | None = 'left', sorter: object | None = None) -> Any: ...

    def squeeze(self, axis: object | None = None) -> Any: ...

    def swapaxes(self, axis1: object, axis2: object) -> Any: ...

    def repeat(self, repeats: object, axis: object | None = None) -> Any: ...

    def resize(self, /, *new_shape, refcheck=True): ...

    @property
    def mT(self) -> Any: ...

    def diagonal(self, offset: object = 0, axis1: object = 0, axis2: object = 1) -> Any: ...

    def choose(self, choices: object, out: object | None = None, mode: object = 'raise') -> Any: ...

    def take(self, indices: object, axis: object | None = None, out: object | None = None, mode: object | None = None) -> Any: ...

    def put(self, indices: object, values: object | None, mode: object | None = None) -> None: ...

    def compress(self, condition: object, axis: object | None = None, out: object | None = None) -> Any: ...

    def __matmul__(self, arg: object, /) -> Any: ...

    def __rmatmul__(self, arg: object, /) -> Any: ...

    def __imatmul__(self, arg: object, /) -> Any: ...

    def dot(self, b: object, out: object | None = None) -> Any: ...

    def trace(self, offset: object = 0, axis1: object = 0, axis2: object = 1, dtype: object | None = None, out: object | None = None) -> Any: ...

    def __array_namespace__(self, /, *, api_version=None):
        """
        The cuarray module: the array's Array API namespace (ValueError for a version it does not implement).
        """

    def to_device(self, device, /, *, stream=None):
        """
        The array on `device` (itself when it is there already); `stream` (a cuarray stream, or a CUDA stream
            handle as DLPack passes it) of that device orders the copy.
        """

    def __array_ufunc__(self, uf, method, *inputs, **kwargs): ...

    def __array_function__(self, func, types, args, kwargs): ...

    def __iter__(self): ...

    def __reduce__(self): ...

    __hash__: None = None

    __array_priority__: int = 100

    @property
    def device(self): ...

    @property
    def flat(self): ...

    @flat.setter
    def flat(self, value): ...

    def tobytes(self, order='C'):
        """
        The raw bytes of the array in `order` ('C'; 'F'; 'A': F if the array is Fortran-contiguous and not
            C-contiguous, else C; 'K' is C, as NumPy's tobytes gives), as NumPy's tobytes; the data is copied to the
            host.
        """

    def tofile(self, fid, sep='', format='%s'):
        """
        Write the array to a file (a path or an open file) as NumPy's tofile: binary in C order when `sep` is
            empty, else text. The data is copied to the host first.
        """

    def dump(self, file):
        """
        Pickle the array into `file` (a path or a file opened for binary writing); ``cuarray.load(file,
            allow_pickle=True)`` or ``pickle.load`` reads it back as a device array. The data is copied to the host.
        """

    def dumps(self):
        """
        The array's pickle as bytes (``pickle.loads`` gives a device array back); the data is copied to the host.
        """

    def byteswap(self, inplace=False):
        """
        The array with the bytes of each element reversed (each of the two parts of a complex number apart, as
            NumPy), on the device. ``inplace=True`` swaps the array's own memory and returns it; the dtype is unchanged,
            so the values read differently afterwards, as in NumPy.
        """

    def toDlpack(self):
        """
        A legacy DLPack capsule ("dltensor") sharing the array's memory, as CuPy's ``ndarray.toDlpack``; consumers
            of DLPack 1.x should call ``from_dlpack(array)`` (which uses ``__dlpack__``) instead.
        """

    def scatter_add(a, slices, value):
        """
        Add ``value`` to ``a[slices]`` in place, accumulating at repeated indices (``numpy.add.at`` with
            any index). ``value`` is broadcast to the shape of ``a[slices]``. Out-of-bounds integer indices wrap
            around as in CuPy's integer array indexing (``CUARRAY_CHECK_INDEX=1`` makes them raise IndexError).
        """

    def scatter_max(a, slices, value):
        """
        ``a[slices] = maximum(a[slices], value)`` in place, with repeated indices taking the maximum of all.
        """

    def scatter_min(a, slices, value):
        """
        ``a[slices] = minimum(a[slices], value)`` in place, with repeated indices taking the minimum of all.
        """

def from_numpy(host: object, order: object | None = None) -> Any: ...

def assign(arg0: ndarray, arg1: object, /) -> None: ...

def empty(shape: object, dtype: object | None = None, order: object | None = 'C', *, device: object | None = None) -> Any: ...

def zeros(shape: object, dtype: object | None = None, order: object | None = 'C', *, device: object | None = None) -> Any: ...

def ones(shape: object, dtype: object | None = None, order: object | None = 'C', *, device: object | None = None) -> Any: ...

def full(shape: object, fill_value: object | None, dtype: object | None = None, order: object | None = 'C', *, device: object | None = None) -> Any: ...

def empty_like(a: ndarray, dtype: object | None = None, order: object | None = 'K', subok: object | None = True, shape: object | None = None, *, device: object | None = None) -> Any: ...

def zeros_like(a: ndarray, dtype: object | None = None, order: object | None = 'K', subok: object | None = True, shape: object | None = None, *, device: object | None = None) -> Any: ...

def ones_like(a: ndarray, dtype: object | None = None, order: object | None = 'K', subok: object | None = True, shape: object | None = None, *, device: object | None = None) -> Any: ...

def full_like(a: ndarray, fill_value: object | None, dtype: object | None = None, order: object | None = 'K', subok: object | None = True, shape: object | None = None, *, device: object | None = None) -> Any: ...

def arange_n(arg0: int, arg1: object, arg2: object, arg3: object, /) -> Any: ...

def linspace(arg0: object, arg1: object, arg2: int, arg3: bool, arg4: object, /) -> tuple: ...

def logspace(arg0: object, arg1: object, arg2: int, arg3: bool, arg4: object, arg5: object, /) -> Any: ...

def geomspace(arg0: object, arg1: object, arg2: int, arg3: bool, arg4: object, /) -> Any: ...

def eye(N: object, M: object | None = None, k: object = 0, dtype: object | None = None, order: object | None = 'C') -> Any: ...

def identity(n: object, dtype: object | None = None) -> Any: ...

def to_device(arg0: ndarray, arg1: int, /) -> Any: ...

def device_arg(device: object | None) -> int:
    """
    The CUDA device id an Array API `device=` argument names (-1 for None); ValueError for others.
    """

def copy_array(arg0: ndarray, arg1: object, /) -> Any: ...

def astype_array(arg0: ndarray, arg1: object, arg2: object, arg3: bool, /) -> Any: ...

def from_dlpack(arg: object, /) -> Any: ...

def from_cuda_array_interface(arg: object, /) -> Any: ...

class ufunc:
    def reduce(self, array: object, axis: object | None = 0, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

    def accumulate(self, array: object, axis: object | None = 0, dtype: object | None = None, out: object | None = None) -> Any: ...

    def reduceat(self, array: object, indices: object, axis: object | None = 0, dtype: object | None = None, out: object | None = None) -> Any: ...

    def at(self, a: object, indices: object, b: object | None = None) -> None: ...

    def __call__(self, *args, **kwargs) -> Any: ...

    @property
    def nin(self) -> int: ...

    @property
    def nout(self) -> int: ...

    @property
    def nargs(self) -> int: ...

    @property
    def ntypes(self) -> int: ...

    @property
    def types(self) -> list[str]: ...

    @property
    def identity(self) -> Any: ...

    @property
    def signature(self) -> None: ...

    def outer(self, arg0: object, arg1: object, /, **kwargs) -> Any: ...

    def __repr__(self) -> str: ...

    __signature__: cuarray._signature._UfuncSignature = ...

def _set_fusion_hooks(traced_type: object, hook: object) -> None: ...

def get_ufunc(arg: str, /) -> ufunc: ...

def ufunc_resolve(name: str, args: list, dtype: object | None = None) -> tuple: ...

def jit_type_name(arg: object, /) -> str: ...

def elementwise_source(name: str, body: str, preamble: str, loop_prep: str, after_loop: str, c_order: bool, in_types: list, in_kinds: list, out_types: list, out_raw: list, ndim: int, index64: bool, vectorized: bool, where: bool = False, runs: bool = False) -> str: ...

def nvrtc_compile(source: str, name: str = 'kernel.cu', arch: int = 90, options: Sequence[str] = []) -> int: ...

def _jit_headers() -> list: ...

def nvrtc_info() -> tuple: ...

def _ufunc_loop_us(name: str, a: object, b: object, n: int, out: object | None = None) -> float: ...

def kernel_cache_stats() -> tuple: ...

def ufunc_names() -> list[str]: ...

class ElementwisePlan:
    def __init__(self, arg0: str, arg1: str, arg2: str, arg3: str, arg4: str, arg5: bool, arg6: list, arg7: list, arg8: list, arg9: list, /) -> None: ...

    def run(self, arg0: Sequence, arg1: Sequence, arg2: object, /) -> None: ...

    @property
    def out_types(self) -> list: ...

    @property
    def shape_args(self) -> tuple: ...

    @property
    def given_outs(self) -> tuple: ...

    @property
    def alloc(self) -> tuple: ...

    @property
    def preload(self) -> tuple: ...

    @property
    def raw_sizes(self) -> tuple: ...

    @property
    def name(self) -> str: ...

    @property
    def body(self) -> str: ...

    @property
    def preamble(self) -> str: ...

    @property
    def loop_prep(self) -> str: ...

    @property
    def after_loop(self) -> str: ...

    def source(self, ndim: int) -> str: ...

class _ReductionKernel:
    def __call__(self, /, *args, **kwargs):
        """Call self as a function."""

    def __init__(self, in_params: object | None, out_params: object | None, map_expr: str, reduce_expr: str, post_map_expr: str, identity: object | None, name: str, reduce_type: object | None, preamble: str) -> None: ...

    @property
    def params(self) -> list: ...

    @property
    def identity(self) -> Any: ...

    def _plan(self, args: tuple, out: object | None, fake: object | None) -> dict: ...

    def _call(self, args: tuple, out: object | None, axis: object | None, keepdims: bool) -> Any: ...

def _parse_kernel_params(params: object) -> list: ...

class _ElementwiseDefinition:
    def __init__(self, in_params: object | None, out_params: object | None, operation: str, name: str, preamble: str, loop_prep: str, after_loop: str, no_return: bool) -> None: ...

    @property
    def params(self) -> list: ...

    @property
    def nin(self) -> int: ...

    @property
    def nout(self) -> int: ...

    @property
    def c_order(self) -> bool: ...

    @property
    def kernel_name(self) -> str: ...

    def plan(self, args: Sequence, fake: object | None = None) -> ElementwisePlan: ...

class _ElementwiseCall:
    def __call__(self, /, *args, **kwargs):
        """Call self as a function."""

    def __init__(self) -> None: ...

    def _setup_call(self, arg0: int, arg1: int, arg2: bool, arg3: bool, /) -> None: ...

    def _register_call(self, arg0: tuple, arg1: object, /) -> None: ...

def _ew_signature(*args) -> int: ...

def sum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def prod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def max(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def min(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def amax(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def amin(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def any(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> Any: ...

def all(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> Any: ...

def mean(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> Any: ...

def nansum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def nanprod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def nanmax(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def nanmin(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> Any: ...

def nanmean(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> Any: ...

def var(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> Any: ...

def std(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> Any: ...

def nanvar(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> Any: ...

def nanstd(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> Any: ...

def argmax(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> Any: ...

def argmin(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> Any: ...

def nanargmax(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> Any: ...

def nanargmin(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> Any: ...

def _reduce_custom(name: str, preamble: str, acc: str, computes: Sequence[str], out_compute: str, map: str, combine: str, post: str, identity: str, acc_bytes: int, sequential: bool, ins: list, axis: object | None, out_dtype: object) -> Any: ...

def reduction_source(name: str, preamble: str, acc: str, computes: Sequence[str], out_compute: str, map: str, combine: str, post: str, identity: str, acc_bytes: int, storages: list, out_storage: object, rows: bool, group: int, kept_ndim: int, red_ndim: int, index64: bool, vec: bool, partial_out: bool, partial_in: bool, fold: str = '', stream: bool = False) -> str: ...

def _var_spec(acc: object, out: object, root: bool) -> dict: ...

def _reduction_axes(axis: object | None, ndim: int) -> list[int]:
    """
    The axes of a reduction over `ndim` dimensions, ascending: all for None; AxisError/ValueError as NumPy.
    """

def _reduction_definition(op: str, in_dtype: object, dtype: object | None = None) -> tuple:
    """
    (result dtype, accumulator dtype, map, combine, identity) of a built-in reduction, as the engine runs it.
    """

def _normalize_axis_tuple(axis: object, ndim: int, allow_duplicate: bool = False) -> list[int]:
    """NumPy's normalize_axis_tuple (an int or a sequence of ints) as a list."""

def count_nonzero(a: object, axis: object | None = None, *, keepdims: bool = False) -> Any: ...

def ptp(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> Any: ...

class _RawModule:
    def __init__(self, code: object | None, path: object | None, options: object | None, name_expressions: object | None, enable_cooperative_groups: bool = False) -> None: ...

    def compile(self) -> None: ...

    def lowered_name(self, arg: str, /) -> str: ...

    def get_global(self, arg: str, /) -> MemoryPointer: ...

class _RawKernel:
    def __call__(self, /, *args, **kwargs):
        """Call self as a function."""

    @overload
    def __init__(self, code: str, name: str, options: object | None, enable_cooperative_groups: bool = False) -> None: ...

    @overload
    def __init__(self, module: _RawModule, name: str) -> None: ...

    def compile(self) -> None: ...

    @property
    def attributes(self) -> dict: ...

    @property
    def max_threads_per_block(self) -> int: ...

    @property
    def shared_size_bytes(self) -> int: ...

    @property
    def const_size_bytes(self) -> int: ...

    @property
    def local_size_bytes(self) -> int: ...

    @property
    def num_regs(self) -> int: ...

    @property
    def ptx_version(self) -> int: ...

    @property
    def binary_version(self) -> int: ...

    @property
    def max_dynamic_shared_size_bytes(self) -> int: ...

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, arg: int, /) -> None: ...

    @property
    def preferred_shared_memory_carveout(self) -> int: ...

    @preferred_shared_memory_carveout.setter
    def preferred_shared_memory_carveout(self, arg: int, /) -> None: ...

    @property
    def cooperative(self) -> bool: ...

def _launch_floor_us(arg: int, /) -> float: ...

def _dry_launches(on: bool) -> None: ...

def _jit_call(*args, **kwargs) -> Any:
    """cuarray.jit's warm launch (Note [jit launch] in python/src/raw.cpp)."""

def _jit_launch(kernel: object, codes: object, grid: object, block: object, args: object, shared_mem: object | None, stream: object | None) -> None: ...

def _jit_pack(arg0: bytes, arg1: tuple, /) -> list: ...

def _launch_params_us(arg0: int, arg1: int, arg2: object, /) -> float: ...

def compile_to_ptx(arg0: str, arg1: str, /) -> str: ...

def clip(a: object, a_min: object | None = ..., a_max: object | None = ..., out: object | None = None, *, min: object | None = ..., max: object | None = ...) -> Any:
    """Clip the values of an array to [a_min, a_max] (NumPy's clip)."""

def real(val: object) -> Any:
    """The real part: a view for complex arrays, the array itself otherwise."""

def imag(val: object) -> Any:
    """The imaginary part: a view for complex arrays, zeros otherwise."""

def angle(z: object, deg: bool = False) -> Any:
    """The angle of complex values, in radians (degrees if deg)."""

def iscomplex(x: object) -> Any:
    """Elementwise: whether the imaginary part is nonzero."""

def isreal(x: object) -> Any:
    """Elementwise: whether the imaginary part is zero."""

def iscomplexobj(x: object) -> bool:
    """Whether the dtype of x is complex."""

def isrealobj(x: object) -> bool:
    """Whether the dtype of x is not complex."""

def nan_to_num(x: object, copy: bool = True, nan: object = 0.0, posinf: object | None = None, neginf: object | None = None) -> Any:
    """Replace NaN with nan, +inf with posinf, -inf with neginf."""

def around(a: object, decimals: object = 0, out: object | None = None) -> Any:
    """Round to the given number of decimals, half to even (NumPy's round)."""

def round(a: object, decimals: object = 0, out: object | None = None) -> Any:
    """Round to the given number of decimals, half to even."""

def fix(x: object, out: object | None = None) -> Any:
    """Round toward zero, keeping the dtype."""

def sinc(x: object) -> Any:
    """The normalised sinc function sin(pi x) / (pi x)."""

def i0(x: object) -> Any:
    """The modified Bessel function of the first kind, order 0."""

def where(condition, x=None, y=None, /):
    """Elements of x where condition is true, else of y (NumPy's where)."""

def copyto(dst: object, src: object, casting: object = 'same_kind', where: object = True) -> None:
    """
    Copy src into dst with broadcasting, NumPy's casting check and an optional mask.
    """

def _elementwise_funcs_kernels() -> list:
    """
    The kernels behind clip, round, nan_to_num, sinc, i0, where, copyto: (name, loop types, body, preamble).
    """

def cumsum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> Any:
    """Cumulative sum along an axis (the flattened array when axis is None)."""

def cumprod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> Any:
    """
    Cumulative product along an axis (the flattened array when axis is None).
    """

def nancumsum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> Any:
    """Cumulative sum treating NaN as zero."""

def nancumprod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> Any:
    """Cumulative product treating NaN as one."""

def cumulative_sum(x: object, *, axis: object | None = None, dtype: object | None = None, out: object | None = None, include_initial: bool = False) -> Any:
    """
    Array-API cumulative sum (axis required beyond one dimension; include_initial prepends 0).
    """

def cumulative_prod(x: object, *, axis: object | None = None, dtype: object | None = None, out: object | None = None, include_initial: bool = False) -> Any:
    """
    Array-API cumulative product (axis required beyond one dimension; include_initial prepends 1).
    """

def diff(a: object, n: object = 1, axis: object = -1, prepend: object | None = ..., append: object | None = ...) -> Any:
    """The n-th discrete difference along an axis."""

def ediff1d(ary: object, to_end: object | None = None, to_begin: object | None = None) -> Any:
    """Differences between consecutive elements of the flattened array."""

def gradient(f, *varargs, axis=None, edge_order=1):
    """
    The gradient by central differences inside and one-sided differences at the boundaries.
    """

def nonzero(a: object) -> tuple:
    """Indices of the nonzero elements, one int64 array per dimension."""

def flatnonzero(a: object) -> Any:
    """Indices of the nonzero elements of the flattened array."""

def argwhere(a: object) -> Any:
    """Indices of the nonzero elements, one row per element."""

def extract(condition: object, arr: object) -> Any:
    """The elements of arr.ravel() where condition.ravel() is nonzero."""

def bincount(x: object, weights: object | None = None, minlength: object | None = 0) -> Any:
    """
    Occurrences (or summed weights) of each value of a non-negative integer array.
    """

def histogram(a: object, bins: object = 10, range: object | None = None, density: object | None = None, weights: object | None = None) -> tuple:
    """The histogram of a data set: (counts, bin edges)."""

def histogram_bin_edges(a: object, bins: object = 10, range: object | None = None, weights: object | None = None) -> Any:
    """The bin edges histogram would use."""

def histogramdd(sample: object, bins: object = 10, range: object | None = None, density: object | None = None, weights: object | None = None) -> tuple:
    """The multidimensional histogram of a sample: (counts, list of edges)."""

def histogram2d(x: object, y: object, bins: object = 10, range: object | None = None, density: object | None = None, weights: object | None = None) -> tuple:
    """
    The two-dimensional histogram of two data samples: (counts, x edges, y edges).
    """

def sort(a: object, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object | None = None) -> Any:
    """
    A sorted copy of an array (stable; NaNs last, also when descending; axis=None sorts the flattened array).
    """

def argsort(a: object, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object | None = None) -> Any:
    """
    The int64 indices that sort an array along an axis (stable: ties keep their order, also descending).
    """

def lexsort(keys: object, axis: object = -1) -> Any:
    """Indices sorting by the last key, then the one before, ..."""

def partition(a: object, kth: object, axis: object | None = -1, kind: object = 'introselect', order: object | None = None) -> Any:
    """
    Partitioned copy: the kth elements in sorted position (here fully sorted).
    """

def argpartition(a: object, kth: object, axis: object | None = -1, kind: object = 'introselect', order: object | None = None) -> Any:
    """Indices that partition an array (here: that sort it, stably)."""

def sort_complex(a: object) -> Any:
    """
    Sort along the last axis as complex numbers (real part first, then imaginary).
    """

def searchsorted(a: object, v: object, side: object | None = 'left', sorter: object | None = None) -> Any:
    """
    Indices where v would be inserted into the sorted 1-D a to keep it sorted.
    """

def digitize(x: object, bins: object, right: bool = False) -> Any:
    """Indices of the bins to which each value belongs."""

def unique(ar: object, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False, axis: object | None = None, *, equal_nan: bool = True, sorted: bool = True) -> Any:
    """The sorted unique elements (or sub-arrays along axis) of an array."""

def unique_values(x: object) -> Any:
    """The unique values (NaNs not merged)."""

def unique_counts(x: object) -> Any:
    """UniqueCountsResult(values, counts)."""

def unique_inverse(x: object) -> Any:
    """UniqueInverseResult(values, inverse_indices)."""

def unique_all(x: object) -> Any:
    """UniqueAllResult(values, indices, inverse_indices, counts)."""

def isin(element: object, test_elements: object, assume_unique: bool = False, invert: bool = False, *, kind: object | None = None) -> Any:
    """Elementwise: whether element is in test_elements."""

def in1d(ar1: object, ar2: object, assume_unique: bool = False, invert: bool = False, *, kind: object | None = None) -> Any:
    """Whether each element of the flattened ar1 is in ar2 (1-D)."""

def intersect1d(ar1: object, ar2: object, assume_unique: bool = False, return_indices: bool = False) -> Any:
    """The sorted values common to both arrays."""

def union1d(ar1: object, ar2: object) -> Any:
    """The sorted unique values in either array."""

def setdiff1d(ar1: object, ar2: object, assume_unique: bool = False) -> Any:
    """The unique values of ar1 not in ar2."""

def setxor1d(ar1: object, ar2: object, assume_unique: bool = False) -> Any:
    """The sorted unique values in exactly one of the arrays."""

def median(a: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, keepdims: bool = False) -> Any:
    """Median along the axes (NaN where a slice contains NaN)."""

def nanmedian(a: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, keepdims: bool = False) -> Any:
    """Median along the axes, ignoring NaN."""

def quantile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False, *, weights: object | None = None) -> Any:
    """Quantiles (q in [0, 1]) along the axes, by one of NumPy's 13 methods."""

def percentile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False, *, weights: object | None = None) -> Any:
    """
    Percentiles (q in [0, 100]) along the axes, by one of NumPy's 13 methods.
    """

def nanquantile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False, *, weights: object | None = None) -> Any:
    """Quantiles ignoring NaN."""

def nanpercentile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False, *, weights: object | None = None) -> Any:
    """Percentiles ignoring NaN."""

def average(a: object, axis: object | None = None, weights: object | None = None, returned: bool = False, *, keepdims: bool = False) -> Any:
    """
    Weighted average along the axes (with returned=True, also the sum of the weights).
    """

def trapezoid(y: object, x: object | None = None, dx: object = 1.0, axis: object = -1) -> Any:
    """Integral along an axis by the trapezoidal rule."""

def cov(m: object, y: object | None = None, rowvar: bool = True, bias: bool = False, ddof: object | None = None, fweights: object | None = None, aweights: object | None = None, *, dtype: object | None = None) -> Any:
    """Covariance matrix of the variables (rows unless rowvar is False)."""

def corrcoef(x: object, y: object | None = None, rowvar: bool = True, *, dtype: object | None = None) -> Any:
    """Pearson correlation coefficients."""

def correlate(a: object, v: object, mode: object = 'valid') -> Any:
    """Cross-correlation of two 1-D arrays."""

def convolve(a: object, v: object, mode: object = 'full') -> Any:
    """Discrete linear convolution of two 1-D arrays."""

def _statistics_kernels() -> list:
    """
    The statistics kernels (name, body, preamble), for tests that compile them.
    """

def _quantile_types(arg0: object, arg1: object, arg2: bool, arg3: str, /) -> tuple:
    """(index dtype, result dtype) of a quantile, for tests."""

def reshape(a: object, shape: object | None = None, order: object = 'C', *, newshape: object | None = None, copy: object | None = None) -> Any:
    """
    A new shape for the data: a view whenever the strides allow it, else a copy.
    """

def ravel(a: object, order: object = 'C') -> Any:
    """The elements as a 1-D array (a view when possible)."""

def squeeze(a: object, axis: object | None = None) -> Any:
    """Remove axes of length one."""

def expand_dims(a: object, axis: object) -> Any:
    """Insert axes of length one."""

def atleast_1d(*arys): ...

def atleast_2d(*arys): ...

def atleast_3d(*arys): ...

def broadcast_to(array: object, shape: object, subok: bool = False) -> Any:
    """A broadcast view of the array."""

def broadcast_arrays(*args, subok: bool = False) -> tuple:
    """Views of the arrays broadcast to one shape."""

def broadcast_shapes(*args) -> tuple:
    """The shape that the given shapes broadcast to."""

def resize(a: object, new_shape: object) -> Any:
    """A new array of the given shape, repeating the data as needed."""

def transpose(a: object, axes: object | None = None) -> Any:
    """Permute the axes (reverse them by default)."""

def permute_dims(a: object, axes: object | None = None) -> Any:
    """Permute the axes (the array API's transpose)."""

def swapaxes(a: object, axis1: object, axis2: object) -> Any:
    """Interchange two axes."""

def moveaxis(a: object, source: object, destination: object) -> Any:
    """Move axes to new positions."""

def rollaxis(a: object, axis: object, start: object = 0) -> Any:
    """Roll an axis backwards to the given position."""

def matrix_transpose(x: object) -> Any:
    """Swap the last two axes."""

def concatenate(arrays: object, axis: object | None = 0, out: object | None = None, *, dtype: object | None = None, casting: object = 'same_kind') -> Any:
    """Join arrays along an existing axis."""

def stack(arrays: object, axis: object = 0, out: object | None = None, *, dtype: object | None = None, casting: object = 'same_kind') -> Any:
    """Join arrays along a new axis."""

def vstack(tup: object, *, dtype: object | None = None, casting: object = 'same_kind') -> Any:
    """Stack arrays vertically (rows)."""

def row_stack(tup: object, *, dtype: object | None = None, casting: object = 'same_kind') -> Any:
    """Same as vstack."""

def hstack(tup: object, *, dtype: object | None = None, casting: object = 'same_kind') -> Any:
    """Stack arrays horizontally (columns)."""

def dstack(tup: object) -> Any:
    """Stack arrays along the third axis."""

def column_stack(tup: object) -> Any:
    """Stack 1-D arrays as columns of a 2-D array."""

def block(arrays: object) -> Any:
    """Assemble an array from nested lists of blocks."""

def append(arr: object, values: object, axis: object | None = None) -> Any:
    """Append values to the end of an array."""

def split(ary: object, indices_or_sections: object, axis: object = 0) -> list: ...

def array_split(ary: object, indices_or_sections: object, axis: object = 0) -> list: ...

def hsplit(ary: object, indices_or_sections: object) -> list: ...

def vsplit(ary: object, indices_or_sections: object) -> list: ...

def dsplit(ary: object, indices_or_sections: object) -> list: ...

def unstack(x: object, *, axis: object = 0) -> tuple:
    """Split into views along an axis."""

def flip(m: object, axis: object | None = None) -> Any:
    """Reverse the order of elements along axes (a view)."""

def fliplr(m: object) -> Any: ...

def flipud(m: object) -> Any: ...

def rot90(m: object, k: object = 1, axes: object = (0, 1)) -> Any:
    """Rotate by 90 degrees in a plane."""

def roll(a: object, shift: object, axis: object | None = None) -> Any:
    """Roll elements along axes."""

def tile(A: object, reps: object) -> Any:
    """Repeat the whole array along each axis."""

def repeat(a: object, repeats: object, axis: object | None = None) -> Any:
    """Repeat each element."""

def pad(array: object, pad_width: object, mode: object = 'constant', **kwargs) -> Any:
    """
    Pad an array (NumPy's modes; a callable mode runs through NumPy on the host).
    """

def insert(arr: object, obj: object, values: object, axis: object | None = None) -> Any:
    """Insert values before the given indices."""

def delete(arr: object, obj: object, axis: object | None = None) -> Any:
    """Remove sub-arrays along an axis."""

def trim_zeros(filt: object, trim: object = 'fb', axis: object | None = None) -> Any:
    """Trim leading and/or trailing zeros."""

def meshgrid(*xi, copy: bool = True, sparse: bool = False, indexing: object = 'xy') -> tuple:
    """Coordinate matrices from coordinate vectors."""

def diagonal(a: object, offset: object = 0, axis1: object = 0, axis2: object = 1) -> Any:
    """
    The diagonal over axis1 and axis2 as a view, appended as the last axis.
    """

def diag(v: object, k: object = 0) -> Any:
    """
    A diagonal matrix from a 1-D array, or a copy of a 2-D array's diagonal.
    """

def diagflat(v: object, k: object = 0) -> Any:
    """A 2-D array with the flattened input on diagonal k."""

def fill_diagonal(a: object, val: object, wrap: bool = False) -> None:
    """Write val (cycled) onto the main diagonal of a, in place."""

def tril(m: object, k: object = 0) -> Any:
    """The lower triangle (elements above diagonal k zeroed)."""

def triu(m: object, k: object = 0) -> Any:
    """The upper triangle (elements below diagonal k zeroed)."""

def tril_indices(n: object, k: object = 0, m: object | None = None) -> tuple:
    """Indices of the lower triangle of an (n, m) array."""

def triu_indices(n: object, k: object = 0, m: object | None = None) -> tuple:
    """Indices of the upper triangle of an (n, m) array."""

def tril_indices_from(arr: object, k: object = 0) -> tuple:
    """Indices of the lower triangle of a 2-D array."""

def triu_indices_from(arr: object, k: object = 0) -> tuple:
    """Indices of the upper triangle of a 2-D array."""

def indices(dimensions: object, dtype: object | None = int, sparse: bool = False) -> Any:
    """
    A grid of indices: one array of shape (len(dimensions),) + dimensions, or one per axis when sparse.
    """

def ix_(*args) -> tuple:
    """
    Open mesh from 1-D sequences: each reshaped to broadcast along its own axis.
    """

def ravel_multi_index(multi_index: object, dims: object, mode: object = 'raise', order: object = 'C') -> Any:
    """Flat indices of coordinate arrays into an array of shape dims."""

def unravel_index(indices: object, shape: object, order: object = 'C') -> tuple:
    """Coordinate arrays of flat indices into an array of the given shape."""

def select(condlist: object, choicelist: object, default: object = 0) -> Any:
    """Elements of the first choice whose condition holds, else default."""

def choose(a: object, choices: object, out: object | None = None, mode: object = 'raise') -> Any:
    """Elements of choices[a] (choices broadcast with a)."""

class _RandomEngine:
    """Philox4x32-10 state (key, counter) with NumPy's Generator methods"""

    def __init__(self, key: int, counter: int = 0) -> None: ...

    @property
    def key(self) -> int: ...

    @key.setter
    def key(self, arg: int, /) -> None: ...

    @property
    def counter(self) -> int: ...

    @counter.setter
    def counter(self, arg: int, /) -> None: ...

    def random(self, size: object | None, dtype: object | None, out: object | None) -> Any: ...

    def standard_normal(self, size: object | None, dtype: object | None, out: object | None) -> Any: ...

    def standard_exponential(self, size: object | None, dtype: object | None, method: str, out: object | None) -> Any: ...

    def standard_gamma(self, shape: object, size: object | None, dtype: object | None, out: object | None) -> Any: ...

    def integers(self, low: object, high: object | None, size: object | None, dtype: object | None, endpoint: bool) -> Any: ...

    def permutation_n(self, arg: int, /) -> Any: ...

    def permutation(self, arg0: object, arg1: int, /) -> Any: ...

    def shuffle(self, arg0: object, arg1: int, /) -> None: ...

    def permuted(self, x: object, axis: object | None, out: object | None) -> Any: ...

    def choice(self, a: object, size: object | None, replace: bool, p: object | None, axis: int, shuffle: bool) -> Any: ...

    def multinomial(self, n: object, pvals: object, size: object | None) -> Any: ...

    def dirichlet(self, alpha: object, size: object | None) -> Any: ...

    def multivariate_normal_factor(self, mean: object, factor: object, size: object | None) -> Any: ...

    def random_raw(self, arg: int, /) -> Any: ...

    def exponential(self, a: object, size: object | None) -> Any: ...

    def chisquare(self, a: object, size: object | None) -> Any: ...

    def poisson(self, a: object, size: object | None) -> Any: ...

    def geometric(self, a: object, size: object | None) -> Any: ...

    def uniform(self, a: object, b: object, size: object | None) -> Any: ...

    def normal(self, a: object, b: object, size: object | None) -> Any: ...

    def gamma(self, a: object, b: object, size: object | None) -> Any: ...

    def beta(self, a: object, b: object, size: object | None) -> Any: ...

    def lognormal(self, a: object, b: object, size: object | None) -> Any: ...

    def logistic(self, a: object, b: object, size: object | None) -> Any: ...

    def laplace(self, a: object, b: object, size: object | None) -> Any: ...

    def gumbel(self, a: object, b: object, size: object | None) -> Any: ...

    def binomial(self, a: object, b: object, size: object | None) -> Any: ...

    def hypergeometric(self, ngood: object, nbad: object, nsample: object, size: object | None) -> Any: ...

def take(a: object, indices: object, axis: object | None = None, out: object | None = None, mode: object | None = None) -> Any:
    """
    Elements of `a` at `indices` along `axis` (None: flattened). mode None wraps out-of-range indices (CuPy's rule; CUARRAY_CHECK_INDEX=1 raises), or 'raise', 'wrap', 'clip'.
    """

def put(a: object, ind: object, v: object | None, mode: object | None = None) -> None:
    """a.flat[ind] = v, with v repeated as needed."""

def take_along_axis(arr: object, indices: object, axis: object | None = -1) -> Any:
    """Values of `arr` at `indices` along `axis`."""

def put_along_axis(arr: object, indices: object, values: object | None, axis: object | None) -> None:
    """Write `values` into `arr` at `indices` along `axis`."""

def compress(condition: object, a: object, axis: object | None = None, out: object | None = None) -> Any:
    """Slices of `a` along `axis` where `condition` is true."""

def place(arr: object, mask: object, vals: object | None) -> None:
    """arr[mask] = vals, vals repeated as needed."""

def putmask(a: object, mask: object, values: object | None) -> None:
    """a.flat[n] = values.flat[n % values.size] where mask.flat[n]."""

def matmul(x1: object, x2: object, out: object | None = None, *, casting: object = 'same_kind', dtype: object | None = None) -> Any:
    """
    Matrix product of stacks of matrices, with NumPy's 1-D promotion and batch broadcasting.
    """

def dot(a: object, b: object, out: object | None = None) -> Any:
    """NumPy's dot product."""

def vdot(a: object, b: object) -> Any:
    """Dot product of flattened arrays, conjugating the first."""

def inner(a: object, b: object) -> Any:
    """Sum product over the last axes."""

def outer(a: object, b: object, out: object | None = None) -> Any:
    """Outer product of flattened arrays."""

def vecdot(x1: object, x2: object, out: object | None = None, *, axis: object = -1) -> Any:
    """Vector dot product along an axis, conjugating the first operand."""

def tensordot(a: object, b: object, axes: object = 2) -> Any:
    """Tensor dot product over the given axes."""

def kron(a: object, b: object) -> Any:
    """Kronecker product."""

def cross(a: object, b: object, axisa: object = -1, axisb: object = -1, axisc: object = -1, axis: object | None = None) -> Any:
    """Cross product of 3-element vectors."""

def trace(a: object, offset: object = 0, axis1: object = 0, axis2: object = 1, dtype: object | None = None, out: object | None = None) -> Any:
    """Sum along diagonals."""

def einsum(*operands, out: object | None = None, dtype: object | None = None, order: object = 'K', casting: object = 'safe', optimize: object | None = False) -> Any:
    """
    Einstein summation (NumPy's einsum), contracted pairwise through batched GEMMs.
    """

def einsum_path(*operands, optimize: object | None = 'greedy', einsum_call: bool = False) -> tuple:
    """NumPy's einsum_path: the contraction path and a printed report."""

def tf32_enabled() -> bool:
    """Whether float32 products may use TF32 on this thread."""

def set_tf32_enabled(enabled: bool) -> bool:
    """
    Allow or forbid TF32 for float32 products on this thread; returns the previous setting.
    """

class _TF32Context:
    def __enter__(self) -> bool: ...

    def __exit__(self, exc_type: object | None, exc: object | None, tb: object | None) -> bool: ...

def tf32(enabled: bool = True) -> _TF32Context:
    """
    Context manager: float32 products in the block use TF32 tensor cores (or not).
    """

def _linalg_batched_max_n(n: int) -> int: ...

def _linalg_polar_svd_min_n(n: int) -> int: ...

def _linalg_unit_solve_min_n(n: int) -> int: ...

def _linalg_tri_kernel_max_k(k: int) -> int: ...

def _set_memory_hook_dispatch(dispatch: object | None) -> None: ...

def _set_synchronize_allowed(allowed: bool) -> bool: ...

def _synchronize_allowed() -> bool: ...

def _cublas_handle(device: int) -> int: ...

def _cusparse_handle(device: int) -> int: ...

def _cusolver_handle(device: int) -> int: ...

def _nvrtc_compile(source: str, filename: str, options: Sequence[str], name_expressions: Sequence[str], ptx: bool) -> tuple: ...

def _nvrtc_version() -> tuple: ...

def _set_type_attr(arg0: type, arg1: str, arg2: object, /) -> None: ...
