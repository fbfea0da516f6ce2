"""Cooperative groups in cuarray.jit kernels: this_thread_block() and this_grid() with sync()."""
from cuarray.jit._builtins import this_grid, this_thread_block  # noqa: F401

__all__ = ["this_grid", "this_thread_block"]
