"""cuarray.scipy.ndimage measurements: connected-component labelling and statistics over labelled regions."""
import numpy

import cuarray as _cp
from cuarray.scipy.ndimage import _morph_kernels, _util
from cuarray.scipy.ndimage._morphology import _blocks, _host_structure, _i64, _is_array, _THREADS

# Note [labelled statistics]
# SciPy's results come in three forms: no labels (one group: the whole input), labels with index None (one
# group: labels > 0) or a scalar index (one group: labels == index), and a sequence of indices (one result
# per index, in the index's shape). Single groups reduce a masked copy of the input and return 0-d device
# arrays where SciPy returns NumPy scalars (CuPy's convention); positions and centres of mass, which SciPy
# returns as tuples, come back as tuples of Python numbers. For a sequence, every element gets a bin: the
# position of its label among the sorted distinct index values, or one extra bin for labels not asked for.
# Sums use bincount over bins (float64 as SciPy's); order statistics sort the elements by (bin, value) with
# two stable sorts and read each bin's first, last or middle element, located by binary search.


def _check_labels(input, labels):
    input = _util.check_input(input)
    if labels is None:
        return input, None
    labels = _util.check_input(labels)
    try:
        input, labels = _cp.broadcast_arrays(input, labels)
    except ValueError as e:
        raise ValueError("input and labels must have the same shape (excepting dimensions with width 1)") from e
    return input, labels


def _host(x):
    """A device array's values on the host (NumPy arrays pass through: the CPU tests run on them)."""
    return x.get() if hasattr(x, 'get') else numpy.asarray(x)


def _index_host(index):
    return _host(index) if _is_array(index) else numpy.asarray(index)


def _single_mask(labels, index):
    return labels > 0 if index is None else labels == index


def _bins(labels, index):
    """(bins of the raveled elements, number of distinct index values, position of each index value's bin)."""
    idx = _index_host(index)
    uniq, where = numpy.unique(idx.ravel(), return_inverse=True)
    lab = labels.ravel()
    common = numpy.result_type(lab.dtype, uniq.dtype)
    keys = _cp.asarray(uniq.astype(common))
    lab = lab.astype(common, copy=False)
    nb = len(uniq)
    pos = _cp.searchsorted(keys, lab)
    hit = _cp.take(keys, _cp.minimum(pos, nb - 1)) == lab
    bins = _cp.where(hit, pos, nb).astype(numpy.int64)
    return bins, nb, where.reshape(idx.shape)


# -- sums, means, variances ------------------------------------------------------------------------------
def _stats(input, labels, index, centered):
    """(counts, sums[, centred sums of squares]) per Note [labelled statistics]."""
    input, labels = _check_labels(input, labels)
    if labels is None or index is None or numpy.isscalar(index):
        vals = input.ravel() if labels is None else input[_single_mask(labels, index)]
        if not centered:
            return vals.size, vals.sum()
        c = vals - vals.mean()
        return vals.size, vals.sum(), (c * c.conj()).sum() if c.dtype.kind == 'c' else (c * c).sum()
    if input.dtype.kind == 'c':
        raise TypeError("Complex type not supported by labelled sums")
    bins, nb, where = _bins(labels, index)
    x = input.ravel().astype(numpy.float64)
    counts = _cp.bincount(bins, minlength=nb + 1)
    sums = _cp.bincount(bins, weights=x, minlength=nb + 1)
    sel = _cp.asarray(where)
    if not centered:
        return _cp.take(counts, sel), _cp.take(sums, sel)
    means = sums / _cp.maximum(counts, 1)
    c = x - _cp.take(means, bins)
    sq = _cp.bincount(bins, weights=c * c, minlength=nb + 1)
    return _cp.take(counts, sel), _cp.take(sums, sel), _cp.take(sq, sel)


def sum_labels(input, labels=None, index=None):
    """Sum of the values of each labelled region (scipy.ndimage.sum_labels)."""
    return _stats(input, labels, index, False)[1]


def sum(input, labels=None, index=None):  # noqa: A001 - SciPy's name
    """Sum of the values of each labelled region (scipy.ndimage.sum)."""
    return sum_labels(input, labels, index)


def mean(input, labels=None, index=None):
    """Mean of the values of each labelled region (scipy.ndimage.mean)."""
    count, s = _stats(input, labels, index, False)
    if _is_array(count):
        return s / count.astype(numpy.float64)
    return s / _cp.asarray(numpy.float64(count))


def variance(input, labels=None, index=None):
    """Variance of the values of each labelled region (scipy.ndimage.variance)."""
    count, _, sq = _stats(input, labels, index, True)
    if _is_array(count):
        return sq / count.astype(numpy.float64)
    return sq / _cp.asarray(numpy.float64(count))  # a float64 array, as SciPy's divisor: float32 sums widen


def standard_deviation(input, labels=None, index=None):
    """Standard deviation of the values of each labelled region (scipy.ndimage.standard_deviation)."""
    return _cp.sqrt(variance(input, labels, index))


# -- order statistics --------------------------------------------------------------------------------------
def _sorted_by_bin(vals, bins, nb):
    """Stable order of the elements by (bin, value), and each bin's [start, end) in it."""
    o1 = _cp.argsort(vals, kind='stable')
    o2 = _cp.argsort(_cp.take(bins, o1), kind='stable')
    order = _cp.take(o1, o2)
    sb = _cp.take(bins, order)
    ids = _cp.arange(nb, dtype=numpy.int64)
    return order, _cp.searchsorted(sb, ids, 'left'), _cp.searchsorted(sb, ids, 'right')


def _select(input, labels, index, what):
    """Each of ``what`` ('min', 'max', 'minpos', 'maxpos', 'median') for the groups of Note [labelled
    statistics]; positions are flat indices."""
    input, labels = _check_labels(input, labels)
    if input.dtype.kind == 'c':
        raise TypeError("Complex type not supported")
    if labels is None or index is None or numpy.isscalar(index):
        flat = input.ravel()
        if labels is None:
            vals, where = flat, None
        else:
            m = _single_mask(labels, index).ravel()
            vals, where = flat[m], _cp.flatnonzero(m)
        out = []
        for w in what:
            if w == 'min':
                out.append(vals.min())
            elif w == 'max':
                out.append(vals.max())
            elif w == 'median':
                out.append(_median_single(vals))
            else:
                k = int(vals.argmin() if w == 'minpos' else vals.argmax())
                out.append(k if where is None else int(where[k]))
        return out
    bins, nb, sel = _bins(labels, index)
    vals = input.ravel()
    n = vals.size
    sel_d = _cp.asarray(sel)
    order, start, end = _sorted_by_bin(vals, bins, nb)
    nonempty = end > start
    sv = _cp.take(vals, order)
    first = _cp.minimum(start, max(n - 1, 0))
    last = _cp.maximum(end - 1, 0)
    zero = _cp.zeros((), vals.dtype)
    out = []
    for w in what:
        if n == 0:
            res = _cp.zeros(nb, vals.dtype if w in ('min', 'max') else numpy.float64 if w == 'median'
                            else numpy.int64)
        elif w == 'min':
            res = _cp.where(nonempty, _cp.take(sv, first), zero)
        elif w == 'max':
            res = _cp.where(nonempty, _cp.take(sv, last), zero)
        elif w == 'minpos':
            res = _cp.where(nonempty, _cp.take(order, first), 0)
        elif w == 'maxpos':
            # The first position of the maximum: sort the reversed elements, whose ties run backwards.
            rorder, rs, re = _sorted_by_bin(vals[::-1], bins[::-1], nb)
            res = _cp.where(re > rs, (n - 1) - _cp.take(rorder, _cp.maximum(re - 1, 0)), 0)
        else:
            cnt = end - start
            lo = _cp.minimum(start + (cnt - 1) // 2, n - 1)
            hi = _cp.minimum(start + cnt // 2, n - 1)
            if vals.dtype.kind in 'iub':
                res = (_cp.take(sv, lo).astype(numpy.float64) + _cp.take(sv, hi).astype(numpy.float64)) / 2.0
            else:
                res = (_cp.take(sv, lo) + _cp.take(sv, hi)) / 2.0
        out.append(_cp.take(res, sel_d))
    return out


def _median_single(vals):
    s = _cp.sort(vals)
    n = s.size
    if n == 0:
        return _cp.asarray(numpy.nan)
    lo, hi = s[(n - 1) // 2], s[n // 2]
    if vals.dtype.kind in 'iub':
        return (lo.astype(numpy.float64) + hi.astype(numpy.float64)) / 2.0
    return (lo + hi) / 2.0


def minimum(input, labels=None, index=None):
    """Minimum of the values of each labelled region (scipy.ndimage.minimum)."""
    return _select(input, labels, index, ('min',))[0]


def maximum(input, labels=None, index=None):
    """Maximum of the values of each labelled region (scipy.ndimage.maximum)."""
    return _select(input, labels, index, ('max',))[0]


def median(input, labels=None, index=None):
    """Median of the values of each labelled region (scipy.ndimage.median)."""
    return _select(input, labels, index, ('median',))[0]


def _coords(flat, shape):
    """Flat positions (an int or a device array) as a tuple, or a list of tuples, of Python ints."""
    if isinstance(flat, int):
        return tuple(int(c) for c in numpy.unravel_index(flat, shape)) if shape else ()
    f = _host(flat).reshape(-1)
    if not shape:
        return [() for _ in f]
    cs = numpy.unravel_index(f, shape)
    return [tuple(int(c[k]) for c in cs) for k in range(len(f))]


def minimum_position(input, labels=None, index=None):
    """Position of the first minimum of each labelled region (scipy.ndimage.minimum_position)."""
    return _coords(_select(input, labels, index, ('minpos',))[0], input.shape)


def maximum_position(input, labels=None, index=None):
    """Position of the first maximum of each labelled region (scipy.ndimage.maximum_position)."""
    return _coords(_select(input, labels, index, ('maxpos',))[0], input.shape)


def extrema(input, labels=None, index=None):
    """(minimums, maximums, their positions) of each labelled region (scipy.ndimage.extrema)."""
    mn, mx, mnp, mxp = _select(input, labels, index, ('min', 'max', 'minpos', 'maxpos'))
    return mn, mx, _coords(mnp, input.shape), _coords(mxp, input.shape)


def center_of_mass(input, labels=None, index=None):
    """Centre of mass of the values of each labelled region (scipy.ndimage.center_of_mass)."""
    input, labels = _check_labels(input, labels)
    norm = sum_labels(input, labels, index)
    res = []
    for d in range(input.ndim):
        shape = [1] * input.ndim
        shape[d] = input.shape[d]
        grid = _cp.arange(input.shape[d], dtype=numpy.float64).reshape(shape)
        res.append(sum_labels(input * grid, labels, index) / norm)
    single = labels is None or index is None or numpy.isscalar(index)
    if not res:
        return () if single else [() for _ in range(numpy.size(_index_host(index)))]
    host = _host(_cp.stack(res))
    if single:
        return tuple(float(v) for v in host)
    return [tuple(v) for v in host.T]  # SciPy's grouping, also for an index of several dimensions


def histogram(input, min, max, bins, labels=None, index=None):  # noqa: A002 - SciPy's names
    """Histogram of the values of each labelled region (scipy.ndimage.histogram): int64 counts in ``bins``
    equal bins over [min, max]; a NumPy object array of device arrays for a sequence of indices."""
    input, labels = _check_labels(input, labels)
    edges = _cp.asarray(numpy.linspace(min, max, bins + 1))
    flat = input.ravel()
    b = _cp.searchsorted(edges, flat, 'right') - 1
    b = _cp.where(flat == edges[-1], bins - 1, b)  # the last bin includes its right edge, as numpy's
    valid = (b >= 0) & (b < bins)
    if labels is None or index is None or numpy.isscalar(index):
        if labels is not None:
            valid = valid & _single_mask(labels, index).ravel()
        return _cp.bincount(b[valid], minlength=bins)[:bins]
    g, nb, sel = _bins(labels, index)
    valid = valid & (g < nb)
    counts = _cp.bincount((g * bins + b)[valid], minlength=nb * bins)[:nb * bins].reshape(nb, bins)
    present = _host(_cp.bincount(g, minlength=nb + 1)[:nb])
    out = numpy.empty(sel.shape, object)
    for k, s in numpy.ndenumerate(sel):
        out[k] = counts[s] if present[s] else None
    return out


def labeled_comprehension(input, labels, index, func, out_dtype, default, pass_positions=False):
    """``func`` applied to the values (and flat positions) of each labelled region
    (scipy.ndimage.labeled_comprehension)."""
    as_scalar = numpy.isscalar(index)
    input = _util.check_input(input)
    positions = _cp.arange(input.size).reshape(input.shape) if pass_positions else None
    if labels is None:
        if index is not None:
            raise ValueError("index without defined labels")
        args = (input.ravel(),) if not pass_positions else (input.ravel(), positions.ravel())
        return func(*args)
    input, labels = _check_labels(input, labels)
    if index is None:
        m = labels > 0
        return func(input[m]) if not pass_positions else func(input[m], positions[m])
    idx = numpy.atleast_1d(_index_host(index))
    if numpy.any(idx.astype(labels.dtype).astype(idx.dtype) != idx):
        raise ValueError(f"Cannot convert index values from <{idx.dtype}> to <{labels.dtype}> (labels' type) "
                         "without loss of precision")
    bins, nb, sel = _bins(labels, idx)
    order = _cp.argsort(bins, kind='stable')
    sb = _cp.take(bins, order)
    ids = numpy.arange(nb)
    lo = _host(_cp.searchsorted(sb, _cp.asarray(ids), 'left'))
    hi = _host(_cp.searchsorted(sb, _cp.asarray(ids), 'right'))
    vals = _cp.take(input.ravel(), order)
    pos = _cp.take(positions.ravel(), order) if pass_positions else None
    per_bin = [None] * nb
    for k in range(nb):
        if lo[k] < hi[k]:
            args = (vals[lo[k]:hi[k]],) if not pass_positions else (vals[lo[k]:hi[k]], pos[lo[k]:hi[k]])
            per_bin[k] = func(*args)
    out_dtype = numpy.dtype(out_dtype)
    if out_dtype == object:
        out = numpy.empty(idx.shape, object)
        for k, s in numpy.ndenumerate(sel):
            out[k] = default if per_bin[s] is None else per_bin[s]
        return out[0] if as_scalar else out
    host = numpy.empty(idx.shape, out_dtype)
    for k, s in numpy.ndenumerate(sel):
        v = per_bin[s]
        if v is None:
            host[k] = default
        else:
            host[k] = _host(v)
    out = _cp.asarray(host)
    return out[0] if as_scalar else out


# -- labelling and objects -------------------------------------------------------------------------------
def _label_limit(dt):
    if dt.kind == 'b':
        return 1
    if dt.kind in 'iu':
        return int(numpy.iinfo(dt).max)
    if dt.kind == 'f':
        return 2 ** (numpy.finfo(dt).nmant + 1)
    raise RuntimeError(f"output type not supported: {dt}")


def label(input, structure=None, output=None):
    """Label the connected components of the nonzero elements of ``input`` in raster order
    (scipy.ndimage.label; Note [morphology kernels]): (labels, count), or count when ``output`` is an array."""
    input = _util.check_input(input)
    if input.dtype.kind == 'c':
        raise TypeError('Complex type not supported')
    if structure is None:
        structure = _host_structure(input.ndim, 1)
    structure = _util.host_array(structure, dtype=bool)
    if structure.ndim != input.ndim:
        raise RuntimeError('structure and input must have equal rank')
    for n in structure.shape:
        if n != 3:
            raise ValueError('structure dimensions must be equal to 3')
    if not numpy.array_equal(structure, structure[(slice(None, None, -1),) * structure.ndim]):
        raise AssertionError("Structuring element is not symmetric")  # SciPy's exception type
    need64 = input.size >= 2 ** 31 - 2
    provided = output is not None and _is_array(output)
    if provided:
        if output.shape != input.shape:
            raise ValueError('output shape not correct')
        dt = output.dtype
    else:
        dt = numpy.dtype(numpy.intp if need64 else numpy.int32) if output is None else numpy.dtype(output)
    if input.ndim == 0 or input.size == 0:
        n = (1 if bool(input != 0) else 0) if input.ndim == 0 else 0
        res = _cp.full(input.shape, n, dt) if not provided else None
        if provided:
            output[...] = n
            return n
        return res, n
    x = _cp.ascontiguousarray(input != 0)
    # SciPy joins each pixel with the structure's neighbours that come before it in raster order.
    half = numpy.zeros(structure.size, bool)
    half[:structure.size // 2] = structure.ravel()[:structure.size // 2]
    offs = numpy.ascontiguousarray(numpy.argwhere(half.reshape(structure.shape)) - 1, dtype=numpy.int32)
    idx_t = numpy.dtype(numpy.int64 if need64 else numpy.int32)
    lim = _label_limit(dt)
    ydt = dt if dt.name in _util._CTYPES else numpy.dtype(numpy.int64)
    k_init, k_union, k_flat, k_num = _morph_kernels.label_kernels(input.ndim, idx_t, ydt)
    total = x.size
    L = _cp.empty(total, idx_t)
    roots = _cp.empty(total, numpy.int64)
    grid, block = (_blocks(total),), (_THREADS,)
    k_init(grid, block, (x, L, numpy.int64(total)))
    if len(offs):
        k_union(grid, block, (x, L, _cp.asarray(offs), numpy.int32(len(offs)), numpy.int64(total),
                              *_i64(*input.shape)))
    k_flat(grid, block, (L, roots, numpy.int64(total)))
    ids = _cp.cumsum(roots)
    n = int(ids[-1])
    if n > lim:
        raise RuntimeError("insufficient bit-depth in requested output type")
    y = _cp.empty(input.shape, ydt)
    k_num(grid, block, (L, ids, y, numpy.int64(total)))
    if provided:
        output[...] = y
        return n
    return (y if ydt == dt else y.astype(dt)), n


def find_objects(input, max_label=0):
    """Bounding-box slices of the objects labelled 1..max_label (scipy.ndimage.find_objects)."""
    input = _util.check_input(input)
    if input.dtype.kind == 'c':
        raise TypeError('Complex type not supported')
    if max_label < 1:
        max_label = int(input.max())
    max_label = int(max_label)
    if max_label < 1:
        return []
    lab = input.ravel().astype(numpy.int64)
    keep = (lab >= 1) & (lab <= max_label)
    lab = lab[keep]
    flat = _cp.flatnonzero(keep)
    ids = _cp.arange(1, max_label + 2, dtype=numpy.int64)
    lo_hi = []
    present = None
    for d, n in enumerate(input.shape):
        stride = int(numpy.prod(input.shape[d + 1:], dtype=numpy.int64))
        key = _cp.sort(lab * n + (flat // stride) % n)
        edges = _cp.searchsorted(key, ids * n, 'left')
        start, end = edges[:-1], edges[1:]
        if present is None:
            present = _host(end > start)
        m = key.size
        first = _cp.take(key, _cp.minimum(start, max(m - 1, 0))) - ids[:-1] * n if m else start
        last = _cp.take(key, _cp.maximum(end - 1, 0)) - ids[:-1] * n if m else start
        lo_hi.append((_host(first), _host(last)))
    if present is None:  # 0-d input: SciPy's object is the empty tuple
        v = int(input) if input.size else 0
        return [() if k + 1 == v else None for k in range(max_label)]
    out = []
    for k in range(max_label):
        if not present[k]:
            out.append(None)
        else:
            out.append(tuple(slice(int(lo[k]), int(hi[k]) + 1) for lo, hi in lo_hi))
    return out


def value_indices(arr, *, ignore_value=None):
    """{value: indices of the elements equal to it} for each distinct value of an integer array
    (scipy.ndimage.value_indices); the indices are device arrays."""
    arr = _util.check_input(arr)
    if arr.dtype.kind not in 'iu':
        raise ValueError("Parameter 'arr' must be an integer array")
    flat = arr.ravel()
    order = _cp.argsort(flat, kind='stable')
    sv = _cp.take(flat, order)
    vals, counts = _cp.unique(sv, return_counts=True)
    vals, counts = _host(vals), _host(counts)
    coords = _cp.unravel_index(order, arr.shape) if arr.ndim else ()
    ign = None if ignore_value is None else numpy.array([ignore_value]).astype(arr.dtype)[0]
    out = {}
    start = 0
    for v, c in zip(vals, counts):
        if ign is None or v != ign:
            out[arr.dtype.type(v)] = tuple(ci[start:start + c] for ci in coords)
        start += int(c)
    return out
