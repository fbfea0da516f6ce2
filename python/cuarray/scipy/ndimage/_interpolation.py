"""cuarray.scipy.ndimage interpolation: spline prefilters and geometric transforms (map_coordinates,
affine_transform, shift, zoom, rotate) with scipy.ndimage's semantics."""
import math
import operator
import warnings

import numpy

import cuarray as _cp
from cuarray.scipy.ndimage import _interp_kernels as _k
from cuarray.scipy.ndimage import _util

_THREADS = 256
_CHUNK = 256  # samples per thread in the prefilter's passes (Note [spline prefilter]); tests shrink it
_PAD = 12  # SciPy's padding before prefiltering for nearest and grid-constant


# -- argument handling -----------------------------------------------------------------------------------
def _check_order(order):
    if order < 0 or order > 5:
        raise RuntimeError('spline order not supported')
    return operator.index(order)


def _mode(mode):
    if isinstance(mode, str):
        m = _k.MODE_CODES.get(mode)
        if m is not None:
            return m
    raise RuntimeError('boundary mode not supported')


def _output(output, input, shape, complex_output):
    """(dtype, array or None) for ``output=`` and a result of ``shape`` (the filters' rule in _util)."""
    return _util.output_dtype(output, input, complex_output, shape)


def _real_dtype(dt, what="data type not supported"):
    dt = numpy.dtype(dt)
    if dt.name not in _util._CTYPES:
        raise RuntimeError(what)
    return dt


def _finish(result, out):
    if out is None:
        return result
    out[...] = result
    return out


def _work_dtype(in_dtype, out_dtype):
    """float32 arithmetic for float32 data stored as float32 (within float32 rounding of SciPy's double
    results); double otherwise, as SciPy."""
    if numpy.dtype(in_dtype) == numpy.float32 and numpy.dtype(out_dtype) == numpy.float32:
        return numpy.dtype(numpy.float32)
    return numpy.dtype(numpy.float64)


def _check_cval(cval):
    if numpy.iscomplexobj(cval):
        raise TypeError("cval must be real for real input: can't convert complex to float")
    return float(cval)


def _by_parts(fn, input, shape, dt, out, cval):
    """A complex transform as two real ones of the real and imaginary parts (SciPy's way)."""
    rdt = numpy.empty(0, dt).real.dtype
    res = _cp.empty(shape, dt)
    res.real = fn(input.real, rdt, numpy.real(cval))
    res.imag = fn(input.imag, rdt, numpy.imag(cval))
    return _finish(res, out)


def _launch(kern, items, args):
    blocks = min((items + _THREADS - 1) // _THREADS, 1 << 30)
    kern((blocks,), (_THREADS,), args)


# -- spline prefilter --------------------------------------------------------------------------------------
def _filter_axes(x, order, mode, axes, out_dtype, work_dtype):
    """x (real) prefiltered along ``axes`` in turn (Note [spline prefilter]): a new C-contiguous array of
    out_dtype. Between axes the values are stored in out_dtype, as SciPy's spline_filter stores them in its
    output."""
    cur = _cp.ascontiguousarray(x)
    family = _k.init_family(mode)
    g = _k.gain(order)
    bufs = []
    nxt = 0
    filtered = False
    for k, axis in enumerate(axes):
        n = cur.shape[axis]
        if n > 1 and cur.size:
            _real_dtype(cur.dtype, f"array type {cur.dtype} not supported")
            outer = math.prod(cur.shape[:axis])
            inner = math.prod(cur.shape[axis + 1:])
            nchunks = -(-n // _CHUNK)
            items = outer * nchunks * inner
            for pole_index, z in enumerate(_k.POLES[order]):
                h = _k.horizon(z, work_dtype)
                for kern_index, gg in ((0, g if pole_index == 0 else 1.0), (1, 1.0)):
                    if len(bufs) < 2:
                        bufs.append(_cp.empty(cur.shape, work_dtype))
                    dst = bufs[nxt]
                    kern = _k.spline_kernels(cur.dtype, work_dtype, family)[kern_index]
                    _launch(kern, items, (cur, dst, numpy.int64(outer), numpy.int64(n), numpy.int64(inner),
                                          numpy.int64(nchunks), numpy.int64(_CHUNK), numpy.float64(z),
                                          numpy.float64(gg), numpy.int64(h), numpy.int64(h)))
                    cur = dst
                    nxt ^= 1
            filtered = True
        if k < len(axes) - 1 and cur.dtype != out_dtype:
            cur = cur.astype(out_dtype)
            filtered = True
    if not filtered:
        return x.astype(out_dtype)
    return cur.astype(out_dtype, copy=False)


def spline_filter1d(input, order=3, axis=-1, output=numpy.float64, mode='mirror'):
    """One-dimensional B-spline prefilter along ``axis`` (scipy.ndimage.spline_filter1d)."""
    order = _check_order(order)
    input = _util.check_input(input)
    complex_output = input.dtype.kind == 'c'
    dt, out = _output(output, input, input.shape, complex_output)
    if complex_output:
        return _by_parts(lambda x, d, c: spline_filter1d(x, order, axis, d, mode), input, input.shape, dt, out, 0)
    if order in (0, 1):
        return _finish(input.astype(dt), out)
    m = _mode(mode)
    axis = _util.normalize_axis(axis, input.ndim)
    _real_dtype(dt)
    return _finish(_filter_axes(input, order, m, [axis], dt, _work_dtype(input.dtype, dt)), out)


def spline_filter(input, order=3, output=numpy.float64, mode='mirror'):
    """Multidimensional B-spline prefilter: spline_filter1d along every axis (scipy.ndimage.spline_filter)."""
    if order < 2 or order > 5:
        raise RuntimeError('spline order not supported')
    order = operator.index(order)
    input = _util.check_input(input)
    complex_output = input.dtype.kind == 'c'
    dt, out = _output(output, input, input.shape, complex_output)
    if complex_output:
        return _by_parts(lambda x, d, c: spline_filter(x, order, d, mode), input, input.shape, dt, out, 0)
    if input.ndim == 0:
        return _finish(input.astype(dt), out)
    m = _mode(mode)
    _real_dtype(dt)
    return _finish(_filter_axes(input, order, m, list(range(input.ndim)), dt, _work_dtype(input.dtype, dt)), out)


def _prefiltered(input, order, mode_name, mode, cval, prefilter, work_dtype, batch):
    """(array to interpolate, padding): the input, or its spline coefficients (after SciPy's padding for
    nearest and grid-constant). With ``batch`` the first axis is not an image axis."""
    if not (prefilter and order > 1):
        return input, 0
    npad = 0
    if mode_name in ('nearest', 'grid-constant'):
        npad = _PAD
        width = [(0, 0)] * batch + [(_PAD, _PAD)] * (input.ndim - batch)
        if mode_name == 'grid-constant':
            input = _cp.pad(input, width, mode='constant', constant_values=cval)
        else:
            input = _cp.pad(input, width, mode='edge')
    axes = list(range(batch, input.ndim))
    return _filter_axes(input, order, mode, axes, work_dtype, work_dtype), npad


def _host_store(t, dt):
    """SciPy's conversion of an interpolated double to the output type, on the host (for empty inputs)."""
    dt = numpy.dtype(dt)
    if dt.kind == 'b':
        return numpy.bool_(abs(t) >= 1.0)
    if dt.kind in 'iu':
        info = numpy.iinfo(dt)
        t = (t + 0.5 if t > 0 else (0.0 if dt.kind == 'u' else t - 0.5))
        t = min(max(t, float(info.min)), float(info.max))
        return dt.type(min(max(int(t), info.min), info.max))
    return dt.type(t)


def _transform(input, kind, out_shape, out_dtype, order, mode_name, cval, prefilter, coords=None, params=None,
               has_zoom=False, has_shift=False, grid_mode=False, batch=0):
    """A new C-contiguous array: the real ``input`` interpolated at the coordinates ``kind`` describes
    (Note [ndimage interpolation]). With ``batch`` (1), input's first axis is a stack of images, resampled one by
    one into out_shape's first axis."""
    mode = _mode(mode_name)
    cval = _check_cval(cval)
    out_dtype = _real_dtype(out_dtype)
    _real_dtype(input.dtype, f"array type {input.dtype} not supported")
    y = _cp.empty(out_shape, out_dtype)
    if y.size == 0:
        return y
    if input.size == 0:
        # SciPy reads outside an empty input for most modes; here every point is outside.
        y[...] = _host_store(cval, out_dtype)
        return y
    work = _work_dtype(input.dtype, out_dtype)
    x, npad = _prefiltered(input, order, mode_name, mode, cval, prefilter, work, batch)
    if any(s % x.itemsize for s in x.strides):
        x = _cp.ascontiguousarray(x)
    strides = [s // x.itemsize for s in x.strides]
    ndim = x.ndim - batch
    oshape = out_shape[batch:]
    ondim = len(oshape)
    npts = math.prod(oshape)
    extent = sum((n - 1) * abs(s) for n, s in zip(x.shape[batch:], strides[batch:]))
    idx64 = extent >= 2 ** 31 - 1
    coord_dtype = None
    crd = numpy.uint64(0)
    if kind == 'map':
        crd = coords
        coord_dtype = crd.dtype
    prm = _k.params(kind, ndim, ondim, params)
    kern = _k.transform_kernel(kind, ndim, ondim, order, mode, x.dtype, out_dtype, work, coord_dtype, idx64,
                               bool(batch), has_zoom, has_shift, grid_mode)
    dims = []
    for n, s in zip(x.shape[batch:], strides[batch:]):
        dims += [numpy.int64(n), numpy.int64(s)]
    dims += [numpy.int64(n) for n in oshape]
    bstride = strides[0] if batch else 0
    _launch(kern, y.size, (x, y, crd, prm, numpy.int64(y.size), numpy.int64(npts), numpy.float64(cval),
                           numpy.float64(npad), numpy.int64(bstride), *dims))
    return y


# -- public transforms -------------------------------------------------------------------------------------
def map_coordinates(input, coordinates, output=None, order=3, mode='constant', cval=0.0, prefilter=True):
    """Values of ``input`` at ``coordinates`` by spline interpolation (scipy.ndimage.map_coordinates)."""
    order = _check_order(order)
    input = _util.check_input(input)
    coordinates = coordinates if isinstance(coordinates, _util._core.ndarray) else _cp.asarray(coordinates)
    if coordinates.dtype.kind == 'c':
        raise TypeError('Complex type not supported')
    output_shape = coordinates.shape[1:]
    if input.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError('input and output rank must be > 0')
    if coordinates.shape[0] != input.ndim:
        raise RuntimeError('invalid shape for coordinate array')
    complex_output = input.dtype.kind == 'c'
    dt, out = _output(output, input, output_shape, complex_output)
    if coordinates.dtype.name not in _util._CTYPES:
        raise RuntimeError('coordinate array data type not supported')
    if coordinates.dtype.kind not in 'f':
        coordinates = coordinates.astype(numpy.float64)
    coordinates = _cp.ascontiguousarray(coordinates)

    def part(x, d, c):
        return _transform(x, 'map', output_shape, d, order, mode, c, prefilter, coords=coordinates)

    if complex_output:
        return _by_parts(part, input, output_shape, dt, out, cval)
    return _finish(part(input, dt, cval), out)


def _affine_parts(matrix, offset, ndim, ondim):
    """(kind, params, has_zoom, has_shift) for affine_transform's matrix and offset (SciPy's rules)."""
    matrix = _util.host_array(matrix, numpy.float64)
    if matrix.ndim not in (1, 2) or matrix.shape[0] < 1:
        raise RuntimeError('no proper affine matrix provided')
    if matrix.ndim == 2 and matrix.shape[1] == ndim + 1 and matrix.shape[0] in (ndim, ndim + 1):
        if matrix.shape[0] == ndim + 1:
            exptd = [0] * ndim + [1]
            if not numpy.all(matrix[ndim] == exptd):
                raise ValueError(f'Expected homogeneous transformation matrix with shape {matrix.shape} for image '
                                 f'shape {ndim}-d, but bottom row was not equal to {exptd}')
        offset = matrix[:ndim, ndim]
        matrix = matrix[:ndim, :ndim]
    if matrix.shape[0] != ndim:
        raise RuntimeError('affine matrix has wrong number of rows')
    if matrix.ndim == 2 and matrix.shape[1] != ondim:
        raise RuntimeError('affine matrix has wrong number of columns')
    offset = _util.host_array(offset)
    offset = numpy.asarray(_util.normalize_sequence(offset if offset.ndim else offset.item(), ndim),
                           dtype=numpy.float64)
    if offset.ndim != 1 or offset.shape[0] < 1:
        raise RuntimeError('no proper offset provided')
    if matrix.ndim == 1:
        if ondim != ndim:
            raise RuntimeError('affine matrix has wrong number of columns')
        with numpy.errstate(divide='ignore', invalid='ignore'):
            shift = offset / matrix
        return 'zoomshift', numpy.concatenate([matrix, shift]), True, True
    return 'affine', numpy.concatenate([matrix.ravel(), offset]), False, False


def affine_transform(input, matrix, offset=0.0, output_shape=None, output=None, order=3, mode='constant', cval=0.0,
                     prefilter=True):
    """Affine resampling: output[o] = input[matrix @ o + offset] (scipy.ndimage.affine_transform)."""
    order = _check_order(order)
    input = _util.check_input(input)
    if output_shape is None:
        output_shape = output.shape if isinstance(output, _util._core.ndarray) else input.shape
    output_shape = tuple(operator.index(s) for s in output_shape)
    if input.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError('input and output rank must be > 0')
    complex_output = input.dtype.kind == 'c'
    dt, out = _output(output, input, output_shape, complex_output)
    kind, params, hz, hs = _affine_parts(matrix, offset, input.ndim, len(output_shape))

    def part(x, d, c):
        return _transform(x, kind, output_shape, d, order, mode, c, prefilter, params=params, has_zoom=hz,
                          has_shift=hs)

    if complex_output:
        return _by_parts(part, input, output_shape, dt, out, cval)
    return _finish(part(input, dt, cval), out)


def shift(input, shift, output=None, order=3, mode='constant', cval=0.0, prefilter=True):
    """Shift by spline interpolation: output[o] = input[o - shift] (scipy.ndimage.shift)."""
    order = _check_order(order)
    input = _util.check_input(input)
    if input.ndim < 1:
        raise RuntimeError('input and output rank must be > 0')
    complex_output = input.dtype.kind == 'c'
    dt, out = _output(output, input, input.shape, complex_output)
    shifts = _util.normalize_sequence(shift, input.ndim)
    params = numpy.concatenate([numpy.zeros(input.ndim), -numpy.asarray(shifts, dtype=numpy.float64)])

    def part(x, d, c):
        return _transform(x, 'zoomshift', input.shape, d, order, mode, c, prefilter, params=params, has_shift=True)

    if complex_output:
        return _by_parts(part, input, input.shape, dt, out, cval)
    return _finish(part(input, dt, cval), out)


def zoom(input, zoom, output=None, order=3, mode='constant', cval=0.0, prefilter=True, *, grid_mode=False):
    """Resize by spline interpolation (scipy.ndimage.zoom); ``grid_mode`` aligns pixel edges instead of centres."""
    order = _check_order(order)
    input = _util.check_input(input)
    if input.ndim < 1:
        raise RuntimeError('input and output rank must be > 0')
    zooms = _util.normalize_sequence(zoom, input.ndim)
    output_shape = tuple(int(round(n * z)) for n, z in zip(input.shape, zooms))
    complex_output = input.dtype.kind == 'c'
    dt, out = _output(output, input, output_shape, complex_output)
    if all(z == 1 for z in zooms) and prefilter:
        return _finish(input.astype(dt), out)
    if grid_mode:
        suggest = {'constant': 'grid-constant', 'wrap': 'grid-wrap'}.get(mode) if isinstance(mode, str) else None
        if suggest is not None:
            warnings.warn(f"It is recommended to use mode = {suggest} instead of {mode} when grid_mode is True.",
                          stacklevel=2)
    div = numpy.array(output_shape, dtype=numpy.int64)
    num = numpy.array(input.shape, dtype=numpy.int64)
    if not grid_mode:
        div -= 1
        num -= 1
    factors = numpy.divide(num, div, out=numpy.ones(input.ndim, dtype=numpy.float64), where=div != 0)
    params = numpy.concatenate([factors, numpy.zeros(input.ndim)])

    def part(x, d, c):
        return _transform(x, 'zoomshift', output_shape, d, order, mode, c, prefilter, params=params, has_zoom=True,
                          grid_mode=bool(grid_mode))

    if complex_output:
        return _by_parts(part, input, output_shape, dt, out, cval)
    return _finish(part(input, dt, cval), out)


def _sindg_cosdg(angle):
    """sin and cos of ``angle`` degrees, exact at multiples of 90 (the reduction of cephes' sindg/cosdg)."""
    a = abs(float(angle))
    y = math.floor(a / 45.0)
    j = int(y - 16.0 * math.floor(y / 16.0))
    if j & 1:
        j += 1
        y += 1.0
    j &= 7
    r = math.radians(a - y * 45.0)  # in [-45, 45] degrees
    s, c = math.sin(r), math.cos(r)
    # quadrant j (of 90 degrees, 0..3) turns (c, s) by j right angles
    sin_a, cos_a = [(s, c), (c, -s), (-s, -c), (-c, s)][j // 2]
    if angle < 0:
        sin_a = -sin_a
    return sin_a + 0.0, cos_a + 0.0


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3, mode='constant', cval=0.0,
           prefilter=True):
    """Rotation in the plane of ``axes`` by ``angle`` degrees (scipy.ndimage.rotate)."""
    input = _util.check_input(input)
    ndim = input.ndim
    if ndim < 2:
        raise ValueError('input array should be at least 2D')
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError('axes should contain exactly two values')
    if not all(float(ax).is_integer() for ax in axes):
        raise ValueError('axes should contain only integer values')
    axes = [int(ax) for ax in axes]
    if axes[0] < 0:
        axes[0] += ndim
    if axes[1] < 0:
        axes[1] += ndim
    if axes[0] < 0 or axes[1] < 0 or axes[0] >= ndim or axes[1] >= ndim:
        raise ValueError('invalid rotation plane specified')
    axes.sort()
    s, c = _sindg_cosdg(angle)
    rot = numpy.array([[c, s], [-s, c]])
    img_shape = numpy.asarray(input.shape)
    in_plane = img_shape[axes]
    if reshape:
        iy, ix = in_plane
        bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (numpy.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = img_shape[axes]
    out_center = rot @ ((out_plane - 1) / 2)
    in_center = (in_plane - 1) / 2
    offset = in_center - out_center
    output_shape = img_shape.copy()
    output_shape[axes] = out_plane
    output_shape = tuple(int(v) for v in output_shape)
    complex_output = input.dtype.kind == 'c'
    dt, out = _output(output, input, output_shape, complex_output)
    if ndim == 2:
        return affine_transform(input, rot, offset, output_shape, out if out is not None else dt, order, mode, cval,
                                prefilter)
    order = _check_order(order)
    # The planes are resampled as a stack: the other axes first (one batch axis), the plane's axes last.
    rest = [a for a in range(ndim) if a not in axes]
    stack = _cp.transpose(input, rest + axes).reshape((-1,) + tuple(int(v) for v in in_plane))
    out_plane = tuple(int(v) for v in out_plane)
    params = numpy.concatenate([rot.ravel(), offset])
    batch_shape = tuple(input.shape[a] for a in rest)

    def part(x, d, cv):
        r = _transform(x, 'affine', (x.shape[0],) + out_plane, d, order, mode, cv, prefilter, params=params, batch=1)
        res = _cp.empty(output_shape, d)
        _cp.transpose(res, rest + axes)[...] = r.reshape(batch_shape + out_plane)
        return res

    if complex_output:
        return _by_parts(part, stack, output_shape, dt, out, cval)
    return _finish(part(stack, dt, cval), out)
