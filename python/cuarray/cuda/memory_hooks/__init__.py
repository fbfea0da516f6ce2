"""Ready-made memory hooks (cuarray.cuda.memory_hooks): a debug printer and a line profiler."""
from cuarray.cuda.memory_hooks.debug_print import DebugPrintHook  # noqa: F401
from cuarray.cuda.memory_hooks.line_profile import LineProfileHook  # noqa: F401
