"""DebugPrintHook: prints one JSON line per pool event."""
import json
import sys

from cuarray.cuda import memory_hook


class DebugPrintHook(memory_hook.MemoryHook):
    """Prints each allocation (alloc, malloc) and free of the memory pool as one JSON line to ``file``
    (sys.stdout by default), flushing after each line when ``flush``."""

    name = "DebugPrintHook"

    def __init__(self, file=None, flush=True):
        self.file = sys.stdout if file is None else file
        self.flush = flush

    def _print(self, msg):
        self.file.write(msg)
        self.file.write("\n")
        if self.flush:
            self.file.flush()

    def alloc_postprocess(self, **kwargs):
        msg = {"hook": "alloc", "device_id": kwargs["device_id"], "mem_size": kwargs["mem_size"],
               "mem_ptr": kwargs["mem_ptr"]}
        self._print(json.dumps(msg, separators=(",", ":")))

    def malloc_postprocess(self, **kwargs):
        msg = {"hook": "malloc", "device_id": kwargs["device_id"], "size": kwargs["size"],
               "mem_size": kwargs["mem_size"], "mem_ptr": kwargs["mem_ptr"], "pmem_id": hex(kwargs["pmem_id"])}
        self._print(json.dumps(msg, separators=(",", ":")))

    def free_postprocess(self, **kwargs):
        msg = {"hook": "free", "device_id": kwargs["device_id"], "mem_size": kwargs["mem_size"],
               "mem_ptr": kwargs["mem_ptr"], "pmem_id": hex(kwargs["pmem_id"])}
        self._print(json.dumps(msg, separators=(",", ":")))
