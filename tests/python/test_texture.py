"""cuarray.cuda.texture: CUDA arrays, texture and surface objects, and their use from RawKernel."""
import numpy
import pytest

import cuarray as cp
from cuarray.cuda import runtime
from cuarray.cuda import texture as tex

gpu = pytest.mark.gpu

FLOAT = runtime.cudaChannelFormatKindFloat


def test_channel_format_descriptor_fields():
    d = tex.ChannelFormatDescriptor(32, 32, 0, 0, FLOAT)
    assert d.get_channel_format() == {"x": 32, "y": 32, "z": 0, "w": 0, "f": FLOAT}


def test_texture_constants():
    assert (runtime.cudaResourceTypeArray, runtime.cudaResourceTypeLinear, runtime.cudaResourceTypePitch2D) == (0, 2, 3)
    assert (runtime.cudaAddressModeWrap, runtime.cudaAddressModeClamp, runtime.cudaAddressModeMirror,
            runtime.cudaAddressModeBorder) == (0, 1, 2, 3)
    assert (runtime.cudaFilterModePoint, runtime.cudaFilterModeLinear) == (0, 1)
    assert (runtime.cudaReadModeElementType, runtime.cudaReadModeNormalizedFloat) == (0, 1)
    assert (runtime.cudaArrayDefault, runtime.cudaArrayLayered, runtime.cudaArraySurfaceLoadStore,
            runtime.cudaArrayCubemap, runtime.cudaArrayTextureGather) == (0, 1, 2, 4, 8)


def test_texture_descriptor_fields_and_validation():
    d = tex.TextureDescriptor((runtime.cudaAddressModeClamp,), runtime.cudaFilterModeLinear,
                              runtime.cudaReadModeElementType, borderColors=(1.5,), normalizedCoords=1)
    info = d.get_texture_desc()
    assert info["addressMode"] == (1, 0, 0) and info["filterMode"] == 1 and info["normalizedCoords"] == 1
    assert info["borderColor"] == (1.5, 0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        tex.TextureDescriptor(addressModes=(0, 0, 0, 0))
    with pytest.raises(ValueError):
        tex.TextureDescriptor(borderColors=(0, 0, 0, 0, 0))


def test_cuda_array_argument_checks_before_allocation():
    d = tex.ChannelFormatDescriptor(32, 0, 0, 0, FLOAT)
    with pytest.raises(ValueError):
        tex.CUDAarray(d, 0)
    with pytest.raises(ValueError):
        tex.CUDAarray(d, 4, 0, 2)
    with pytest.raises(TypeError):
        tex.CUDAarray((32, 0, 0, 0, FLOAT), 4)


def test_resource_descriptor_checks():
    with pytest.raises(TypeError):
        tex.ResourceDescriptor(runtime.cudaResourceTypeArray)
    with pytest.raises(ValueError):
        tex.ResourceDescriptor(runtime.cudaResourceTypeMipmappedArray)
    with pytest.raises(ValueError):
        tex.ResourceDescriptor(7)


def _float_array(shape):
    return numpy.random.default_rng(0).random(shape, dtype=numpy.float32)


@gpu
@pytest.mark.parametrize("shape", [(10,), (6, 10), (4, 6, 10)])
def test_cuda_array_round_trip(shape):
    d = tex.ChannelFormatDescriptor(32, 0, 0, 0, FLOAT)
    dims = tuple(reversed(shape)) + (0,) * (3 - len(shape))
    arr = tex.CUDAarray(d, *dims)
    assert arr.ndim == len(shape) and arr.width == shape[-1]
    host = _float_array(shape)
    arr.copy_from(host)
    back = numpy.zeros_like(host)
    arr.copy_to(back)
    numpy.testing.assert_array_equal(back, host)
    dev = cp.zeros(shape, dtype=cp.float32)
    arr.copy_from(cp.asarray(host[..., ::-1]))  # a non-contiguous view is copied contiguous first
    arr.copy_to(dev)
    numpy.testing.assert_array_equal(cp.asnumpy(dev), host[..., ::-1])
    with pytest.raises(ValueError):
        arr.copy_from(numpy.zeros(shape, numpy.float64))
    with pytest.raises(ValueError):
        arr.copy_from(numpy.zeros((3,) + shape, numpy.float32))


FETCH_2D = r"""
extern "C" __global__ void fetch2d(float* out, cudaTextureObject_t t, int w, int h, float shift, int norm) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float u = x + shift, v = y + shift;
    if (norm) { u /= w; v /= h; }
    out[y * w + x] = tex2D<float>(t, u, v);
}
"""


def _fetch(texobj, w, h, shift, norm):
    k = cp.RawKernel(FETCH_2D, "fetch2d")
    out = cp.zeros((h, w), dtype=cp.float32)
    k(((w + 15) // 16, (h + 15) // 16), (16, 16), (out, texobj, numpy.int32(w), numpy.int32(h),
                                                   numpy.float32(shift), numpy.int32(norm)))
    return cp.asnumpy(out)


@gpu
@pytest.mark.parametrize("norm", [0, 1])
def test_texture_point_filter_reads_texels(norm):
    h, w = 5, 7
    host = _float_array((h, w))
    arr = tex.CUDAarray(tex.ChannelFormatDescriptor(32, 0, 0, 0, FLOAT), w, h)
    arr.copy_from(host)
    res = tex.ResourceDescriptor(runtime.cudaResourceTypeArray, cuArr=arr)
    td = tex.TextureDescriptor((runtime.cudaAddressModeClamp,) * 2, runtime.cudaFilterModePoint,
                               runtime.cudaReadModeElementType, normalizedCoords=norm)
    t = tex.TextureObject(res, td)
    assert isinstance(t.ptr, int) and t.ptr != 0
    numpy.testing.assert_array_equal(_fetch(t, w, h, 0.5, norm), host)


@gpu
def test_texture_linear_filter_and_clamp():
    h, w = 4, 6
    host = _float_array((h, w))
    arr = tex.CUDAarray(tex.ChannelFormatDescriptor(32, 0, 0, 0, FLOAT), w, h)
    arr.copy_from(host)
    res = tex.ResourceDescriptor(runtime.cudaResourceTypeArray, cuArr=arr)
    td = tex.TextureDescriptor((runtime.cudaAddressModeClamp,) * 2, runtime.cudaFilterModeLinear,
                               runtime.cudaReadModeElementType)
    t = tex.TextureObject(res, td)
    # Fetching at texel corners (x + 0, y + 0) averages the 2x2 neighbourhood above-left, clamped at the edges.
    got = _fetch(t, w, h, 0.0, 0)
    padded = numpy.pad(host, ((1, 0), (1, 0)), mode="edge")
    expected = 0.25 * (padded[:-1, :-1] + padded[:-1, 1:] + padded[1:, :-1] + padded[1:, 1:])
    numpy.testing.assert_allclose(got, expected, atol=1e-2)  # the filter weights have 8 fractional bits


@gpu
def test_texture_border_address_mode():
    h, w = 3, 4
    host = _float_array((h, w))
    arr = tex.CUDAarray(tex.ChannelFormatDescriptor(32, 0, 0, 0, FLOAT), w, h)
    arr.copy_from(host)
    res = tex.ResourceDescriptor(runtime.cudaResourceTypeArray, cuArr=arr)
    td = tex.TextureDescriptor((runtime.cudaAddressModeBorder,) * 2, runtime.cudaFilterModePoint,
                               runtime.cudaReadModeElementType, borderColors=(0.0,))
    t = tex.TextureObject(res, td)
    got = _fetch(t, w, h, 1.5, 0)  # shifted one texel: the last row and column fall outside
    expected = numpy.zeros_like(host)
    expected[:-1, :-1] = host[1:, 1:]
    numpy.testing.assert_array_equal(got, expected)


@gpu
def test_linear_and_pitch2d_resources():
    n = 32
    data = cp.asarray(_float_array((n,)))
    ch = tex.ChannelFormatDescriptor(32, 0, 0, 0, FLOAT)
    res = tex.ResourceDescriptor(runtime.cudaResourceTypeLinear, arr=data, chDesc=ch, sizeInBytes=data.nbytes)
    t = tex.TextureObject(res, tex.TextureDescriptor())
    k = cp.RawKernel(r"""
    extern "C" __global__ void fetch1d(float* out, cudaTextureObject_t t, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = tex1Dfetch<float>(t, i);
    }""", "fetch1d")
    out = cp.zeros(n, dtype=cp.float32)
    k((1,), (n,), (out, t, numpy.int32(n)))
    numpy.testing.assert_array_equal(cp.asnumpy(out), cp.asnumpy(data))

    with pytest.raises(ValueError):  # would read past the array
        tex.ResourceDescriptor(runtime.cudaResourceTypeLinear, arr=data, chDesc=ch, sizeInBytes=data.nbytes + 4)

    align = runtime.deviceGetAttribute(runtime.cudaDevAttrTexturePitchAlignment, cp.cuda.Device().id)
    h, w = 5, 7
    pitch_elems = -(-w * 4 // align) * align // 4
    host = _float_array((h, w))
    padded = cp.zeros((h, pitch_elems), dtype=cp.float32)
    padded[:, :w] = cp.asarray(host)
    res = tex.ResourceDescriptor(runtime.cudaResourceTypePitch2D, arr=padded, chDesc=ch, width=w, height=h,
                                 pitchInBytes=pitch_elems * 4)
    td = tex.TextureDescriptor((runtime.cudaAddressModeClamp,) * 2, runtime.cudaFilterModePoint,
                               runtime.cudaReadModeElementType)
    t2 = tex.TextureObject(res, td)
    numpy.testing.assert_array_equal(_fetch(t2, w, h, 0.5, 0), host)


@gpu
def test_surface_write_kernel():
    h, w = 6, 9
    d = tex.ChannelFormatDescriptor(32, 0, 0, 0, FLOAT)
    arr = tex.CUDAarray(d, w, h, flags=runtime.cudaArraySurfaceLoadStore)
    surf = tex.SurfaceObject(tex.ResourceDescriptor(runtime.cudaResourceTypeArray, cuArr=arr))
    k = cp.RawKernel(r"""
    extern "C" __global__ void write(cudaSurfaceObject_t s, int w, int h) {
        int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
        if (x < w && y < h) surf2Dwrite<float>(float(y * 100 + x), s, x * sizeof(float), y);
    }""", "write")
    k((1, 1), (16, 16), (surf, numpy.int32(w), numpy.int32(h)))
    out = numpy.zeros((h, w), numpy.float32)
    arr.copy_to(out)
    yy, xx = numpy.mgrid[:h, :w]
    numpy.testing.assert_array_equal(out, (yy * 100 + xx).astype(numpy.float32))
