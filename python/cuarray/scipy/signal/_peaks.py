"""scipy.signal's peak finding on the GPU: argrelextrema family, find_peaks, peak_prominences, peak_widths."""
import math
import warnings

import numpy

import cuarray as _cp
from cuarray._kernel import RawKernel

# Note [peak kernels]
# Local maxima are found with array operations (runs of equal values, then a comparison of each run with its
# neighbouring runs), so a long signal costs a few passes over the data. Prominences and widths walk outwards
# from each peak as SciPy does, one thread per peak. The distance condition is a greedy pass in priority order,
# inherently sequential: one thread runs it over the (usually few) peaks; the priority order comes from NumPy's
# argsort on the host so that ties between equal heights break exactly as in SciPy.
_SOURCE = r"""
extern "C" __global__ void ca_peak_prominences(const double* __restrict__ x, long long n,
    const long long* __restrict__ peaks, long long npk, long long wlen, double* __restrict__ prom,
    long long* __restrict__ lbase, long long* __restrict__ rbase, int* __restrict__ bad) {
  for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < npk;
       p += (long long)blockDim.x * gridDim.x) {
    const long long peak = peaks[p];
    long long imin = 0, imax = n - 1;
    if (peak < imin || peak > imax) { bad[p] = 1; prom[p] = 0; lbase[p] = 0; rbase[p] = 0; continue; }
    bad[p] = 0;
    if (wlen >= 2) {
      imin = peak - wlen / 2 > imin ? peak - wlen / 2 : imin;
      imax = peak + wlen / 2 < imax ? peak + wlen / 2 : imax;
    }
    const double xp = x[peak];
    long long i = peak, lb = peak, rb = peak;
    double lmin = xp, rmin = xp;
    while (imin <= i && x[i] <= xp) { if (x[i] < lmin) { lmin = x[i]; lb = i; } --i; }
    i = peak;
    while (i <= imax && x[i] <= xp) { if (x[i] < rmin) { rmin = x[i]; rb = i; } ++i; }
    prom[p] = xp - (lmin > rmin ? lmin : rmin);
    lbase[p] = lb;
    rbase[p] = rb;
  }
}

extern "C" __global__ void ca_peak_widths(const double* __restrict__ x, long long n,
    const long long* __restrict__ peaks, long long npk, double rel, const double* __restrict__ prom,
    const long long* __restrict__ lbase, const long long* __restrict__ rbase, double* __restrict__ widths,
    double* __restrict__ wh, double* __restrict__ lips, double* __restrict__ rips, int* __restrict__ bad) {
  for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < npk;
       p += (long long)blockDim.x * gridDim.x) {
    const long long imin = lbase[p], imax = rbase[p], peak = peaks[p];
    if (!(0 <= imin && imin <= peak && peak <= imax && imax < n)) {
      bad[p] = 1; widths[p] = 0; wh[p] = 0; lips[p] = 0; rips[p] = 0; continue;
    }
    bad[p] = 0;
    const double h = x[peak] - prom[p] * rel;
    wh[p] = h;
    long long i = peak;
    while (imin < i && h < x[i]) --i;
    double left = (double)i;
    if (x[i] < h) left += (h - x[i]) / (x[i + 1] - x[i]);
    i = peak;
    while (i < imax && h < x[i]) ++i;
    double right = (double)i;
    if (x[i] < h) right -= (h - x[i]) / (x[i - 1] - x[i]);
    widths[p] = right - left;
    lips[p] = left;
    rips[p] = right;
  }
}

extern "C" __global__ void ca_peak_distance(const long long* __restrict__ peaks,
    const long long* __restrict__ order, long long npk, double dist, unsigned char* __restrict__ keep) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (long long i = npk - 1; i >= 0; --i) {
    const long long j = order[i];
    if (!keep[j]) continue;
    for (long long k = j - 1; k >= 0 && peaks[j] - peaks[k] < dist; --k) keep[k] = 0;
    for (long long k = j + 1; k < npk && peaks[k] - peaks[j] < dist; ++k) keep[k] = 0;
  }
}
"""
KERNEL_NAMES = ('ca_peak_prominences', 'ca_peak_widths', 'ca_peak_distance')
_THREADS = 128
_cache = {}


def source():
    return _SOURCE


def kernel(name):
    k = _cache.get(name)
    if k is None:
        k = _cache[name] = RawKernel(_SOURCE, name)
    return k


def _blocks(n):
    return (int(max(1, min((n + _THREADS - 1) // _THREADS, 65535))),)


class PeakPropertyWarning(RuntimeWarning):
    """A peak's prominence or width came out as 0 (SciPy's scipy.signal._peak_finding_utils.PeakPropertyWarning)."""


def _dev(a):
    return a if isinstance(a, _cp.ndarray) else _cp.asarray(a)


# -- argrelextrema -----------------------------------------------------------------------------------------
def _boolrelextrema(data, comparator, axis=0, order=1, mode='clip'):
    if int(order) != order or order < 1:
        raise ValueError('Order must be an int >= 1')
    data = _dev(data)
    n = data.shape[axis]
    locs = numpy.arange(n)
    results = _cp.ones(data.shape, dtype=bool)
    # The shifted index vectors are tiny and host-made, so NumPy's `take` decides clip/wrap/raise exactly.
    main = _cp.take(data, _cp.asarray(numpy.take(locs, locs, mode=mode)), axis=axis)
    for shift in range(1, int(order) + 1):
        plus = _cp.take(data, _cp.asarray(numpy.take(locs, locs + shift, mode=mode)), axis=axis)
        minus = _cp.take(data, _cp.asarray(numpy.take(locs, locs - shift, mode=mode)), axis=axis)
        results &= comparator(main, plus)
        results &= comparator(main, minus)
        if not bool(results.any()):
            return results
    return results


def argrelextrema(data, comparator, axis=0, order=1, mode='clip'):
    """Relative extrema of data (scipy.signal.argrelextrema): a tuple of index arrays, as nonzero gives."""
    return _cp.nonzero(_boolrelextrema(data, comparator, axis, order, mode))


def argrelmin(data, axis=0, order=1, mode='clip'):
    """Relative minima of data (scipy.signal.argrelmin)."""
    return argrelextrema(data, numpy.less, axis, order, mode)


def argrelmax(data, axis=0, order=1, mode='clip'):
    """Relative maxima of data (scipy.signal.argrelmax)."""
    return argrelextrema(data, numpy.greater, axis, order, mode)


# -- argument checks as SciPy does them ---------------------------------------------------------------------
def _x_arg(x):
    x = _cp.ascontiguousarray(_cp.asarray(x, dtype=numpy.float64))
    if x.ndim != 1:
        raise ValueError('`x` must be a 1-D array')
    return x


def _peaks_arg(peaks):
    if isinstance(peaks, _cp.ndarray):
        if peaks.size == 0:
            peaks = _cp.zeros(0, dtype=numpy.intp)
        if not numpy.can_cast(peaks.dtype, numpy.intp, 'safe'):
            raise TypeError("cannot safely cast `peaks` to dtype('intp')")
        if peaks.ndim != 1:
            raise ValueError('`peaks` must be a 1-D array')
        return _cp.ascontiguousarray(peaks.astype(numpy.intp, copy=False))
    p = numpy.asarray(peaks)
    if p.size == 0:
        p = numpy.array([], dtype=numpy.intp)
    try:
        p = p.astype(numpy.intp, order='C', casting='safe', copy=False)
    except TypeError as e:
        raise TypeError("cannot safely cast `peaks` to dtype('intp')") from e
    if p.ndim != 1:
        raise ValueError('`peaks` must be a 1-D array')
    return _cp.ascontiguousarray(_cp.asarray(p))


def _wlen_arg(value):
    if value is None:
        return -1
    if 1 < value:
        if isinstance(value, float):
            value = math.ceil(value)
        return int(numpy.intp(value))
    raise ValueError(f'`wlen` must be larger than 1, was {value}')


def _first_bad(bad):
    idx = _cp.flatnonzero(bad)
    return int(idx[0]) if idx.size else None


# -- peak properties ----------------------------------------------------------------------------------------
def _prominences(x, peaks, wlen):
    m = int(peaks.shape[0])
    prom = _cp.empty(m, dtype=numpy.float64)
    lb = _cp.empty(m, dtype=numpy.intp)
    rb = _cp.empty(m, dtype=numpy.intp)
    if m:
        bad = _cp.empty(m, dtype=numpy.int32)
        kernel('ca_peak_prominences')(_blocks(m), (_THREADS,),
                                      (x, numpy.int64(x.shape[0]), peaks, numpy.int64(m), numpy.int64(wlen),
                                       prom, lb, rb, bad))
        k = _first_bad(bad)
        if k is not None:
            raise ValueError(f'peak {int(peaks[k])} is not a valid index for `x`')
        if bool((prom == 0).any()):
            warnings.warn('some peaks have a prominence of 0', PeakPropertyWarning, stacklevel=3)
    return prom, lb, rb


def _widths(x, peaks, rel_height, prominences, left_bases, right_bases):
    if rel_height < 0:
        raise ValueError('`rel_height` must be greater or equal to 0.0')
    prominences = _cp.ascontiguousarray(_cp.asarray(prominences, dtype=numpy.float64))
    left_bases = _cp.ascontiguousarray(_cp.asarray(left_bases).astype(numpy.intp, copy=False))
    right_bases = _cp.ascontiguousarray(_cp.asarray(right_bases).astype(numpy.intp, copy=False))
    if not (peaks.shape[0] == prominences.shape[0] == left_bases.shape[0] == right_bases.shape[0]):
        raise ValueError('arrays in `prominence_data` must have the same shape as `peaks`')
    m = int(peaks.shape[0])
    outs = [_cp.empty(m, dtype=numpy.float64) for _ in range(4)]
    if m:
        bad = _cp.empty(m, dtype=numpy.int32)
        kernel('ca_peak_widths')(_blocks(m), (_THREADS,),
                                 (x, numpy.int64(x.shape[0]), peaks, numpy.int64(m), numpy.float64(rel_height),
                                  prominences, left_bases, right_bases, *outs, bad))
        k = _first_bad(bad)
        if k is not None:
            raise ValueError(f'prominence data is invalid for peak {int(peaks[k])}')
        if bool((outs[0] == 0).any()):
            warnings.warn('some peaks have a width of 0', PeakPropertyWarning, stacklevel=3)
    return tuple(outs)


def peak_prominences(x, peaks, wlen=None):
    """Prominence of each peak, with its left and right bases (scipy.signal.peak_prominences)."""
    x = _x_arg(x)
    peaks = _peaks_arg(peaks)
    return _prominences(x, peaks, _wlen_arg(wlen))


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """Width of each peak at a relative height, with the crossing points (scipy.signal.peak_widths)."""
    x = _x_arg(x)
    peaks = _peaks_arg(peaks)
    if prominence_data is None:
        prominence_data = _prominences(x, peaks, _wlen_arg(wlen))
    return _widths(x, peaks, rel_height, *prominence_data)


# -- find_peaks ---------------------------------------------------------------------------------------------
def _local_maxima(x):
    """Peaks (plateau midpoints), left and right plateau edges, as SciPy's _local_maxima_1d finds them."""
    n = x.shape[0]
    if n < 3:
        e = _cp.zeros(0, dtype=numpy.intp)
        return e, e.copy(), e.copy()
    # A maximal run of equal samples [l, r] is a peak iff it has a lower run on each side (NaN never equals
    # anything, so every NaN is a run of its own and no comparison with it holds).
    change = x[1:] != x[:-1]
    starts = _cp.concatenate((_cp.zeros(1, dtype=numpy.intp), _cp.flatnonzero(change).astype(numpy.intp) + 1))
    v = x[starts]
    if v.shape[0] < 3:
        e = _cp.zeros(0, dtype=numpy.intp)
        return e, e.copy(), e.copy()
    inner = (v[:-2] < v[1:-1]) & (v[2:] < v[1:-1])
    k = _cp.flatnonzero(inner) + 1
    left = starts[k]
    right = starts[k + 1] - 1
    return (left + right) // 2, left, right


def _condition(interval, x, peaks):
    try:
        imin, imax = interval
    except (TypeError, ValueError):
        imin, imax = (interval, None)
    if isinstance(imin, (numpy.ndarray, _cp.ndarray)):
        if imin.size != x.size:
            raise ValueError('array size of lower interval border must match x')
        imin = _dev(imin)[peaks]
    if isinstance(imax, (numpy.ndarray, _cp.ndarray)):
        if imax.size != x.size:
            raise ValueError('array size of upper interval border must match x')
        imax = _dev(imax)[peaks]
    return imin, imax


def _select(values, pmin, pmax):
    keep = _cp.ones(values.shape[0], dtype=bool)
    if pmin is not None:
        keep &= pmin <= values
    if pmax is not None:
        keep &= values <= pmax
    return keep


def _by_distance(peaks, priority, distance):
    m = int(peaks.shape[0])
    keep = _cp.ones(m, dtype=bool)
    if m:
        order = _cp.asarray(numpy.argsort(_host(priority)).astype(numpy.int64))
        kernel('ca_peak_distance')((1,), (1,), (peaks, order, numpy.int64(m), numpy.float64(math.ceil(distance)),
                                               keep))
    return keep


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


def find_peaks(x, height=None, threshold=None, distance=None, prominence=None, width=None, wlen=None,
               rel_height=0.5, plateau_size=None):
    """Peaks of a 1-D signal that meet the given conditions, with their properties (scipy.signal.find_peaks)."""
    x = _x_arg(x)
    if distance is not None and distance < 1:
        raise ValueError('`distance` must be greater or equal to 1')
    peaks, left_edges, right_edges = _local_maxima(x)
    props = {}

    def apply(keep):
        nonlocal peaks, props
        peaks = peaks[keep]
        props = {k: v[keep] for k, v in props.items()}

    if plateau_size is not None:
        sizes = right_edges - left_edges + 1
        pmin, pmax = _condition(plateau_size, x, peaks)
        keep = _select(sizes, pmin, pmax)
        props.update(plateau_sizes=sizes, left_edges=left_edges, right_edges=right_edges)
        apply(keep)
    if height is not None:
        heights = x[peaks]
        hmin, hmax = _condition(height, x, peaks)
        keep = _select(heights, hmin, hmax)
        props['peak_heights'] = heights
        apply(keep)
    if threshold is not None:
        tmin, tmax = _condition(threshold, x, peaks)
        xp = x[peaks]
        lt, rt = xp - x[peaks - 1], xp - x[peaks + 1]
        keep = _cp.ones(peaks.shape[0], dtype=bool)
        if tmin is not None:
            keep &= tmin <= _cp.minimum(lt, rt)
        if tmax is not None:
            keep &= _cp.maximum(lt, rt) <= tmax
        props.update(left_thresholds=lt, right_thresholds=rt)
        apply(keep)
    if distance is not None:
        apply(_by_distance(peaks, x[peaks], distance))
    if prominence is not None or width is not None:
        props.update(zip(('prominences', 'left_bases', 'right_bases'), _prominences(x, peaks, _wlen_arg(wlen))))
    if prominence is not None:
        pmin, pmax = _condition(prominence, x, peaks)
        apply(_select(props['prominences'], pmin, pmax))
    if width is not None:
        props.update(zip(('widths', 'width_heights', 'left_ips', 'right_ips'),
                         _widths(x, peaks, rel_height, props['prominences'], props['left_bases'],
                                 props['right_bases'])))
        wmin, wmax = _condition(width, x, peaks)
        apply(_select(props['widths'], wmin, wmax))
    return peaks, props
