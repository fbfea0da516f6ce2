"""NCCL collectives with CuPy's cupy.cuda.nccl API: NcclCommunicator, groupStart/groupEnd, the op and dtype constants.

libnccl is loaded at run time on first use (the nvidia-nccl-cu13 / nvidia-nccl-cu12 wheel, the system, or
CUARRAY_NCCL_PATH). Buffers are device pointers given as ints, as in CuPy, or cuarray arrays; streams are
stream pointers given as ints (0: the legacy default stream) or cuarray Stream objects.
"""
from cuarray import _core

_n = _core._nccl

# ncclRedOp_t
NCCL_SUM = 0
NCCL_PROD = 1
NCCL_MAX = 2
NCCL_MIN = 3
NCCL_AVG = 4

# ncclDataType_t
NCCL_INT8 = NCCL_CHAR = 0
NCCL_UINT8 = 1
NCCL_INT32 = NCCL_INT = 2
NCCL_UINT32 = 3
NCCL_INT64 = 4
NCCL_UINT64 = 5
NCCL_FLOAT16 = NCCL_HALF = 6
NCCL_FLOAT32 = NCCL_FLOAT = 7
NCCL_FLOAT64 = NCCL_DOUBLE = 8
NCCL_BFLOAT16 = 9

# ncclResult_t
NCCL_SUCCESS = 0

_RESULT_NAMES = {
    0: "ncclSuccess", 1: "ncclUnhandledCudaError", 2: "ncclSystemError", 3: "ncclInternalError",
    4: "ncclInvalidArgument", 5: "ncclInvalidUsage", 6: "ncclRemoteError", 7: "ncclInProgress",
}


class NcclError(RuntimeError):
    """A failed NCCL call; ``status`` holds the ncclResult_t."""

    def __init__(self, status):
        self.status = status
        name = _RESULT_NAMES.get(status, f"NCCL error {status}")
        try:
            text = _n._error_string(status)
        except Exception:  # the message must not fail where the call did
            text = ""
        super().__init__(f"{name}: {text}" if text else name)

    def __reduce__(self):
        return (type(self), (self.status,))


def _load_error():
    return _n._load_error()


available = _load_error() == ""


def _require():
    msg = _load_error()
    if msg:
        raise RuntimeError("NCCL is not available: install the nvidia-nccl-cu13 wheel "
                           "(pip install nvidia-nccl-cu13), or set CUARRAY_NCCL_PATH. " + msg)


def _check(status):
    if status != NCCL_SUCCESS:
        raise NcclError(status)


def _checked(pair):
    status, value = pair
    _check(status)
    return value


def _ptr(buf):
    """A device pointer from an int or from an object with ``.data.ptr`` (cuarray/CuPy array) or ``.ptr``."""
    if isinstance(buf, int):
        return buf
    data = getattr(buf, "data", None)
    if data is not None and hasattr(data, "ptr"):
        return int(data.ptr)
    if hasattr(buf, "ptr"):
        return int(buf.ptr)
    raise TypeError(f"an NCCL buffer must be a device pointer (int) or a cuarray array, not {type(buf).__name__}")


def _stream(stream):
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "ptr"):
        return int(stream.ptr)
    raise TypeError(f"an NCCL stream must be a stream pointer (int) or a cuarray Stream, not {type(stream).__name__}")


def get_version():
    """NCCL's version as ncclGetVersion reports it (e.g. 22703 for 2.27.3)."""
    _require()
    return _checked(_n._get_version())


def get_build_version():
    """The NCCL version cuarray was built against: NCCL is loaded at run time, so the loaded one's."""
    return get_version()


def get_unique_id():
    """A new ncclUniqueId as a tuple of 128 ints, to pass to every rank's NcclCommunicator."""
    _require()
    return tuple(_checked(_n._get_unique_id()))


def groupStart():
    """Start a group: collectives issued until groupEnd() are launched together."""
    _require()
    _check(_n._group_start())


def groupEnd():
    _require()
    _check(_n._group_end())


class NcclCommunicator:
    """One rank of an NCCL communicator, on the device current when it is created."""

    def __init__(self, ndev, commId, rank):
        _require()
        ndev = int(ndev)
        rank = int(rank)
        if ndev < 1:
            raise ValueError(f"ndev must be positive, got {ndev}")
        if not 0 <= rank < ndev:
            raise ValueError(f"rank {rank} is out of range for {ndev} ranks")
        ident = [int(c) for c in commId]
        if len(ident) != 128:
            raise ValueError(f"an NCCL unique id has 128 entries, got {len(ident)}")
        if any(not -128 <= c <= 255 for c in ident):
            raise ValueError("an NCCL unique id holds bytes")
        # NCCL stores chars: accept 0..255 as well as CuPy's signed values.
        ident = [c - 256 if c > 127 else c for c in ident]
        self._comm = 0
        self._comm = _checked(_n._comm_init_rank(ndev, ident, rank))

    @classmethod
    def _from_handle(cls, handle):
        self = cls.__new__(cls)
        self._comm = handle
        return self

    @staticmethod
    def initAll(devices):
        """Communicators for all of ``devices`` (a list of device ids, or a count: devices 0..n-1) in this process."""
        _require()
        if isinstance(devices, int):
            devices = list(range(devices))
        devices = [int(d) for d in devices]
        if not devices:
            raise ValueError("initAll needs at least one device")
        handles = _checked(_n._comm_init_all(devices))
        return [NcclCommunicator._from_handle(h) for h in handles]

    def __del__(self):
        if getattr(self, "_comm", 0):
            try:
                _n._comm_destroy(self._comm)
            except Exception:  # interpreter shutdown: nothing left to report to
                pass
            self._comm = 0

    @property
    def comm(self):
        """The ncclComm_t handle as an int (0 once destroyed)."""
        return self._comm

    def _handle(self):
        if not self._comm:
            raise RuntimeError("this NCCL communicator has been destroyed")
        return self._comm

    def destroy(self):
        if self._comm:
            comm, self._comm = self._comm, 0
            _check(_n._comm_destroy(comm))

    def abort(self):
        if self._comm:
            comm, self._comm = self._comm, 0
            _check(_n._comm_abort(comm))

    def device_id(self):
        return _checked(_n._comm_cu_device(self._handle()))

    def rank_id(self):
        return _checked(_n._comm_user_rank(self._handle()))

    def size(self):
        return _checked(_n._comm_count(self._handle()))

    def check_async_error(self):
        err = _checked(_n._comm_get_async_error(self._handle()))
        _check(err)

    def allReduce(self, sendbuf, recvbuf, count, datatype, op, stream):
        _check(_n._all_reduce(self._handle(), _ptr(sendbuf), _ptr(recvbuf), int(count), int(datatype), int(op),
                              _stream(stream)))

    def reduce(self, sendbuf, recvbuf, count, datatype, op, root, stream):
        _check(_n._reduce(self._handle(), _ptr(sendbuf), _ptr(recvbuf), int(count), int(datatype), int(op),
                          int(root), _stream(stream)))

    def broadcast(self, sendbuf, recvbuf, count, datatype, root, stream):
        _check(_n._broadcast(self._handle(), _ptr(sendbuf), _ptr(recvbuf), int(count), int(datatype), int(root),
                             _stream(stream)))

    def bcast(self, buff, count, datatype, root, stream):
        """In-place broadcast of ``buff`` from ``root``."""
        p = _ptr(buff)
        _check(_n._broadcast(self._handle(), p, p, int(count), int(datatype), int(root), _stream(stream)))

    def allGather(self, sendbuf, recvbuf, count, datatype, stream):
        _check(_n._all_gather(self._handle(), _ptr(sendbuf), _ptr(recvbuf), int(count), int(datatype),
                              _stream(stream)))

    def reduceScatter(self, sendbuf, recvbuf, recvcount, datatype, op, stream):
        _check(_n._reduce_scatter(self._handle(), _ptr(sendbuf), _ptr(recvbuf), int(recvcount), int(datatype),
                                  int(op), _stream(stream)))

    def send(self, sendbuf, count, datatype, peer, stream):
        _check(_n._send(self._handle(), _ptr(sendbuf), int(count), int(datatype), int(peer), _stream(stream)))

    def recv(self, recvbuf, count, datatype, peer, stream):
        _check(_n._recv(self._handle(), _ptr(recvbuf), int(count), int(datatype), int(peer), _stream(stream)))


__all__ = [
    "NcclCommunicator", "NcclError", "available", "get_build_version", "get_unique_id", "get_version", "groupEnd",
    "groupStart",
    "NCCL_SUM", "NCCL_PROD", "NCCL_MAX", "NCCL_MIN", "NCCL_AVG",
    "NCCL_INT8", "NCCL_CHAR", "NCCL_UINT8", "NCCL_INT32", "NCCL_INT", "NCCL_UINT32", "NCCL_INT64", "NCCL_UINT64",
    "NCCL_FLOAT16", "NCCL_HALF", "NCCL_FLOAT32", "NCCL_FLOAT", "NCCL_FLOAT64", "NCCL_DOUBLE", "NCCL_BFLOAT16",
]
