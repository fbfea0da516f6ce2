"""save/load/savez/savetxt and the printing functions against NumPy (they run through NumPy on the host).

GPU tests round-trip device arrays through files and compare printed text with NumPy's; CPU tests cover what
needs no device: number formatting, print options, NpzFile's mapping surface and allow_pickle refusals.
"""
import io
import pickle

import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu

DTYPES = ["bool", "int8", "uint16", "int32", "int64", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]


def _host_values(dtype, shape=(3, 4), seed=0):
    rng = numpy.random.default_rng(seed)
    v = rng.standard_normal(shape) * 10
    if numpy.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


# -- CPU ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("number,base,padding", [(10, 2, 0), (-255, 16, 3), (0, 36, 0), (123456789, 7, 2)])
def test_base_repr_matches_numpy(number, base, padding):
    assert cp.base_repr(number, base, padding) == numpy.base_repr(number, base, padding)


def test_base_repr_bad_base():
    for base in (1, 37):
        with pytest.raises(ValueError):
            numpy.base_repr(5, base)
        with pytest.raises(ValueError):
            cp.base_repr(5, base)


@pytest.mark.parametrize("num,width", [(5, None), (-5, None), (-5, 8), (0, 4), (255, 8), (2**40, None)])
def test_binary_repr_matches_numpy(num, width):
    assert cp.binary_repr(num, width) == numpy.binary_repr(num, width)


@pytest.mark.parametrize("x", [0.1, 1e-300, -2.5, numpy.float32(1 / 3), numpy.float16(0.1), numpy.inf, numpy.nan])
def test_format_float_matches_numpy(x):
    assert cp.format_float_positional(x) == numpy.format_float_positional(x)
    assert cp.format_float_positional(x, precision=3, trim="-", sign=True) == \
        numpy.format_float_positional(x, precision=3, trim="-", sign=True)
    assert cp.format_float_scientific(x) == numpy.format_float_scientific(x)
    assert cp.format_float_scientific(x, precision=2, exp_digits=3) == \
        numpy.format_float_scientific(x, precision=2, exp_digits=3)


def test_printoptions_are_numpys_and_restored():
    before = numpy.get_printoptions()
    assert cp.get_printoptions() == before
    with cp.printoptions(precision=2, threshold=5) as opts:
        assert opts["precision"] == 2
        assert numpy.get_printoptions()["precision"] == 2
        assert cp.get_printoptions()["threshold"] == 5
    assert numpy.get_printoptions() == before
    try:
        cp.set_printoptions(precision=3)
        assert numpy.get_printoptions()["precision"] == 3
    finally:
        numpy.set_printoptions(**before)
    with pytest.raises((TypeError, ValueError)):
        cp.set_printoptions(precision="x")


def test_printoptions_bad_keyword():
    with pytest.raises(TypeError):
        with cp.printoptions(no_such_option=1):
            pass


def test_load_refuses_pickles_without_allow_pickle(tmp_path):
    path = tmp_path / "obj.npy"
    numpy.save(path, numpy.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError):
        numpy.load(path)
    with pytest.raises(ValueError):
        cp.load(path)
    pickled = tmp_path / "plain.pkl"
    pickled.write_bytes(pickle.dumps({"k": [1, 2]}))
    with pytest.raises((ValueError, pickle.UnpicklingError)):
        cp.load(pickled)
    # A pickled Python object (no array in it) comes back as it is with allow_pickle=True, as in NumPy.
    assert cp.load(pickled, allow_pickle=True) == {"k": [1, 2]}


def test_npzfile_mapping_surface_needs_no_device(tmp_path):
    path = tmp_path / "a.npz"
    numpy.savez(path, x=numpy.arange(3), y=numpy.ones(2))
    with cp.load(path) as f:
        assert isinstance(f, cp._io.NpzFile)
        assert sorted(f.files) == ["x", "y"]
        assert sorted(f.keys()) == ["x", "y"]
        assert "x" in f and "z" not in f
        assert len(f) == 2
        assert sorted(f) == ["x", "y"]
        with pytest.raises(KeyError):
            f["z"]


def test_load_missing_file():
    with pytest.raises(FileNotFoundError):
        cp.load("/nonexistent/dir/file.npy")


def test_save_host_data_needs_no_device(tmp_path):
    # Host data passes straight to NumPy: identical files.
    a = numpy.arange(6.0).reshape(2, 3)
    cp.save(tmp_path / "c.npy", a)
    numpy.save(tmp_path / "n.npy", a)
    assert (tmp_path / "c.npy").read_bytes() == (tmp_path / "n.npy").read_bytes()
    buf = io.StringIO()
    cp.savetxt(buf, a, fmt="%.3f")
    ref = io.StringIO()
    numpy.savetxt(ref, a, fmt="%.3f")
    assert buf.getvalue() == ref.getvalue()


# -- GPU ---------------------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["C", "F", "strided", "negative", "0d", "empty"])
def test_save_load_roundtrip(tmp_path, dtype, layout):
    host = _host_values(dtype, (4, 6))
    if layout == "F":
        host = numpy.asfortranarray(host)
    elif layout == "0d":
        host = host[1, 2].copy().reshape(())
    elif layout == "empty":
        host = host[:0]
    d = cp.asarray(host)
    if layout == "strided":
        d, host = d[::2, 1::2], host[::2, 1::2]
    elif layout == "negative":
        d, host = d[::-1, ::-2], host[::-1, ::-2]
    path = tmp_path / "x.npy"
    cp.save(path, d)
    numpy.testing.assert_array_equal(numpy.load(path), host)
    back = cp.load(path)
    assert isinstance(back, cp.ndarray)
    assert back.dtype == host.dtype and back.shape == host.shape
    numpy.testing.assert_array_equal(back.get(), host)
    # The file holds the bytes NumPy writes for the same data.
    numpy.save(tmp_path / "ref.npy", host)
    assert numpy.load(tmp_path / "ref.npy").tobytes() == numpy.load(path).tobytes()


@gpu
@pytest.mark.parametrize("compressed", [False, True])
def test_savez_load_items_are_device_arrays(tmp_path, compressed):
    a = cp.arange(10, dtype=cp.float32).reshape(2, 5)
    b = cp.asarray([1 + 2j, 3 - 4j])
    path = tmp_path / "z.npz"
    (cp.savez_compressed if compressed else cp.savez)(path, a, named=b, host=numpy.arange(3))
    with cp.load(path) as f:
        assert sorted(f.files) == ["arr_0", "host", "named"]
        x = f["arr_0"]
        assert isinstance(x, cp.ndarray)
        numpy.testing.assert_array_equal(x.get(), a.get())
        numpy.testing.assert_array_equal(f["named"].get(), b.get())
        numpy.testing.assert_array_equal(f["host"].get(), numpy.arange(3))
        items = dict(f.items())
        assert all(isinstance(v, cp.ndarray) for v in items.values())
    ref = numpy.load(path)
    numpy.testing.assert_array_equal(ref["arr_0"], a.get())


@gpu
def test_load_mmap_mode_gives_device_array(tmp_path):
    path = tmp_path / "m.npy"
    numpy.save(path, numpy.arange(12).reshape(3, 4))
    d = cp.load(path, mmap_mode="r")
    assert isinstance(d, cp.ndarray)
    numpy.testing.assert_array_equal(d.get(), numpy.arange(12).reshape(3, 4))


@gpu
def test_load_big_endian_file_gives_native(tmp_path):
    path = tmp_path / "be.npy"
    numpy.save(path, numpy.arange(5, dtype=">i4"))
    d = cp.load(path)
    assert d.dtype == numpy.dtype("int32") and d.dtype.isnative
    numpy.testing.assert_array_equal(d.get(), numpy.arange(5))


@gpu
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
def test_savetxt_loadtxt_roundtrip(tmp_path, dtype):
    host = _host_values(dtype, (3, 4)) if dtype != "int32" else numpy.arange(12, dtype=dtype).reshape(3, 4)
    d = cp.asarray(host)
    path = tmp_path / "t.txt"
    ref = tmp_path / "r.txt"
    fmt = "%d" if dtype == "int32" else "%.18e"
    cp.savetxt(path, d, fmt=fmt, header="h", delimiter=",")
    numpy.savetxt(ref, host, fmt=fmt, header="h", delimiter=",")
    assert path.read_text() == ref.read_text()
    if dtype != "complex64":
        back = cp.loadtxt(path, delimiter=",", dtype=dtype)
        numpy.testing.assert_array_equal(back.get(), host)
    # A transposed (non-contiguous) array writes as its values, as NumPy.
    cp.savetxt(path, d.T, fmt=fmt)
    numpy.savetxt(ref, host.T, fmt=fmt)
    assert path.read_text() == ref.read_text()


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_printing_matches_numpy(dtype):
    host = _host_values(dtype, (3, 4))
    host[0, 0] = 0
    d = cp.asarray(host)
    assert cp.array_repr(d) == numpy.array_repr(host)
    assert cp.array_str(d) == numpy.array_str(host)
    assert cp.array2string(d) == numpy.array2string(host)
    assert cp.array2string(d, precision=2, separator=", ", suppress_small=True) == \
        numpy.array2string(host, precision=2, separator=", ", suppress_small=True)
    assert cp.array_repr(d[:, ::-2], max_line_width=30) == numpy.array_repr(host[:, ::-2], max_line_width=30)
    assert repr(d) == numpy.array_repr(host)
    # A 0-d array on both sides: host[0, 0] is a NumPy scalar, which NumPy 2.5's array_str no longer takes.
    assert cp.array_str(d[0, 0]) == numpy.array_str(host[0, 0, ...])
    assert cp.array_repr(d[0, 0]) == numpy.array_repr(host[0, 0, ...])
    assert cp.array_repr(d[:0]) == numpy.array_repr(host[:0])


@gpu
def test_printoptions_apply_to_device_arrays():
    d = cp.arange(2000, dtype=cp.float64) / 3
    host = d.get()
    with cp.printoptions(threshold=10, edgeitems=2, precision=3):
        assert repr(d) == repr(host)
        assert "..." in repr(d)
    assert repr(d) == repr(host)


@gpu
def test_format_float_of_0d_device_array():
    x = cp.asarray(numpy.float32(0.1))
    assert cp.format_float_positional(x) == numpy.format_float_positional(numpy.float32(0.1))
    assert cp.format_float_scientific(x, precision=3) == numpy.format_float_scientific(numpy.float32(0.1), precision=3)
    assert cp.binary_repr(cp.asarray(-3), width=6) == numpy.binary_repr(-3, width=6)
    assert cp.base_repr(cp.asarray(35), 36) == numpy.base_repr(35, 36)


@gpu
def test_numpy_functions_dispatch_to_cuarray():
    d = cp.arange(4)
    assert numpy.array2string(d) == numpy.array2string(numpy.arange(4))
    assert numpy.array_repr(d) == numpy.array_repr(numpy.arange(4))


def test_show_config(capsys):
    info = cp.show_config(mode="dicts")
    assert info["cuarray"]["version"] == cp.__version__
    assert info["NumPy"]["version"] == numpy.__version__
    assert info["CUDA"]["available"] == cp.is_available()
    assert len(info["devices"]) == (cp.cuda.runtime.getDeviceCount() if cp.is_available() else 0)
    assert cp.show_config() is None
    out = capsys.readouterr().out
    assert "cuarray:" in out and cp.__version__ in out
    with pytest.raises(AttributeError):
        numpy.show_config(mode="bogus")
    with pytest.raises(AttributeError):
        cp.show_config(mode="bogus")
