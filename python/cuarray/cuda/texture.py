"""CUDA arrays, texture and surface objects with CuPy's cupy.cuda.texture API (cuarray.cuda.texture).

A TextureObject or SurfaceObject is passed to a RawKernel like any object with a ``ptr``: as the 64-bit
``cudaTextureObject_t`` / ``cudaSurfaceObject_t`` handle the kernel declares.
"""
import numpy

from cuarray import _core
from cuarray.cuda import runtime

_t = _core._texture

_CHANNEL_DTYPES = {
    runtime.cudaChannelFormatKindSigned: (numpy.int8, numpy.int16, numpy.int32),
    runtime.cudaChannelFormatKindUnsigned: (numpy.uint8, numpy.uint16, numpy.uint32),
    runtime.cudaChannelFormatKindFloat: (numpy.float16, numpy.float32),
}


class ChannelFormatDescriptor:
    """The format of one element of a texture (``cudaChannelFormatDesc``): bits of the x, y, z and w channels
    and the kind, one of ``runtime.cudaChannelFormatKind*``."""

    def __init__(self, x, y, z, w, f):
        self._fields = tuple(int(v) for v in (x, y, z, w, f))

    def get_channel_format(self):
        """The fields as a dict with keys 'x', 'y', 'z', 'w', 'f'."""
        return dict(zip(("x", "y", "z", "w", "f"), self._fields))

    def _num_channels(self):
        return sum(1 for bits in self._fields[:4] if bits > 0)

    def __repr__(self):
        x, y, z, w, f = self._fields
        return f"ChannelFormatDescriptor(x={x}, y={y}, z={z}, w={w}, f={f})"


def _is_device_array(a):
    from cuarray import ndarray
    return isinstance(a, ndarray)


class CUDAarray:
    """A CUDA array (``cudaArray_t``) of 1, 2 or 3 dimensions, the memory textures and surfaces read best.

    Allocated by the CUDA runtime, outside cuarray's memory pool (as CuPy's), and freed with the object.
    Data goes in and out with copy_from and copy_to, from and to a cuarray or NumPy array of shape
    ``(nch * width,)``, ``(height, nch * width)`` or ``(depth, height, nch * width)`` (nch: the number of
    channels of ``desc``).
    """

    def __init__(self, desc, width, height=0, depth=0, flags=0):
        if not isinstance(desc, ChannelFormatDescriptor):
            raise TypeError(f"desc must be a ChannelFormatDescriptor, not {type(desc).__name__}")
        width, height, depth, flags = (int(v) for v in (width, height, depth, flags))
        if min(width, height, depth, flags) < 0:
            raise OverflowError("can't convert negative value to size_t")
        if width == 0:
            raise ValueError("To create a CUDA array, width must be nonzero.")
        if height == 0 and depth > 0:
            raise ValueError("To create a 2D CUDA array, height must be nonzero.")
        self.ptr = 0
        self.ptr = _t.malloc3DArray(*desc._fields, width, height, depth, flags)
        self.desc = desc
        self.width = width
        self.height = height
        self.depth = depth
        self.flags = flags
        self.ndim = 3 if depth > 0 else 2 if height > 0 else 1

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                _t.freeArray(ptr)
            except Exception:  # the context may be gone at exit; nothing can be recovered then
                pass

    def _expected_shape(self):
        n = self._num_channels() * self.width
        if self.ndim == 3:
            return (self.depth, self.height, n)
        if self.ndim == 2:
            return (self.height, n)
        return (n,)

    def _num_channels(self):
        return self.desc._num_channels()

    def _check(self, arr):
        if tuple(arr.shape) != self._expected_shape():
            raise ValueError(f"shape mismatch: the CUDA array takes {self._expected_shape()}, got {tuple(arr.shape)}")
        kind = self.desc._fields[4]
        allowed = _CHANNEL_DTYPES.get(kind)
        if allowed is None:
            raise ValueError("dtype not supported")
        if numpy.dtype(arr.dtype) not in [numpy.dtype(t) for t in allowed]:
            raise ValueError(f"dtype mismatch: {numpy.dtype(arr.dtype)} for channel kind {kind}")
        # Each element must be exactly one channel value, or the copy would read past the array.
        if numpy.dtype(arr.dtype).itemsize * 8 != self.desc._fields[0]:
            raise ValueError(f"dtype mismatch: {numpy.dtype(arr.dtype)} for {self.desc._fields[0]}-bit channels")

    def _copy(self, arr, stream, to_array):
        self._check(arr)
        if _is_device_array(arr):
            ptr = arr.data.ptr
            kind = runtime.memcpyDeviceToDevice
        else:
            ptr = arr.ctypes.data
            kind = runtime.memcpyHostToDevice if to_array else runtime.memcpyDeviceToHost
        row_elems = arr.shape[-1]
        rows = arr.shape[-2] if arr.ndim >= 2 else 1
        stream_ptr = _t.current_stream_ptr() if stream is None else int(stream.ptr)
        # The runtime copies nothing along an extent of 0: a 1-D or 2-D array is copied as one of depth 1.
        _t.memcpy3DArray(self.ptr, self.width, max(self.height, 1), max(self.depth, 1), ptr,
                         row_elems * arr.dtype.itemsize, row_elems, rows, to_array, kind, stream_ptr)

    def copy_from(self, in_arr, stream=None):
        """Copy a cuarray or NumPy array into the CUDA array, on ``stream`` (default: the current one)."""
        if _is_device_array(in_arr):
            import cuarray
            if stream is None:
                in_arr = cuarray.ascontiguousarray(in_arr)
            else:
                with stream:
                    in_arr = cuarray.ascontiguousarray(in_arr)
        elif isinstance(in_arr, numpy.ndarray):
            in_arr = numpy.ascontiguousarray(in_arr)
        else:
            raise TypeError(f"in_arr must be a cuarray.ndarray or numpy.ndarray, not {type(in_arr).__name__}")
        self._copy(in_arr, stream, True)

    def copy_to(self, out_arr, stream=None):
        """Copy the CUDA array into a C-contiguous cuarray or NumPy array, on ``stream`` (default: current)."""
        if not (_is_device_array(out_arr) or isinstance(out_arr, numpy.ndarray)):
            raise TypeError(f"out_arr must be a cuarray.ndarray or numpy.ndarray, not {type(out_arr).__name__}")
        if not out_arr.flags.c_contiguous:
            raise ValueError("The output array must be C-contiguous")
        self._copy(out_arr, stream, False)


class ResourceDescriptor:
    """What a texture or surface reads (``cudaResourceDesc``): a CUDAarray (``cudaResourceTypeArray``), or a
    cuarray array as linear memory (``cudaResourceTypeLinear``, with chDesc and sizeInBytes) or as rows of
    ``pitchInBytes`` bytes (``cudaResourceTypePitch2D``, with chDesc, width and height in elements)."""

    def __init__(self, restype, cuArr=None, arr=None, chDesc=None, sizeInBytes=0, width=0, height=0,
                 pitchInBytes=0):
        restype = int(restype)
        if restype == runtime.cudaResourceTypeMipmappedArray:
            raise ValueError("cudaResourceTypeMipmappedArray is not supported (as in CuPy)")
        if restype == runtime.cudaResourceTypeArray:
            if not isinstance(cuArr, CUDAarray):
                raise TypeError("cudaResourceTypeArray needs cuArr, a CUDAarray")
        elif restype in (runtime.cudaResourceTypeLinear, runtime.cudaResourceTypePitch2D):
            if not _is_device_array(arr):
                raise TypeError("linear and pitch2D resources need arr, a cuarray.ndarray")
            if not isinstance(chDesc, ChannelFormatDescriptor):
                raise TypeError("linear and pitch2D resources need chDesc, a ChannelFormatDescriptor")
        else:
            raise ValueError(f"unknown resource type {restype}")
        sizeInBytes, width, height, pitchInBytes = (int(v) for v in (sizeInBytes, width, height, pitchInBytes))
        if min(sizeInBytes, width, height, pitchInBytes) < 0:
            raise OverflowError("can't convert negative value to size_t")
        if arr is not None and _is_device_array(arr):
            # The texture unit reads what the descriptor says; it must stay inside the array's memory.
            if restype == runtime.cudaResourceTypeLinear and sizeInBytes > arr.nbytes:
                raise ValueError(f"sizeInBytes {sizeInBytes} exceeds the array's {arr.nbytes} bytes")
            if restype == runtime.cudaResourceTypePitch2D:
                bits = sum(chDesc._fields[:4])
                if width * bits // 8 > pitchInBytes or (height and pitchInBytes * (height - 1) +
                                                         width * bits // 8 > arr.nbytes):
                    raise ValueError("width, height and pitchInBytes exceed the array's memory")
        self.restype = restype
        self.cuArr = cuArr
        self.arr = arr
        self.chDesc = chDesc
        self.sizeInBytes = sizeInBytes
        self.width = width
        self.height = height
        self.pitchInBytes = pitchInBytes

    def _dev_ptr(self):
        return self.arr.data.ptr if self.arr is not None else 0

    def get_resource_desc(self):
        """The fields as a dict, as CuPy's."""
        d = {"resType": self.restype}
        if self.restype == runtime.cudaResourceTypeArray:
            d["array"] = {"array": self.cuArr.ptr}
        elif self.restype == runtime.cudaResourceTypeLinear:
            d["linear"] = {"devPtr": self._dev_ptr(), "desc": self.chDesc.get_channel_format(),
                           "sizeInBytes": self.sizeInBytes}
        else:
            d["pitch2D"] = {"devPtr": self._dev_ptr(), "desc": self.chDesc.get_channel_format(),
                            "width": self.width, "height": self.height, "pitchInBytes": self.pitchInBytes}
        return d


class TextureDescriptor:
    """How a texture is read (``cudaTextureDesc``): up to 3 address modes (``runtime.cudaAddressMode*``), the
    filter mode (``cudaFilterMode*``), the read mode (``cudaReadMode*``), sRGB, up to 4 border colors,
    normalized coordinates and the maximum anisotropy."""

    def __init__(self, addressModes=None, filterMode=0, readMode=0, sRGB=None, borderColors=None,
                 normalizedCoords=None, maxAnisotropy=None):
        modes = [0, 0, 0]
        if addressModes is not None:
            addressModes = list(addressModes)
            if len(addressModes) > 3:
                raise ValueError("addressModes has at most 3 entries")
            for i, m in enumerate(addressModes):
                modes[i] = int(m)
        colors = [0.0, 0.0, 0.0, 0.0]
        if borderColors is not None:
            borderColors = list(borderColors)
            if len(borderColors) > 4:
                raise ValueError("borderColors has at most 4 entries")
            for i, c in enumerate(borderColors):
                colors[i] = float(c)
        self._address_modes = tuple(modes)
        self._filter_mode = int(filterMode)
        self._read_mode = int(readMode)
        self._srgb = int(sRGB) if sRGB is not None else 0
        self._border_colors = tuple(colors)
        self._normalized = int(normalizedCoords) if normalizedCoords is not None else 0
        self._max_anisotropy = int(maxAnisotropy) if maxAnisotropy is not None else 0

    def get_texture_desc(self):
        """The fields as a dict, as CuPy's."""
        return {"addressMode": self._address_modes, "filterMode": self._filter_mode, "readMode": self._read_mode,
                "sRGB": self._srgb, "borderColor": self._border_colors, "normalizedCoords": self._normalized,
                "maxAnisotropy": self._max_anisotropy}


class TextureObject:
    """A texture object (``cudaTextureObject_t``), passed to a RawKernel as a 64-bit argument. It keeps its
    resource (and so the memory it reads) alive."""

    def __init__(self, resDesc, texDesc):
        if not isinstance(resDesc, ResourceDescriptor):
            raise TypeError(f"resDesc must be a ResourceDescriptor, not {type(resDesc).__name__}")
        if not isinstance(texDesc, TextureDescriptor):
            raise TypeError(f"texDesc must be a TextureDescriptor, not {type(texDesc).__name__}")
        self.ptr = 0
        ch = resDesc.chDesc._fields if resDesc.chDesc is not None else (0, 0, 0, 0, 0)
        arr_ptr = resDesc.cuArr.ptr if resDesc.cuArr is not None else 0
        self.ptr = _t.createTextureObject(
            resDesc.restype, arr_ptr, resDesc._dev_ptr(), list(ch), resDesc.sizeInBytes, resDesc.width,
            resDesc.height, resDesc.pitchInBytes, list(texDesc._address_modes), texDesc._filter_mode,
            texDesc._read_mode, texDesc._srgb, list(texDesc._border_colors), texDesc._normalized,
            texDesc._max_anisotropy)
        self.ResDesc = resDesc
        self.TexDesc = texDesc

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                _t.destroyTextureObject(ptr)
            except Exception:  # the context may be gone at exit
                pass


class SurfaceObject:
    """A surface object (``cudaSurfaceObject_t``) over a CUDAarray made with
    ``runtime.cudaArraySurfaceLoadStore``, passed to a RawKernel as a 64-bit argument."""

    def __init__(self, resDesc):
        if not isinstance(resDesc, ResourceDescriptor):
            raise TypeError(f"resDesc must be a ResourceDescriptor, not {type(resDesc).__name__}")
        if resDesc.restype != runtime.cudaResourceTypeArray:
            raise ValueError("a surface object needs a resource of type cudaResourceTypeArray")
        self.ptr = 0
        self.ptr = _t.createSurfaceObject(resDesc.cuArr.ptr)
        self.ResDesc = resDesc

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                _t.destroySurfaceObject(ptr)
            except Exception:  # the context may be gone at exit
                pass


__all__ = ["CUDAarray", "ChannelFormatDescriptor", "ResourceDescriptor", "SurfaceObject", "TextureDescriptor",
           "TextureObject"]
