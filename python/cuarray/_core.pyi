"""cuarray's compiled core"""

from collections.abc import Sequence

import cuarray
from cuarray import ndarray as ndarray
from cuarray._core import (
    fft as fft,
    linalg as linalg,
    sparse as sparse
)
import cuarray._signature
from cuarray.cuda.compiler import (
    CompileException as CompileException
)
from cuarray.cuda.memory import OutOfMemoryError as OutOfMemoryError
from cuarray.cuda.runtime import CUDARuntimeError as CUDARuntimeError


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

def stream_synchronize(arg: int, /) -> None: ...

def stream_query(arg: int, /) -> bool: ...

def stream_wait_event(arg0: int, arg1: _EventHandle, /) -> None: ...

def set_current_stream_ptr(arg: int, /) -> None: ...

def get_current_stream_ptr() -> int: ...

def stream_priority_range() -> tuple[int, int]: ...

def elapsed_time(arg0: _EventHandle, arg1: _EventHandle, /) -> float: ...

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
    def mem(self) -> object: ...

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

def from_numpy(host: object, order: object | None = None) -> object: ...

def assign(arg0: cuarray.ndarray, arg1: object, /) -> None: ...

def empty(shape: object, dtype: object | None = None, order: object | None = 'C', *, device: object | None = None) -> object: ...

def zeros(shape: object, dtype: object | None = None, order: object | None = 'C', *, device: object | None = None) -> object: ...

def ones(shape: object, dtype: object | None = None, order: object | None = 'C', *, device: object | None = None) -> object: ...

def full(shape: object, fill_value: object | None, dtype: object | None = None, order: object | None = 'C', *, device: object | None = None) -> object: ...

def empty_like(a: cuarray.ndarray, dtype: object | None = None, order: object | None = 'K', subok: object | None = True, shape: object | None = None, *, device: object | None = None) -> object: ...

def zeros_like(a: cuarray.ndarray, dtype: object | None = None, order: object | None = 'K', subok: object | None = True, shape: object | None = None, *, device: object | None = None) -> object: ...

def ones_like(a: cuarray.ndarray, dtype: object | None = None, order: object | None = 'K', subok: object | None = True, shape: object | None = None, *, device: object | None = None) -> object: ...

def full_like(a: cuarray.ndarray, fill_value: object | None, dtype: object | None = None, order: object | None = 'K', subok: object | None = True, shape: object | None = None, *, device: object | None = None) -> object: ...

def arange_n(arg0: int, arg1: object, arg2: object, arg3: object, /) -> object: ...

def linspace(arg0: object, arg1: object, arg2: int, arg3: bool, arg4: object, /) -> tuple: ...

def logspace(arg0: object, arg1: object, arg2: int, arg3: bool, arg4: object, arg5: object, /) -> object: ...

def geomspace(arg0: object, arg1: object, arg2: int, arg3: bool, arg4: object, /) -> object: ...

def eye(N: object, M: object | None = None, k: object = 0, dtype: object | None = None, order: object | None = 'C') -> object: ...

def identity(n: object, dtype: object | None = None) -> object: ...

def to_device(arg0: cuarray.ndarray, arg1: int, /) -> object: ...

def device_arg(device: object | None) -> int:
    """
    The CUDA device id an Array API `device=` argument names (-1 for None); ValueError for others.
    """

def copy_array(arg0: cuarray.ndarray, arg1: object, /) -> object: ...

def astype_array(arg0: cuarray.ndarray, arg1: object, arg2: object, arg3: bool, /) -> object: ...

def from_dlpack(arg: object, /) -> object: ...

def from_cuda_array_interface(arg: object, /) -> object: ...

class ufunc:
    def reduce(self, array: object, axis: object | None = 0, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

    def accumulate(self, array: object, axis: object | None = 0, dtype: object | None = None, out: object | None = None) -> object: ...

    def reduceat(self, array: object, indices: object, axis: object | None = 0, dtype: object | None = None, out: object | None = None) -> object: ...

    def at(self, a: object, indices: object, b: object | None = None) -> None: ...

    def __call__(self, *args, **kwargs) -> object: ...

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
    def identity(self) -> object: ...

    @property
    def signature(self) -> None: ...

    def outer(self, arg0: object, arg1: object, /, **kwargs) -> object: ...

    def __repr__(self) -> str: ...

    __signature__: cuarray._signature._UfuncSignature = ...

def get_ufunc(arg: str, /) -> ufunc: ...

def ufunc_resolve(name: str, args: list, dtype: object | None = None) -> tuple: ...

def jit_type_name(arg: object, /) -> str: ...

def elementwise_source(name: str, body: str, preamble: str, loop_prep: str, after_loop: str, c_order: bool, in_types: list, in_kinds: list, out_types: list, out_raw: list, ndim: int, index64: bool, vectorized: bool, where: bool = False) -> str: ...

def nvrtc_compile(source: str, name: str = 'kernel.cu', arch: int = 90, options: Sequence[str] = []) -> int: ...

def nvrtc_info() -> tuple: ...

def kernel_cache_stats() -> tuple: ...

def ufunc_names() -> list[str]: ...

class ElementwisePlan:
    def __init__(self, arg0: str, arg1: str, arg2: str, arg3: str, arg4: str, arg5: bool, arg6: list, arg7: list, arg8: list, arg9: list, /) -> None: ...

    def run(self, arg0: Sequence, arg1: Sequence, arg2: object, /) -> None: ...

def sum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def prod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def max(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def min(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def amax(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def amin(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def any(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> object: ...

def all(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> object: ...

def mean(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> object: ...

def nansum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def nanprod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def nanmax(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def nanmin(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False, initial: object | None = None, where: object | None = True) -> object: ...

def nanmean(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False, *, where: object | None = True) -> object: ...

def var(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> object: ...

def std(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> object: ...

def nanvar(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> object: ...

def nanstd(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0, keepdims: bool = False, *, where: object | None = True, mean: object | None = None, correction: object | None = None) -> object: ...

def argmax(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> object: ...

def argmin(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> object: ...

def nanargmax(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> object: ...

def nanargmin(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> object: ...

def count_nonzero(a: object, axis: object | None = None, *, keepdims: bool = False) -> object: ...

def ptp(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object: ...

def compile_to_ptx(arg0: str, arg1: str, /) -> str: ...

def clip(a: object, a_min: object | None = ..., a_max: object | None = ..., out: object | None = None, *, min: object | None = ..., max: object | None = ...) -> object:
    """Clip the values of an array to [a_min, a_max] (NumPy's clip)."""

def real(val: object) -> object:
    """The real part: a view for complex arrays, the array itself otherwise."""

def imag(val: object) -> object:
    """The imaginary part: a view for complex arrays, zeros otherwise."""

def angle(z: object, deg: bool = False) -> object:
    """The angle of complex values, in radians (degrees if deg)."""

def iscomplex(x: object) -> object:
    """Elementwise: whether the imaginary part is nonzero."""

def isreal(x: object) -> object:
    """Elementwise: whether the imaginary part is zero."""

def iscomplexobj(x: object) -> bool:
    """Whether the dtype of x is complex."""

def isrealobj(x: object) -> bool:
    """Whether the dtype of x is not complex."""

def nan_to_num(x: object, copy: bool = True, nan: object = 0.0, posinf: object | None = None, neginf: object | None = None) -> object:
    """Replace NaN with nan, +inf with posinf, -inf with neginf."""

def around(a: object, decimals: object = 0, out: object | None = None) -> object:
    """Round to the given number of decimals, half to even (NumPy's round)."""

def round(a: object, decimals: object = 0, out: object | None = None) -> object:
    """Round to the given number of decimals, half to even."""

def fix(x: object, out: object | None = None) -> object:
    """Round toward zero, keeping the dtype."""

def sinc(x: object) -> object:
    """The normalised sinc function sin(pi x) / (pi x)."""

def i0(x: object) -> object:
    """The modified Bessel function of the first kind, order 0."""

def where(condition, x=None, y=None, /):
    """Elements of x where condition is true, else of y (NumPy's where)."""

def copyto(dst: object, src: object, casting: object = 'same_kind', where: object = True) -> None:
    """
    Copy src into dst with broadcasting, NumPy's casting check and an optional mask.
    """

def cumsum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> object:
    """Cumulative sum along an axis (the flattened array when axis is None)."""

def cumprod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> object:
    """
    Cumulative product along an axis (the flattened array when axis is None).
    """

def nancumsum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> object:
    """Cumulative sum treating NaN as zero."""

def nancumprod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> object:
    """Cumulative product treating NaN as one."""

def cumulative_sum(x: object, *, axis: object | None = None, dtype: object | None = None, out: object | None = None, include_initial: bool = False) -> object:
    """
    Array-API cumulative sum (axis required beyond one dimension; include_initial prepends 0).
    """

def cumulative_prod(x: object, *, axis: object | None = None, dtype: object | None = None, out: object | None = None, include_initial: bool = False) -> object:
    """
    Array-API cumulative product (axis required beyond one dimension; include_initial prepends 1).
    """

def diff(a: object, n: object = 1, axis: object = -1, prepend: object | None = ..., append: object | None = ...) -> object:
    """The n-th discrete difference along an axis."""

def ediff1d(ary: object, to_end: object | None = None, to_begin: object | None = None) -> object:
    """Differences between consecutive elements of the flattened array."""

def gradient(f, *varargs, axis=None, edge_order=1):
    """
    The gradient by central differences inside and one-sided differences at the boundaries.
    """

def nonzero(a: object) -> tuple:
    """Indices of the nonzero elements, one int64 array per dimension."""

def flatnonzero(a: object) -> object:
    """Indices of the nonzero elements of the flattened array."""

def argwhere(a: object) -> object:
    """Indices of the nonzero elements, one row per element."""

def extract(condition: object, arr: object) -> object:
    """The elements of arr.ravel() where condition.ravel() is nonzero."""

def bincount(x: object, weights: object | None = None, minlength: object | None = 0) -> object:
    """
    Occurrences (or summed weights) of each value of a non-negative integer array.
    """

def histogram(a: object, bins: object = 10, range: object | None = None, density: object | None = None, weights: object | None = None) -> tuple:
    """The histogram of a data set: (counts, bin edges)."""

def histogram_bin_edges(a: object, bins: object = 10, range: object | None = None, weights: object | None = None) -> object:
    """The bin edges histogram would use."""

def histogramdd(sample: object, bins: object = 10, range: object | None = None, density: object | None = None, weights: object | None = None) -> tuple:
    """The multidimensional histogram of a sample: (counts, list of edges)."""

def histogram2d(x: object, y: object, bins: object = 10, range: object | None = None, density: object | None = None, weights: object | None = None) -> tuple:
    """
    The two-dimensional histogram of two data samples: (counts, x edges, y edges).
    """

def sort(a: object, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object | None = None) -> object:
    """
    A sorted copy of an array (stable; NaNs last, also when descending; axis=None sorts the flattened array).
    """

def argsort(a: object, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object | None = None) -> object:
    """
    The int64 indices that sort an array along an axis (stable: ties keep their order, also descending).
    """

def lexsort(keys: object, axis: object = -1) -> object:
    """Indices sorting by the last key, then the one before, ..."""

def partition(a: object, kth: object, axis: object | None = -1, kind: object = 'introselect', order: object | None = None) -> object:
    """
    Partitioned copy: the kth elements in sorted position (here fully sorted).
    """

def argpartition(a: object, kth: object, axis: object | None = -1, kind: object = 'introselect', order: object | None = None) -> object:
    """Indices that partition an array (here: that sort it, stably)."""

def sort_complex(a: object) -> object:
    """
    Sort along the last axis as complex numbers (real part first, then imaginary).
    """

def searchsorted(a: object, v: object, side: object | None = 'left', sorter: object | None = None) -> object:
    """
    Indices where v would be inserted into the sorted 1-D a to keep it sorted.
    """

def digitize(x: object, bins: object, right: bool = False) -> object:
    """Indices of the bins to which each value belongs."""

def unique(ar: object, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False, axis: object | None = None, *, equal_nan: bool = True, sorted: bool = True) -> object:
    """The sorted unique elements (or sub-arrays along axis) of an array."""

def unique_values(x: object) -> object:
    """The unique values (NaNs not merged)."""

def unique_counts(x: object) -> object:
    """UniqueCountsResult(values, counts)."""

def unique_inverse(x: object) -> object:
    """UniqueInverseResult(values, inverse_indices)."""

def unique_all(x: object) -> object:
    """UniqueAllResult(values, indices, inverse_indices, counts)."""

def isin(element: object, test_elements: object, assume_unique: bool = False, invert: bool = False, *, kind: object | None = None) -> object:
    """Elementwise: whether element is in test_elements."""

def in1d(ar1: object, ar2: object, assume_unique: bool = False, invert: bool = False, *, kind: object | None = None) -> object:
    """Whether each element of the flattened ar1 is in ar2 (1-D)."""

def intersect1d(ar1: object, ar2: object, assume_unique: bool = False, return_indices: bool = False) -> object:
    """The sorted values common to both arrays."""

def union1d(ar1: object, ar2: object) -> object:
    """The sorted unique values in either array."""

def setdiff1d(ar1: object, ar2: object, assume_unique: bool = False) -> object:
    """The unique values of ar1 not in ar2."""

def setxor1d(ar1: object, ar2: object, assume_unique: bool = False) -> object:
    """The sorted unique values in exactly one of the arrays."""

def median(a: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, keepdims: bool = False) -> object:
    """Median along the axes (NaN where a slice contains NaN)."""

def nanmedian(a: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, keepdims: bool = False) -> object:
    """Median along the axes, ignoring NaN."""

def quantile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False, *, weights: object | None = None) -> object:
    """Quantiles (q in [0, 1]) along the axes, by one of NumPy's 13 methods."""

def percentile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False, *, weights: object | None = None) -> object:
    """
    Percentiles (q in [0, 100]) along the axes, by one of NumPy's 13 methods.
    """

def nanquantile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False, *, weights: object | None = None) -> object:
    """Quantiles ignoring NaN."""

def nanpercentile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False, *, weights: object | None = None) -> object:
    """Percentiles ignoring NaN."""

def average(a: object, axis: object | None = None, weights: object | None = None, returned: bool = False, *, keepdims: bool = False) -> object:
    """
    Weighted average along the axes (with returned=True, also the sum of the weights).
    """

def trapezoid(y: object, x: object | None = None, dx: object = 1.0, axis: object = -1) -> object:
    """Integral along an axis by the trapezoidal rule."""

def cov(m: object, y: object | None = None, rowvar: bool = True, bias: bool = False, ddof: object | None = None, fweights: object | None = None, aweights: object | None = None, *, dtype: object | None = None) -> object:
    """Covariance matrix of the variables (rows unless rowvar is False)."""

def corrcoef(x: object, y: object | None = None, rowvar: bool = True, *, dtype: object | None = None) -> object:
    """Pearson correlation coefficients."""

def correlate(a: object, v: object, mode: object = 'valid') -> object:
    """Cross-correlation of two 1-D arrays."""

def convolve(a: object, v: object, mode: object = 'full') -> object:
    """Discrete linear convolution of two 1-D arrays."""

def reshape(a: object, shape: object | None = None, order: object = 'C', *, newshape: object | None = None, copy: object | None = None) -> object:
    """
    A new shape for the data: a view whenever the strides allow it, else a copy.
    """

def ravel(a: object, order: object = 'C') -> object:
    """The elements as a 1-D array (a view when possible)."""

def squeeze(a: object, axis: object | None = None) -> object:
    """Remove axes of length one."""

def expand_dims(a: object, axis: object) -> object:
    """Insert axes of length one."""

def atleast_1d(*arys): ...

def atleast_2d(*arys): ...

def atleast_3d(*arys): ...

def broadcast_to(array: object, shape: object, subok: bool = False) -> object:
    """A broadcast view of the array."""

def broadcast_arrays(*args, subok: bool = False) -> tuple:
    """Views of the arrays broadcast to one shape."""

def broadcast_shapes(*args) -> tuple:
    """The shape that the given shapes broadcast to."""

def resize(a: object, new_shape: object) -> object:
    """A new array of the given shape, repeating the data as needed."""

def transpose(a: object, axes: object | None = None) -> object:
    """Permute the axes (reverse them by default)."""

def permute_dims(a: object, axes: object | None = None) -> object:
    """Permute the axes (the array API's transpose)."""

def swapaxes(a: object, axis1: object, axis2: object) -> object:
    """Interchange two axes."""

def moveaxis(a: object, source: object, destination: object) -> object:
    """Move axes to new positions."""

def rollaxis(a: object, axis: object, start: object = 0) -> object:
    """Roll an axis backwards to the given position."""

def matrix_transpose(x: object) -> object:
    """Swap the last two axes."""

def concatenate(arrays: object, axis: object | None = 0, out: object | None = None, *, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """Join arrays along an existing axis."""

def stack(arrays: object, axis: object = 0, out: object | None = None, *, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """Join arrays along a new axis."""

def vstack(tup: object, *, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """Stack arrays vertically (rows)."""

def row_stack(tup: object, *, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """Same as vstack."""

def hstack(tup: object, *, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """Stack arrays horizontally (columns)."""

def dstack(tup: object) -> object:
    """Stack arrays along the third axis."""

def column_stack(tup: object) -> object:
    """Stack 1-D arrays as columns of a 2-D array."""

def block(arrays: object) -> object:
    """Assemble an array from nested lists of blocks."""

def append(arr: object, values: object, axis: object | None = None) -> object:
    """Append values to the end of an array."""

def split(ary: object, indices_or_sections: object, axis: object = 0) -> list: ...

def array_split(ary: object, indices_or_sections: object, axis: object = 0) -> list: ...

def hsplit(ary: object, indices_or_sections: object) -> list: ...

def vsplit(ary: object, indices_or_sections: object) -> list: ...

def dsplit(ary: object, indices_or_sections: object) -> list: ...

def unstack(x: object, *, axis: object = 0) -> tuple:
    """Split into views along an axis."""

def flip(m: object, axis: object | None = None) -> object:
    """Reverse the order of elements along axes (a view)."""

def fliplr(m: object) -> object: ...

def flipud(m: object) -> object: ...

def rot90(m: object, k: object = 1, axes: object = (0, 1)) -> object:
    """Rotate by 90 degrees in a plane."""

def roll(a: object, shift: object, axis: object | None = None) -> object:
    """Roll elements along axes."""

def tile(A: object, reps: object) -> object:
    """Repeat the whole array along each axis."""

def repeat(a: object, repeats: object, axis: object | None = None) -> object:
    """Repeat each element."""

def pad(array: object, pad_width: object, mode: object = 'constant', **kwargs) -> object:
    """
    Pad an array (NumPy's modes; a callable mode runs through NumPy on the host).
    """

def insert(arr: object, obj: object, values: object, axis: object | None = None) -> object:
    """Insert values before the given indices."""

def delete(arr: object, obj: object, axis: object | None = None) -> object:
    """Remove sub-arrays along an axis."""

def trim_zeros(filt: object, trim: object = 'fb', axis: object | None = None) -> object:
    """Trim leading and/or trailing zeros."""

def meshgrid(*xi, copy: bool = True, sparse: bool = False, indexing: object = 'xy') -> tuple:
    """Coordinate matrices from coordinate vectors."""

def diagonal(a: object, offset: object = 0, axis1: object = 0, axis2: object = 1) -> object:
    """
    The diagonal over axis1 and axis2 as a view, appended as the last axis.
    """

def diag(v: object, k: object = 0) -> object:
    """
    A diagonal matrix from a 1-D array, or a copy of a 2-D array's diagonal.
    """

def diagflat(v: object, k: object = 0) -> object:
    """A 2-D array with the flattened input on diagonal k."""

def fill_diagonal(a: object, val: object, wrap: bool = False) -> None:
    """Write val (cycled) onto the main diagonal of a, in place."""

def tril(m: object, k: object = 0) -> object:
    """The lower triangle (elements above diagonal k zeroed)."""

def triu(m: object, k: object = 0) -> object:
    """The upper triangle (elements below diagonal k zeroed)."""

def tril_indices(n: object, k: object = 0, m: object | None = None) -> tuple:
    """Indices of the lower triangle of an (n, m) array."""

def triu_indices(n: object, k: object = 0, m: object | None = None) -> tuple:
    """Indices of the upper triangle of an (n, m) array."""

def tril_indices_from(arr: object, k: object = 0) -> tuple:
    """Indices of the lower triangle of a 2-D array."""

def triu_indices_from(arr: object, k: object = 0) -> tuple:
    """Indices of the upper triangle of a 2-D array."""

def indices(dimensions: object, dtype: object | None = int, sparse: bool = False) -> object:
    """
    A grid of indices: one array of shape (len(dimensions),) + dimensions, or one per axis when sparse.
    """

def ravel_multi_index(multi_index: object, dims: object, mode: object = 'raise', order: object = 'C') -> object:
    """Flat indices of coordinate arrays into an array of shape dims."""

def unravel_index(indices: object, shape: object, order: object = 'C') -> tuple:
    """Coordinate arrays of flat indices into an array of the given shape."""

def select(condlist: object, choicelist: object, default: object = 0) -> object:
    """Elements of the first choice whose condition holds, else default."""

def choose(a: object, choices: object, out: object | None = None, mode: object = 'raise') -> object:
    """Elements of choices[a] (choices broadcast with a)."""

def take(a: object, indices: object, axis: object | None = None, out: object | None = None, mode: object | None = None) -> object:
    """
    Elements of `a` at `indices` along `axis` (None: flattened). mode None wraps out-of-range indices (CuPy's rule; CUARRAY_CHECK_INDEX=1 raises), or 'raise', 'wrap', 'clip'.
    """

def put(a: object, ind: object, v: object | None, mode: object | None = None) -> None:
    """a.flat[ind] = v, with v repeated as needed."""

def take_along_axis(arr: object, indices: object, axis: object | None = -1) -> object:
    """Values of `arr` at `indices` along `axis`."""

def put_along_axis(arr: object, indices: object, values: object | None, axis: object | None) -> None:
    """Write `values` into `arr` at `indices` along `axis`."""

def compress(condition: object, a: object, axis: object | None = None, out: object | None = None) -> object:
    """Slices of `a` along `axis` where `condition` is true."""

def place(arr: object, mask: object, vals: object | None) -> None:
    """arr[mask] = vals, vals repeated as needed."""

def putmask(a: object, mask: object, values: object | None) -> None:
    """a.flat[n] = values.flat[n % values.size] where mask.flat[n]."""

def matmul(x1: object, x2: object, out: object | None = None, *, casting: object = 'same_kind', dtype: object | None = None) -> object:
    """
    Matrix product of stacks of matrices, with NumPy's 1-D promotion and batch broadcasting.
    """

def dot(a: object, b: object, out: object | None = None) -> object:
    """NumPy's dot product."""

def vdot(a: object, b: object) -> object:
    """Dot product of flattened arrays, conjugating the first."""

def inner(a: object, b: object) -> object:
    """Sum product over the last axes."""

def outer(a: object, b: object, out: object | None = None) -> object:
    """Outer product of flattened arrays."""

def vecdot(x1: object, x2: object, out: object | None = None, *, axis: object = -1) -> object:
    """Vector dot product along an axis, conjugating the first operand."""

def tensordot(a: object, b: object, axes: object = 2) -> object:
    """Tensor dot product over the given axes."""

def kron(a: object, b: object) -> object:
    """Kronecker product."""

def cross(a: object, b: object, axisa: object = -1, axisb: object = -1, axisc: object = -1, axis: object | None = None) -> object:
    """Cross product of 3-element vectors."""

def trace(a: object, offset: object = 0, axis1: object = 0, axis2: object = 1, dtype: object | None = None, out: object | None = None) -> object:
    """Sum along diagonals."""

def einsum(*operands, out: object | None = None, dtype: object | None = None, order: object = 'K', casting: object = 'safe', optimize: object | None = False) -> object:
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

def tf32(enabled: bool = True) -> _TF32Context:
    """
    Context manager: float32 products in the block use TF32 tensor cores (or not).
    """
