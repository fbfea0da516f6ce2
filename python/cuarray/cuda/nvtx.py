"""NVTX markers and ranges for Nsight profiles (cuarray.cuda.nvtx, CuPy's cupy.cuda.nvtx)."""
from cuarray._core._nvtx import (  # noqa: F401
    Mark, MarkC, RangeEnd, RangePop, RangePush, RangePushC, RangeStart, RangeStartC)

#: NVTX is compiled into cuarray (header-only NVTX 3), so it is always there.
available = True
