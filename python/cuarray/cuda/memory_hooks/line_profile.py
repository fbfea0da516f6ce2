"""LineProfileHook: device memory taken from the pool, and got by the pool, per line of Python code."""
import os
import sys
import traceback

from cuarray.cuda import memory_hook


class _Frame:
    """One call site in the tree of stacks: the bytes used from the pool and acquired from the device below it."""

    __slots__ = ("filename", "lineno", "name", "children", "used_bytes", "acquired_bytes")

    def __init__(self, filename=None, lineno=None, name=None):
        self.filename, self.lineno, self.name = filename, lineno, name
        self.children = {}  # (filename, lineno, name) -> _Frame, in first-seen order
        self.used_bytes = 0
        self.acquired_bytes = 0

    def humanized_bytes(self):
        return _humanized(self.used_bytes), _humanized(self.acquired_bytes)


def _humanized(size):
    size = float(size)
    for unit in ("", "K", "M", "G", "T", "P", "E"):
        if size < 1024.0:
            return f"{size:3.2f}{unit}B"
        size /= 1024.0
    return f"{size:.2f}ZB"


class LineProfileHook(memory_hook.MemoryHook):
    """Line-by-line device memory profile of the code run inside ``with hook:``; ``print_report()`` prints
    the tree of call sites as ``{filename}:{lineno}:{function} (used_bytes, acquired_bytes)``, where
    used_bytes were taken from the memory pool and acquired_bytes were got by the pool from the device.
    ``max_depth`` (0: no limit) cuts the stacks it follows."""

    name = "LineProfileHook"

    def __init__(self, max_depth=0):
        self._root = _Frame()
        self._max_depth = max_depth
        self._skip = {os.path.abspath(__file__), os.path.abspath(memory_hook.__file__)}

    def malloc_preprocess(self, device_id, size, mem_size):
        self._add(used_bytes=mem_size)

    def alloc_preprocess(self, device_id, mem_size):
        self._add(acquired_bytes=mem_size)

    def _add(self, used_bytes=0, acquired_bytes=0):
        node = self._root
        node.used_bytes += used_bytes
        node.acquired_bytes += acquired_bytes
        frames = [f for f in traceback.extract_stack() if os.path.abspath(f.filename) not in self._skip]
        for depth, f in enumerate(frames):
            if 0 < self._max_depth <= depth + 1:
                break
            key = (f.filename, f.lineno, f.name)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Frame(*key)
            child.used_bytes += used_bytes
            child.acquired_bytes += acquired_bytes
            node = child

    def print_report(self, file=None):
        """Print the profile to ``file`` (sys.stdout by default)."""
        if file is None:
            file = sys.stdout
        file.write("_root (%s, %s)\n" % self._root.humanized_bytes())
        for child in self._root.children.values():
            self._print_frame(child, 1, file)
        file.flush()

    def _print_frame(self, frame, depth, file):
        used, acquired = frame.humanized_bytes()
        file.write(f"{' ' * (depth * 2)}{frame.filename}:{frame.lineno}:{frame.name} ({used}, {acquired})\n")
        for child in frame.children.values():
            self._print_frame(child, depth + 1, file)
