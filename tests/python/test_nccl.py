"""cuarray.cuda.nccl without a GPU: constants, unique ids, errors and argument checks (the collectives: test_multi_gpu)."""

import pickle

import pytest

import cuarray
from cuarray.cuda import nccl

needs_nccl = pytest.mark.skipif(not nccl.available, reason="NCCL is not installed")


def test_constants_have_nccl_values():
    assert (nccl.NCCL_SUM, nccl.NCCL_PROD, nccl.NCCL_MAX, nccl.NCCL_MIN, nccl.NCCL_AVG) == (0, 1, 2, 3, 4)
    assert [nccl.NCCL_INT8, nccl.NCCL_UINT8, nccl.NCCL_INT32, nccl.NCCL_UINT32, nccl.NCCL_INT64, nccl.NCCL_UINT64,
            nccl.NCCL_FLOAT16, nccl.NCCL_FLOAT32, nccl.NCCL_FLOAT64, nccl.NCCL_BFLOAT16] == list(range(10))
    assert nccl.NCCL_FLOAT == nccl.NCCL_FLOAT32 and nccl.NCCL_DOUBLE == nccl.NCCL_FLOAT64


def test_lazy_attribute_of_cuda():
    assert cuarray.cuda.nccl is nccl
    with pytest.raises(AttributeError):
        cuarray.cuda.no_such_module


@needs_nccl
def test_version_and_unique_id():
    v = nccl.get_version()
    assert v >= 20000  # 2.x encodes major*10000 + minor*100 + patch
    a, b = nccl.get_unique_id(), nccl.get_unique_id()
    assert isinstance(a, tuple) and len(a) == 128
    assert all(isinstance(c, int) and -128 <= c <= 127 for c in a)
    assert a != b
    assert pickle.loads(pickle.dumps(a)) == a


@needs_nccl
def test_nccl_error_text():
    e = nccl.NcclError(4)
    assert isinstance(e, RuntimeError) and e.status == 4
    assert str(e).startswith("ncclInvalidArgument: ")
    e2 = pickle.loads(pickle.dumps(e))
    assert e2.status == 4 and str(e2) == str(e)


@needs_nccl
def test_communicator_argument_checks():
    uid = nccl.get_unique_id()
    with pytest.raises(ValueError):
        nccl.NcclCommunicator(2, uid[:10], 0)
    with pytest.raises(ValueError):
        nccl.NcclCommunicator(2, uid, 2)
    with pytest.raises(ValueError):
        nccl.NcclCommunicator(2, uid, -1)
    with pytest.raises(ValueError):
        nccl.NcclCommunicator(0, uid, 0)
    with pytest.raises(ValueError):
        nccl.NcclCommunicator(1, (1000,) * 128, 0)
    with pytest.raises(ValueError):
        nccl.NcclCommunicator.initAll([])


def test_buffer_and_stream_conversion():
    assert nccl._ptr(1234) == 1234
    assert nccl._stream(None) == 0 and nccl._stream(77) == 77
    with pytest.raises(TypeError):
        nccl._ptr("not a pointer")
    with pytest.raises(TypeError):
        nccl._stream(1.5)


def test_missing_library_message(monkeypatch):
    monkeypatch.setattr(nccl._n, "_load_error", lambda: "libnccl.so.2 was not found")
    with pytest.raises(RuntimeError, match="nvidia-nccl-cu13"):
        nccl.get_unique_id()
    with pytest.raises(RuntimeError, match="nvidia-nccl-cu13"):
        nccl.NcclCommunicator.initAll([0, 1])
