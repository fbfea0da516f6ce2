"""CUDA graphs made by stream capture (CuPy's cupy.cuda.Graph): launch a captured sequence of work at once."""
from cuarray import _core


class Graph:
    """An instantiated CUDA graph. Made by :meth:`Stream.end_capture`, never by users.

    The graph owns the device memory that the captured work allocated (arrays made during the capture
    keep it too), so a replay writes into the same arrays the capture returned: write new values into the
    captured input arrays, launch, and read the outputs.
    """

    __slots__ = ("_handle", "__weakref__")

    def __init__(self, *args, **kwargs):
        raise RuntimeError("cuarray.cuda.Graph is made by Stream.end_capture(), not by users")

    @classmethod
    def _from_handle(cls, handle):
        self = object.__new__(cls)
        self._handle = handle
        return self

    @property
    def graph(self):
        """The cudaGraph_t handle, as an int."""
        return self._handle.graph

    @property
    def graphExec(self):  # noqa: N802 - CuPy's name
        """The cudaGraphExec_t handle, as an int."""
        return self._handle.graph_exec

    @property
    def host_funcargs(self):
        # CuPy keeps the arguments of captured host functions alive here; cuarray captures none.
        return set()

    def launch(self, stream=None):
        """Launch the graph on ``stream`` (the current stream when None)."""
        self._handle.launch(_stream_ptr(stream))

    def upload(self, stream=None):
        """Upload the graph's device resources on ``stream`` (the current stream when None)."""
        self._handle.upload(_stream_ptr(stream))

    def debug_dot_str(self, flags=0):
        """The graph as Graphviz DOT text (flags: ``cuarray.cuda.runtime.cudaGraphDebugDotFlags*``)."""
        return self._handle.debug_dot_str(int(flags))

    def __repr__(self):
        return f"<cuarray.cuda.Graph {self.graphExec:#x}>"


def _stream_ptr(stream):
    if stream is None:
        from cuarray.cuda.stream import get_current_stream
        stream = get_current_stream()
    return stream.ptr
