"""Streams and events (cuarray.cuda.Stream, Event); the current stream is per thread and per device."""
import threading
from typing import ClassVar

from cuarray import _core

_local = threading.local()


def _current_map():
    m = getattr(_local, "current", None)
    if m is None:
        m = _local.current = {}
    return m


class _BaseStream:
    __slots__ = ("_handle", "_ptr", "device_id", "_previous", "is_non_blocking", "priority", "__weakref__")

    @property
    def ptr(self):
        return self._ptr

    def __repr__(self):
        return f"<{type(self).__name__} {self._ptr:#x} (device {self.device_id})>"

    def __eq__(self, other):
        return isinstance(other, _BaseStream) and other._ptr == self._ptr

    def __hash__(self):
        return hash(("cuarray.Stream", self._ptr))

    def synchronize(self):
        _core.stream_synchronize(self._ptr)

    def query(self):
        return _core.stream_query(self._ptr)

    @property
    def done(self):
        return self.query()

    def record(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def wait_event(self, event):
        _core.stream_wait_event(self._ptr, event._handle)

    def begin_capture(self, mode=None):
        """Begin capturing the work enqueued on this stream into a CUDA graph; end with :meth:`end_capture`.

        ``mode`` is a ``cuarray.cuda.runtime.streamCaptureMode*`` value (default: relaxed). While the
        stream captures, cuarray allocates from a pool private to the capture, which the graph keeps;
        operations that need a value on the host (``get()``, ``item()``, ``bool()``, a result whose size
        depends on the data) raise CUDARuntimeError and leave the capture valid. Capture on the legacy
        default stream is not possible: use a ``Stream()`` of your own.
        """
        if self._ptr in (0, 1):
            raise RuntimeError("cannot capture on the default (legacy) stream")
        if mode is None:
            mode = 2  # cudaStreamCaptureModeRelaxed, as CuPy: the pool may grow with cudaMalloc
        _core.stream_begin_capture(self._ptr, int(mode))

    def end_capture(self):
        """End the capture begun by :meth:`begin_capture`; returns the instantiated ``cuarray.cuda.Graph``."""
        from cuarray.cuda.graph import Graph
        return Graph._from_handle(_core.stream_end_capture(self._ptr))

    def is_capturing(self):
        """Whether the stream captures; raises RuntimeError when an error has invalidated its capture."""
        from cuarray.cuda import runtime
        return runtime.streamIsCapturing(self._ptr)

    def use(self):
        """Make this stream the current one of its device in this thread."""
        device = _core.get_device_id()
        _current_map()[device] = self
        _core.set_current_stream_ptr(self._ptr)
        return self

    def __enter__(self):
        stack = getattr(_local, "stack", None)
        if stack is None:
            stack = _local.stack = []
        stack.append(get_current_stream())
        self.use()
        return self

    def __exit__(self, *exc):
        _local.stack.pop().use()


class Stream(_BaseStream):
    """A CUDA stream. ``Stream(null=True)`` is the legacy default stream."""

    __slots__ = ()
    # Set below the class (each is a Stream); declared here for type checkers.
    null: ClassVar["Stream"]
    ptds: ClassVar["Stream"]

    def __init__(self, null=False, non_blocking=False, priority=0, ptds=False):
        self.device_id = _core.get_device_id()
        self._previous = None
        self.is_non_blocking = bool(non_blocking) and not (null or ptds)
        self.priority = int(priority)
        if null:
            self._handle = None
            self._ptr = 0
        elif ptds:
            self._handle = None
            self._ptr = 2
        else:
            self._handle = _core._StreamHandle(non_blocking, priority)
            self._ptr = self._handle.ptr

    def close(self):
        if self._handle is not None:
            self._handle.close()
            self._handle = None


class ExternalStream(_BaseStream):
    """A stream created elsewhere (by its handle); cuarray never destroys it."""

    __slots__ = ()

    def __init__(self, ptr, device_id=-1):
        self._handle = None
        self._ptr = int(ptr)
        self.device_id = _core.get_device_id() if device_id < 0 else device_id
        self._previous = None
        self.is_non_blocking = False
        self.priority = 0


class _StreamClassAttributes(type):
    pass


Stream.null = Stream(null=True)
Stream.ptds = Stream(ptds=True)


_NULL_STREAMS: dict = {}


def _null_stream(device):
    # The legacy default stream of `device`, as CuPy's get_current_stream() gives it: a Stream whose device_id is
    # that device (Stream.null itself for the device it was made on).
    if device == Stream.null.device_id:
        return Stream.null
    s = _NULL_STREAMS.get(device)
    if s is None:
        s = Stream(null=True)
        s.device_id = device
        _NULL_STREAMS[device] = s
    return s


def get_current_stream(device_id=None):
    device = _core.get_device_id() if device_id is None else device_id
    s = _current_map().get(device)
    if s is None:
        return _null_stream(device)
    return s


class Event:
    """A CUDA event: record on a stream, wait for it, time between two."""

    __slots__ = ("_handle",)

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self._handle = _core._EventHandle(block, disable_timing, interprocess)

    @property
    def ptr(self):
        return self._handle.ptr

    def record(self, stream=None):
        if stream is None:
            stream = get_current_stream()
        self._handle.record(stream.ptr)

    def synchronize(self):
        self._handle.synchronize()

    def query(self):
        return self._handle.query()

    @property
    def done(self):
        return self.query()


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events."""
    return _core.elapsed_time(start_event._handle, end_event._handle)
