"""Run-time compilation errors (cuarray.cuda.compiler)."""
from cuarray import _core

CompileException = _core.CompileException
