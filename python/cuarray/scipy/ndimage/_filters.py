"""cuarray.scipy.ndimage filters: correlations, uniform, Gaussian, min/max, rank and derivative filters."""
import warnings

import numpy

import cuarray as _cp
from cuarray.scipy.ndimage import _kernels, _util
from cuarray.scipy.ndimage._kernels import acc_dtype, get_kernel

_THREADS = 256


# -- launching ---------------------------------------------------------------------------------------------
def _strided(x):
    """x and its strides in elements (a copy when a stride is not a whole number of elements)."""
    if any(s % x.itemsize for s in x.strides):
        x = _cp.ascontiguousarray(x)
    return x, [s // x.itemsize for s in x.strides]


def _launch(kind, x, out_dtype, K, mode, cval, axis=None, shift=0, w=None, offs=None, rank=0):
    """A new C-contiguous array of out_dtype: the filter ``kind`` applied to x (Note [ndimage kernels])."""
    _util.check_dtype(x.dtype)
    out_dtype = _util.check_dtype(out_dtype)
    y = _cp.empty(x.shape, out_dtype)
    if y.size == 0:
        return y
    xs, strides = _strided(x)
    if kind.endswith('1d') and _launch_line(kind, xs, strides, y, K, mode, cval, axis, shift, w):
        return y
    if kind == 'rank':
        if _launch_rank(xs, strides, y, offs, rank, mode, cval):
            return y
        cval = float(_kernels.rank_cval(xs.dtype, cval))
    kern = get_kernel(kind, xs.ndim, mode, xs.dtype, out_dtype, K, axis)
    acc = acc_dtype(xs.dtype, out_dtype)
    wd = _cp.asarray(numpy.ascontiguousarray(w, dtype=acc)) if w is not None and len(w) else numpy.uint64(0)
    od = _cp.asarray(numpy.ascontiguousarray(offs, dtype=numpy.int32)) if offs is not None and offs.size \
        else numpy.uint64(0)
    dims = []
    for n, s in zip(xs.shape, strides):
        dims += [numpy.int64(n), numpy.int64(s)]
    blocks = min((y.size + _THREADS - 1) // _THREADS, 1 << 30)
    kern((blocks,), (_THREADS,), (xs, y, wd, od, numpy.int64(y.size), numpy.int32(shift), numpy.int32(rank),
                                  numpy.float64(cval), *dims))
    return y


def _launch_line(kind, xs, strides, y, K, mode, cval, axis, shift, w):
    """The tiled line filter into y (Note [ndimage kernels]); False when the generic kernel must serve."""
    acc = acc_dtype(xs.dtype, y.dtype)
    layout = _kernels.line_layout(xs.shape, strides, axis)
    if layout is None:
        # Axes that do not merge around the filtered one: a C-contiguous copy always merges.
        xs = _cp.ascontiguousarray(xs)
        strides = [s // xs.itemsize for s in xs.strides]
        layout = _kernels.line_layout(xs.shape, strides, axis)
    outer, so, n, sn, inner, si = layout
    chosen = _kernels.line_variant(outer, n, inner, K, acc)
    if chosen is None:
        return False
    variant, tile = chosen
    kern = _kernels.line_kernel(variant, kind, mode, xs.dtype, y.dtype, K, tile if variant == 'row' else None)
    # Weights go by value for unrolled taps (one by-value struct), else through a device array.
    by_value = _kernels.weights_by_value(K) and kind == 'corr1d'
    wv = numpy.zeros(K if by_value else 1, dtype=acc)
    if by_value:
        wv[:] = w
    wstruct = wv.view(numpy.dtype([('v', acc, (wv.size,))]))[0]
    wp = _cp.asarray(numpy.ascontiguousarray(w, dtype=acc)) if kind == 'corr1d' and not by_value \
        else numpy.uint64(0)
    i64 = numpy.int64
    if variant == 'row':
        tiles = outer * inner * (-(-n // tile))
        block = (tile // _kernels.ROW_R,)
    else:
        tiles = outer * (-(-n // tile)) * (-(-inner // _kernels.COL_TX))
        block = (_kernels.COL_TX, _kernels.COL_TY)
    kern((min(tiles, 1 << 30),), block, (xs, y, wstruct, wp, i64(outer), i64(n), i64(inner), i64(so), i64(sn),
                                         i64(si), numpy.int32(shift), numpy.float64(cval)))
    return True


def _launch_rank(xs, strides, y, offs, rank, mode, cval):
    """The rank filter by a selection network into y (Note [forgetful selection]); False when the footprint is
    too large for one."""
    shape = xs.shape
    domain = _kernels.rank_domain(xs.dtype)
    pa = _kernels.pair_axis(offs, shape)
    vshape = list(shape)
    if pa is not None:
        vshape[pa] = (vshape[pa] + 1) // 2
    total = 1
    for v in vshape:
        total *= v
    # 32-bit coordinates and offsets when every index a thread forms stays far from 2**31.
    reach = sum(abs(s) * (n + 8) for s, n in zip(strides, shape)) + 2 * y.size
    idx64 = reach + total >= (1 << 30) or max(shape) >= (1 << 28)
    kern = _kernels.rank_kernel(offs, rank, shape, mode, domain, xs.dtype, y.dtype, idx64)
    if kern is None:
        return False
    dims = []
    for n, s in zip(shape, strides):
        dims += [numpy.int64(n), numpy.int64(s)]
    blocks = min((total + _THREADS - 1) // _THREADS, 1 << 30)
    kern((blocks,), (_THREADS,), (xs, y, numpy.int64(total), _kernels.rank_cval(xs.dtype, cval), *dims))
    return True


def _finish(result, out):
    if out is None:
        return result
    out[...] = result
    return out


def _check_cval_real(cval):
    if numpy.iscomplexobj(cval):
        raise ValueError("Cannot provide a complex-valued cval when the input is real.")


def _taps(kind, input, footprint, weights, origins, out_dtype, mode, cval, rank=0):
    """An n-d filter over the True entries of footprint (numpy bool, input.ndim dims)."""
    pos = numpy.argwhere(footprint)
    centre = numpy.array([s // 2 for s in footprint.shape], dtype=numpy.int64) + numpy.array(origins, numpy.int64)
    offs = (pos - centre).astype(numpy.int32) if input.ndim else numpy.zeros((len(pos), 1), numpy.int32)
    w = None if weights is None else weights[footprint]
    x = input if input.ndim else input.reshape(1)
    res = _launch(kind, x, out_dtype, len(pos), mode, cval, w=w, offs=offs, rank=rank)
    return res.reshape(input.shape)


def _complex_components(func, input, weights, out_dtype, out, cval, **kwargs):
    """A complex correlation as real correlations of the real and imaginary parts (SciPy's way)."""
    ci, cw = input.dtype.kind == 'c', weights.dtype.kind == 'c'
    rdt = numpy.empty(0, out_dtype).real.dtype
    if ci and cw:
        re = func(input.real, weights.real, output=rdt, cval=numpy.real(cval), **kwargs)
        re -= func(input.imag, weights.imag, output=None, cval=numpy.imag(cval), **kwargs)
        im = func(input.real, weights.imag, output=rdt, cval=numpy.real(cval), **kwargs)
        im += func(input.imag, weights.real, output=None, cval=numpy.imag(cval), **kwargs)
    elif ci:
        re = func(input.real, weights, output=rdt, cval=numpy.real(cval), **kwargs)
        im = func(input.imag, weights, output=rdt, cval=numpy.imag(cval), **kwargs)
    else:
        _check_cval_real(cval)
        re = func(input, weights.real, output=rdt, cval=cval, **kwargs)
        im = func(input, weights.imag, output=rdt, cval=cval, **kwargs)
    res = _cp.empty(input.shape, out_dtype)
    res.real = re
    res.imag = im
    return _finish(res, out)


# -- correlation and convolution -------------------------------------------------------------------------
def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """One-dimensional correlation along ``axis`` (scipy.ndimage.correlate1d)."""
    input = _util.check_input(input)
    weights = _util.host_array(weights)
    if input.dtype.kind == 'c' or weights.dtype.kind == 'c':
        if weights.dtype.kind == 'c':
            weights = weights.conj().astype(numpy.complex128, copy=False)
        dt, out = _util.output_dtype(output, input, complex_output=True)
        return _complex_components(correlate1d, input, weights, dt, out, cval, axis=axis, mode=mode,
                                   origin=origin)
    dt, out = _util.output_dtype(output, input)
    weights = numpy.asarray(weights, dtype=numpy.float64)
    if weights.ndim != 1 or weights.shape[0] < 1:
        raise RuntimeError('no filter weights given')
    axis = _util.normalize_axis(axis, input.ndim)
    origin = _util._index(origin)
    if _util.invalid_origin(origin, len(weights)):
        raise ValueError('Invalid origin; origin must satisfy -(len(weights) // 2) <= origin <= '
                         '(len(weights)-1) // 2')
    m = _util.mode_code(mode)
    _check_cval_real(cval)
    res = _launch('corr1d', input, dt, len(weights), m, cval, axis=axis, shift=len(weights) // 2 + origin,
                  w=weights)
    return _finish(res, out)


def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """One-dimensional convolution along ``axis`` (scipy.ndimage.convolve1d)."""
    weights = _util.host_array(weights)[::-1]
    origin = -_util._index(origin)
    if not weights.shape[0] & 1:
        origin -= 1
    if weights.dtype.kind == 'c':
        weights = weights.conj()
    return correlate1d(input, weights, axis, output, mode, cval, origin)


def _correlate_or_convolve(input, weights, output, mode, cval, origin, convolution, axes):
    input = _util.check_input(input)
    weights = _util.host_array(weights)
    if input.dtype.kind == 'c' or weights.dtype.kind == 'c':
        if weights.dtype.kind == 'c' and not convolution:
            weights = weights.conj()
        dt, out = _util.output_dtype(output, input, complex_output=True)
        return _complex_components(_correlate_or_convolve, input, weights, dt, out, cval, mode=mode,
                                   origin=origin, convolution=convolution, axes=axes)
    axes = _util.check_axes(axes, input.ndim)
    weights = numpy.asarray(weights, dtype=numpy.float64)
    weights = _util.expand_footprint(input.ndim, axes, weights, "weights")
    origins = _util.expand_origin(input.ndim, axes, origin)
    wshape = [s for s in weights.shape if s > 0]
    if len(wshape) != input.ndim:
        raise RuntimeError(f"weights.ndim ({len(wshape)}) must match len(axes) ({len(axes)})")
    if convolution:
        weights = weights[(slice(None, None, -1),) * weights.ndim]
        for k in range(len(origins)):
            origins[k] = -origins[k]
            if not weights.shape[k] & 1:
                origins[k] -= 1
    for o, lenw in zip(origins, wshape):
        if _util.invalid_origin(o, lenw):
            raise ValueError('Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= origin[k] <= '
                             '(weights.shape[k]-1) // 2')
    dt, out = _util.output_dtype(output, input)
    if _util.is_sequence(mode):
        raise RuntimeError("A sequence of modes is not supported")
    m = _util.mode_code(mode)
    _check_cval_real(cval)
    # SciPy's footprint is the nonzero weights: a zero weight never meets an inf or NaN.
    res = _taps('corr', input, weights != 0, weights, origins, dt, m, cval)
    return _finish(res, out)


def correlate(input, weights, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None):
    """Multidimensional correlation (scipy.ndimage.correlate)."""
    return _correlate_or_convolve(input, weights, output, mode, cval, origin, False, axes)


def convolve(input, weights, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None):
    """Multidimensional convolution (scipy.ndimage.convolve)."""
    return _correlate_or_convolve(input, weights, output, mode, cval, origin, True, axes)


# -- separable filters -----------------------------------------------------------------------------------
def _line_filter(kind, input, size, axis, output, mode, cval, origin, complex_ok):
    input = _util.check_input(input)
    if input.dtype.kind == 'c' and not complex_ok:
        raise TypeError('Complex type not supported')
    axis = _util.normalize_axis(axis, input.ndim)
    size = _util._index(size)
    if size < 1:
        raise RuntimeError('incorrect filter size')
    complex_output = input.dtype.kind == 'c'
    dt, out = _util.output_dtype(output, input, complex_output=complex_output)
    origin = _util._index(origin)
    if size // 2 + origin < 0 or size // 2 + origin >= size:
        raise ValueError('invalid origin')
    m = _util.mode_code(mode)
    if complex_output:
        rdt = numpy.empty(0, dt).real.dtype
        res = _cp.empty(input.shape, dt)
        res.real = _launch(kind, input.real, rdt, size, m, numpy.real(cval), axis=axis, shift=size // 2 + origin)
        res.imag = _launch(kind, input.imag, rdt, size, m, numpy.imag(cval), axis=axis, shift=size // 2 + origin)
        return _finish(res, out)
    _check_cval_real(cval)
    return _finish(_launch(kind, input, dt, size, m, cval, axis=axis, shift=size // 2 + origin), out)


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """One-dimensional uniform (moving average) filter (scipy.ndimage.uniform_filter1d)."""
    return _line_filter('uniform1d', input, size, axis, output, mode, cval, origin, True)


def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """One-dimensional minimum filter (scipy.ndimage.minimum_filter1d)."""
    return _line_filter('min1d', input, size, axis, output, mode, cval, origin, False)


def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """One-dimensional maximum filter (scipy.ndimage.maximum_filter1d)."""
    return _line_filter('max1d', input, size, axis, output, mode, cval, origin, False)


def _passes(input, out_dtype, out, passes):
    """Apply 1-d passes in turn, each storing its result in the output's dtype (as SciPy's do)."""
    if not passes:
        return _finish(input.astype(out_dtype), out)
    cur = input
    for fn in passes:
        cur = fn(cur, out_dtype)
    return _finish(cur, out)


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """Multidimensional uniform filter: successive 1-d passes (scipy.ndimage.uniform_filter)."""
    input = _util.check_input(input)
    dt, out = _util.output_dtype(output, input, complex_output=input.dtype.kind == 'c')
    axes = _util.check_axes(axes, input.ndim)
    sizes = _util.normalize_sequence(size, len(axes))
    origins = _util.normalize_sequence(origin, len(axes))
    modes = _util.normalize_sequence(mode, len(axes))
    passes = [(lambda x, d, a=a, s=s, o=o, m=m: uniform_filter1d(x, int(s), a, d, m, cval, o))
              for a, s, o, m in zip(axes, sizes, origins, modes) if s > 1]
    return _passes(input, dt, out, passes)


def _gaussian_kernel1d(sigma, order, radius):
    """Sampled Gaussian of ``sigma`` on [-radius, radius] (normalised), or its ``order``-th derivative."""
    if order < 0:
        raise ValueError('order must be non-negative')
    x = numpy.arange(-radius, radius + 1, dtype=numpy.float64)
    s2 = sigma * sigma
    phi = numpy.exp(-0.5 / s2 * x * x)
    phi /= phi.sum()
    if order == 0:
        return phi
    # The order-th derivative of phi is q(x) * phi(x) with q a polynomial: q' + q * (-x / s2), order times.
    q = numpy.zeros(order + 1)
    q[0] = 1.0
    for _ in range(order):
        nq = numpy.zeros(order + 1)
        nq[:-1] += q[1:] * numpy.arange(1, order + 1)  # derivative of q
        nq[1:] += q[:-1] * (-1.0 / s2)                  # q times -x / s2
        q = nq
    return (x[:, None] ** numpy.arange(order + 1)).dot(q) * phi


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *,
                      radius=None):
    """One-dimensional Gaussian filter or derivative (scipy.ndimage.gaussian_filter1d)."""
    sd = float(sigma)
    lw = int(truncate * sd + 0.5)
    if radius is not None:
        lw = radius
    if not _util.is_integral(lw) or lw < 0:
        raise ValueError('Radius must be a nonnegative integer.')
    weights = _gaussian_kernel1d(sigma, order, lw)[::-1]
    return correlate1d(input, weights, axis, output, mode, cval, 0)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *, radius=None,
                    axes=None):
    """Multidimensional Gaussian filter: successive 1-d passes (scipy.ndimage.gaussian_filter)."""
    input = _util.check_input(input)
    dt, out = _util.output_dtype(output, input, complex_output=input.dtype.kind == 'c')
    axes = _util.check_axes(axes, input.ndim)
    n = len(axes)
    orders = _util.normalize_sequence(order, n)
    sigmas = _util.normalize_sequence(sigma, n)
    modes = _util.normalize_sequence(mode, n)
    radii = _util.normalize_sequence(radius, n)
    passes = [(lambda x, d, a=a, s=s, o=o, m=m, r=r: gaussian_filter1d(x, s, a, o, d, m, cval, truncate, radius=r))
              for a, s, o, m, r in zip(axes, sigmas, orders, modes, radii) if s > 1e-15]
    return _passes(input, dt, out, passes)


# -- minimum, maximum and rank filters -------------------------------------------------------------------
def _min_or_max_filter(input, size, footprint, output, mode, cval, origin, minimum, axes):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint provided")
        separable = True
    else:
        footprint = _util.host_array(footprint, dtype=bool)
        if not footprint.any():
            raise ValueError("All-zero footprint is not supported.")
        if footprint.all():
            size, footprint, separable = footprint.shape, None, True
        else:
            separable = False
    input = _util.check_input(input)
    if input.dtype.kind == 'c':
        raise TypeError("Complex type not supported")
    dt, out = _util.output_dtype(output, input)
    axes = _util.check_axes(axes, input.ndim)
    if separable:
        n = len(axes)
        origins = _util.normalize_sequence(origin, n)
        sizes = _util.normalize_sequence(size, n)
        modes = _util.normalize_sequence(mode, n)
        f1 = minimum_filter1d if minimum else maximum_filter1d
        passes = [(lambda x, d, a=a, s=s, o=o, m=m: f1(x, int(s), a, d, m, cval, o))
                  for a, s, o, m in zip(axes, sizes, origins, modes) if s > 1]
        return _passes(input, dt, out, passes)
    footprint = _util.expand_footprint(input.ndim, axes, footprint)
    origins = _util.expand_origin(input.ndim, axes, origin)
    fshape = [s for s in footprint.shape if s > 0]
    if len(fshape) != input.ndim:
        raise RuntimeError(f"footprint.ndim ({footprint.ndim}) must match len(axes) ({len(axes)})")
    for o, lenf in zip(origins, fshape):
        if lenf // 2 + o < 0 or lenf // 2 + o >= lenf:
            raise ValueError("invalid origin")
    if _util.is_sequence(mode):
        raise RuntimeError("A sequence of modes is not supported for non-separable footprints")
    m = _util.mode_code(mode)
    return _finish(_taps('min' if minimum else 'max', input, footprint, None, origins, dt, m, cval), out)


def minimum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """Multidimensional minimum filter (scipy.ndimage.minimum_filter)."""
    return _min_or_max_filter(input, size, footprint, output, mode, cval, origin, True, axes)


def maximum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """Multidimensional maximum filter (scipy.ndimage.maximum_filter)."""
    return _min_or_max_filter(input, size, footprint, output, mode, cval, origin, False, axes)


def _rank_filter(input, rank, size, footprint, output, mode, cval, origin, operation, axes):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    input = _util.check_input(input)
    if input.dtype.kind == 'c':
        raise TypeError('Complex type not supported')
    axes = _util.check_axes(axes, input.ndim)
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint or filter size provided")
        footprint = numpy.ones(_util.normalize_sequence(size, len(axes)), dtype=bool)
    else:
        footprint = _util.host_array(footprint, dtype=bool)
    footprint = _util.expand_footprint(input.ndim, axes, footprint)
    origins = _util.expand_origin(input.ndim, axes, origin)
    mode = _util.expand_mode(input.ndim, axes, mode)
    fshape = [s for s in footprint.shape if s > 0]
    if len(fshape) != input.ndim:
        raise RuntimeError(f"footprint.ndim ({footprint.ndim}) must match len(axes) ({len(axes)})")
    for o, lenf in zip(origins, fshape):
        if lenf // 2 + o < 0 or lenf // 2 + o >= lenf:
            raise ValueError('invalid origin')
    filter_size = int(footprint.sum())
    if operation == 'median':
        rank = filter_size // 2
    elif operation == 'percentile':
        percentile = rank
        if percentile < 0.0:
            percentile += 100.0
        if percentile < 0 or percentile > 100:
            raise RuntimeError('invalid percentile')
        rank = filter_size - 1 if percentile == 100.0 else int(float(filter_size) * percentile / 100.0)
    rank = _util._index(rank)
    if rank < 0:
        rank += filter_size
    if rank < 0 or rank >= filter_size:
        raise RuntimeError('rank not within filter footprint size')
    if rank == 0:
        return minimum_filter(input, None, footprint, output, mode, cval, origins)
    if rank == filter_size - 1:
        return maximum_filter(input, None, footprint, output, mode, cval, origins)
    dt, out = _util.output_dtype(output, input)
    if _util.is_sequence(mode):
        raise RuntimeError("A sequence of modes is not supported by non-separable rank filters")
    m = _util.mode_code(mode)
    return _finish(_taps('rank', input, footprint, None, origins, dt, m, cval, rank=rank), out)


def rank_filter(input, rank, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                axes=None):
    """Multidimensional rank filter (scipy.ndimage.rank_filter)."""
    return _rank_filter(input, rank, size, footprint, output, mode, cval, origin, 'rank', axes)


def median_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                  axes=None):
    """Multidimensional median filter (scipy.ndimage.median_filter)."""
    return _rank_filter(input, 0, size, footprint, output, mode, cval, origin, 'median', axes)


def percentile_filter(input, percentile, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                      origin=0, *, axes=None):
    """Multidimensional percentile filter (scipy.ndimage.percentile_filter)."""
    return _rank_filter(input, percentile, size, footprint, output, mode, cval, origin, 'percentile', axes)


# -- derivatives -----------------------------------------------------------------------------------------
def _edge(input, axis, output, mode, cval, smooth):
    input = _util.check_input(input)
    axis = _util.normalize_axis(axis, input.ndim)
    dt, out = _util.output_dtype(output, input)
    modes = _util.normalize_sequence(mode, input.ndim)
    res = correlate1d(input, [-1, 0, 1], axis, dt, modes[axis], cval, 0)
    for ax in range(input.ndim):
        if ax != axis:
            res = correlate1d(res, smooth, ax, dt, modes[ax], cval, 0)
    return _finish(res, out)


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """Prewitt derivative along ``axis`` (scipy.ndimage.prewitt)."""
    return _edge(input, axis, output, mode, cval, [1, 1, 1])


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """Sobel derivative along ``axis`` (scipy.ndimage.sobel)."""
    return _edge(input, axis, output, mode, cval, [1, 2, 1])


def generic_laplace(input, derivative2, output=None, mode="reflect", cval=0.0, extra_arguments=(),
                    extra_keywords=None, *, axes=None):
    """Sum of second derivatives along the axes given by ``derivative2`` (scipy.ndimage.generic_laplace)."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = _util.check_input(input)
    dt, out = _util.output_dtype(output, input)
    axes = _util.check_axes(axes, input.ndim)
    if not axes:
        return _finish(input.astype(dt), out)
    modes = _util.normalize_sequence(mode, len(axes))
    res = _cp.empty(input.shape, dt) if out is None else out
    derivative2(input, axes[0], res, modes[0], cval, *extra_arguments, **extra_keywords)
    for k in range(1, len(axes)):
        res += derivative2(input, axes[k], dt, modes[k], cval, *extra_arguments, **extra_keywords)
    return res


def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None):
    """Laplace filter from second differences (scipy.ndimage.laplace)."""
    def derivative2(input, axis, output, mode, cval):
        return correlate1d(input, [1, -2, 1], axis, output, mode, cval, 0)
    return generic_laplace(input, derivative2, output, mode, cval, axes=axes)


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """Laplace filter from Gaussian second derivatives (scipy.ndimage.gaussian_laplace)."""
    input = _util.check_input(input)

    def derivative2(input, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * input.ndim
        order[axis] = 2
        return gaussian_filter(input, sigma, order, output, mode, cval, **kwargs)

    axes = _util.check_axes(axes, input.ndim)
    sigma = _util.normalize_sequence(sigma, len(axes))
    if len(axes) < input.ndim:
        full = [0] * input.ndim
        for s, ax in zip(sigma, axes):
            full[ax] = s
        sigma = full
    return generic_laplace(input, derivative2, output, mode, cval, extra_arguments=(sigma,),
                           extra_keywords=kwargs, axes=axes)


def generic_gradient_magnitude(input, derivative, output=None, mode="reflect", cval=0.0, extra_arguments=(),
                               extra_keywords=None, *, axes=None):
    """sqrt of the sum of squared first derivatives given by ``derivative``
    (scipy.ndimage.generic_gradient_magnitude)."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = _util.check_input(input)
    dt, out = _util.output_dtype(output, input)
    axes = _util.check_axes(axes, input.ndim)
    if not axes:
        return _finish(input.astype(dt), out)
    modes = _util.normalize_sequence(mode, len(axes))
    res = _cp.empty(input.shape, dt) if out is None else out
    derivative(input, axes[0], res, modes[0], cval, *extra_arguments, **extra_keywords)
    _cp.multiply(res, res, res)
    for k in range(1, len(axes)):
        tmp = derivative(input, axes[k], dt, modes[k], cval, *extra_arguments, **extra_keywords)
        _cp.multiply(tmp, tmp, tmp)
        res += tmp
    _cp.sqrt(res, res, casting='unsafe')
    return res


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """Gradient magnitude from Gaussian first derivatives (scipy.ndimage.gaussian_gradient_magnitude)."""
    input = _util.check_input(input)

    def derivative(input, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * input.ndim
        order[axis] = 1
        return gaussian_filter(input, sigma, order, output, mode, cval, **kwargs)

    return generic_gradient_magnitude(input, derivative, output, mode, cval, extra_arguments=(sigma,),
                                      extra_keywords=kwargs, axes=axes)
