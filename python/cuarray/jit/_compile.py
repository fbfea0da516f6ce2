"""cuarray.jit's compiler: a Python function's AST, specialised on argument types, to CUDA C++ source."""
import ast
import builtins
import inspect
import math
import textwrap

import numpy

from cuarray.jit import _builtins as B
from cuarray.jit import _types as T
from cuarray.jit._types import Array, Group, Pointer, Scalar

# Note [jit semantics] (choices, following CuPy's JIT where it has one):
# - mode='cuda' (rawkernel's default): Python ints are int32 when they fit (else int64), floats float32, complex
#   complex64, for arguments and literals alike; binary operators promote by the order ?bBhHiIlLqQefdFD (the
#   larger type wins), as CuPy's 'cuda' mode does. mode='numpy' (vectorize): int64/float64/complex128 and
#   NumPy's promotion, literals weak as NEP 50 has them.
# - A variable's type is fixed by its first assignment; later assignments cast with casting='same_kind'
#   (float into an int variable is a TypeError).
# - `/` on integers gives float64; `//` and `%` follow Python (floor, sign of the divisor; x // 0 == 0), as
#   CuPy's floor_divide and remainder do; `**` on integers stays integer.
# - Array indices do not wrap: a negative index reads before the start, as in CuPy (and CUDA C++).
# - jit.grid/gridsize/laneid and threadIdx... are uint32, warpsize int32, len()/.shape/.size int64.

_PY_OPS = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a ** b, ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
    ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b, ast.BitXor: lambda a, b: a ^ b,
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
}
_C_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_C_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.BitOr: "|", ast.BitAnd: "&",
            ast.BitXor: "^"}
_UF_BINOP = {ast.FloorDiv: "floor_divide", ast.Mod: "remainder", ast.Pow: "power", ast.LShift: "left_shift",
             ast.RShift: "right_shift"}

# Math functions: ufunc name -> (number of arguments, result kind): 'f' float (ints become floating point),
# 'fr' real float only, 'b' bool predicate, 's' same type (abs), 'm' same type (min/max).
_MATH = {
    **{n: (1, "f") for n in ("sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
                             "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
                             "arctanh")},
    **{n: (1, "fr") for n in ("cbrt", "floor", "ceil", "trunc", "rint", "fabs", "deg2rad", "rad2deg", "radians",
                              "degrees")},
    **{n: (2, "fr") for n in ("arctan2", "hypot", "copysign", "fmod", "nextafter")},
    "power": (2, "f"), "float_power": (2, "f"),
    **{n: (1, "b") for n in ("isnan", "isinf", "isfinite", "signbit")},
    "absolute": (1, "s"), "negative": (1, "s"), "square": (1, "s"), "sign": (1, "s"),
    **{n: (2, "m") for n in ("maximum", "minimum", "fmax", "fmin")},
}
_MATH_MODULE = {  # Python's math module -> ufunc names
    "sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log", "log2": "log2", "log10": "log10",
    "log1p": "log1p", "sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin", "acos": "arccos",
    "atan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "arcsinh", "acosh": "arccosh",
    "atanh": "arctanh", "cbrt": "cbrt", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "fabs": "fabs",
    "atan2": "arctan2", "hypot": "hypot", "copysign": "copysign", "fmod": "fmod", "pow": "power",
    "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite", "degrees": "degrees", "radians": "radians",
    "nextafter": "nextafter",
}
_UFUNC_ALIASES = {"abs": "absolute", "arcsin": "arcsin", "asin": "arcsin", "acos": "arccos", "atan": "arctan",
                  "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh", "atan2": "arctan2", "pow": "power",
                  "true_divide": "divide"}
_UFUNC_OPS = {"add": ast.Add, "subtract": ast.Sub, "multiply": ast.Mult, "divide": ast.Div,
              "floor_divide": ast.FloorDiv, "remainder": ast.Mod, "mod": ast.Mod, "left_shift": ast.LShift,
              "right_shift": ast.RShift, "bitwise_and": ast.BitAnd, "bitwise_or": ast.BitOr,
              "bitwise_xor": ast.BitXor, "less": ast.Lt, "less_equal": ast.LtE, "greater": ast.Gt,
              "greater_equal": ast.GtE, "equal": ast.Eq, "not_equal": ast.NotEq}

_ATOMIC_TYPES = {
    "add": "iIlLfde", "sub": "iI", "exch": "iIlLf", "min": "iIlL", "max": "iIlL", "inc": "I", "dec": "I",
    "cas": "iIlLH", "and": "iIlL", "or": "iIlL", "xor": "iIlL",
}
_SHFL_TYPES = "iIlLfde"


class Const:
    """A value known when compiling (a literal, a global, a module, a dtype...)."""

    def __init__(self, obj):
        self.obj = obj


class Data:
    """A value of the generated code: a C++ expression and its type."""

    def __init__(self, code, type_):
        self.code = code
        self.type = type_


class TupleV:
    """A tuple, kept element by element while compiling (jit.grid(2), x.shape, (i, j))."""

    def __init__(self, items):
        self.items = list(items)


class Range:
    def __init__(self, start, stop, step, type_, step_sign, unroll):
        self.start, self.stop, self.step, self.type = start, stop, step, type_
        self.step_sign, self.unroll = step_sign, unroll


_SCALAR_TYPES = (bool, int, float, complex, numpy.generic)


def const_type(obj, mode):
    """The scalar type a Python or NumPy scalar takes in generated code (CuPy's rule per mode)."""
    if isinstance(obj, numpy.generic):
        return Scalar(obj.dtype)
    if isinstance(obj, (bool, numpy.bool_)):
        return T.BOOL
    if isinstance(obj, int):
        if mode == "cuda" and -(1 << 31) <= obj < (1 << 31):
            return T.INT32
        if -(1 << 63) <= obj < (1 << 63):
            return T.INT64
        if 0 <= obj < (1 << 64):
            return Scalar("L")
        raise OverflowError(f"Python int {obj} is out of range for uint64")
    if isinstance(obj, float):
        return Scalar("f" if mode == "cuda" else "d")
    if isinstance(obj, complex):
        return Scalar("F" if mode == "cuda" else "D")
    raise TypeError(f"{type(obj).__name__} is not a scalar type")


def _float_lit(v, char):
    v = float(v)
    if math.isnan(v):
        return "__int_as_float(0x7fffffff)" if char == "f" else "__longlong_as_double(0x7ff8000000000000LL)"
    if math.isinf(v):
        if char == "f":
            return "__int_as_float(0x7f800000)" if v > 0 else "__int_as_float(0xff800000)"
        return "__longlong_as_double(0x7ff0000000000000LL)" if v > 0 else "__longlong_as_double(0xfff0000000000000LL)"
    s = repr(v)
    if "e" not in s and "." not in s:
        s += ".0"
    return s + ("f" if char == "f" else "")


def literal(obj, t):
    """C++ source of constant `obj` as type `t`."""
    c = t.dtype.char
    if c == "?":
        return "true" if bool(obj) else "false"
    if t.kind in "iu":
        v = int(obj)
        if c in "lL":
            return f"{v}{'ULL' if c == 'L' else 'LL'}" if v != -(1 << 63) else "(-9223372036854775807LL - 1)"
        if c == "i" and v == -(1 << 31):
            return "(-2147483647 - 1)"
        return f"(({t.ctype}){v}{'U' if t.kind == 'u' else ''})"
    if c == "e":
        return f"ca_half({_float_lit(obj, 'f')})"
    if c in "fd":
        return _float_lit(obj, c)
    z = complex(obj)
    e = "f" if c == "F" else "d"
    return f"{t.ctype}({_float_lit(z.real, e)}, {_float_lit(z.imag, e)})"


def cast(d, t):
    """Data `d` as scalar type `t` (NumPy's cast, through ca_cast)."""
    if d.type == t:
        return d
    return Data(f"ca_cast<{t.ctype}>({d.code})", t)


def truth(d):
    c = d.type.dtype.char
    if c == "?":
        return d.code
    if c == "e":
        return f"((float)({d.code}) != 0.0f)"
    if c in "FD":
        return f"ca_cast<bool>({d.code})"
    return f"(({d.code}) != 0)"


class Env:
    """What one function's compilation knows: names, locals to declare, and the module being built."""

    def __init__(self, module, func, mode, is_kernel):
        self.module = module
        self.func = func
        self.mode = mode
        self.is_kernel = is_kernel
        self.locals = {}
        self.decls = {}  # C name -> type, declared at the top of the function
        self.ret_type = None
        self.counter = 0
        self.globals = dict(func.__globals__)
        if func.__closure__:
            for name, cell in zip(func.__code__.co_freevars, func.__closure__):
                try:
                    self.globals[name] = cell.cell_contents
                except ValueError:
                    pass

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def declare(self, type_, prefix="t_"):
        name = self.fresh(prefix)
        self.decls[name] = type_
        return name

    def lookup(self, name):
        if name in self.locals:
            return self.locals[name]
        if name in self.globals:
            return Const(self.globals[name])
        if hasattr(builtins, name):
            return Const(getattr(builtins, name))
        raise NameError(f"name '{name}' is not defined")


class Module:
    """The CUDA source being generated: device functions in dependency order, file-scope declarations."""

    def __init__(self, mode):
        self.mode = mode
        self.functions = []  # code, callees before callers
        self.device_funcs = {}  # (pyfunc, arg types) -> (C name, return type)
        self.in_progress = set()
        self.uses_grid_sync = False
        self.uses_dynamic_smem = False
        self.counter = 0

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"


def _parse(func):
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError) as e:
        raise ValueError(f"cuarray.jit needs the source of {func!r}: {e}") from None
    source = textwrap.dedent(source)
    if getattr(func, "__name__", "") == "<lambda>":
        return _parse_lambda(func, source)
    tree = ast.parse(source)
    fdefs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if len(fdefs) != 1:
        raise ValueError(f"cuarray.jit: {getattr(func, '__name__', func)!r} is not a plain function definition "
                         f"(lambdas and nested definitions on one line are not supported)")
    try:
        filename = inspect.getsourcefile(func) or "<unknown>"
        _, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        filename, first = "<unknown>", 1
    return fdefs[0], source.splitlines(), filename, first


def _parse_lambda(func, source):
    """A lambda as a function returning its expression. Its source line may hold more than the lambda; the lambdas
    on it are told apart by their parameter names."""
    tree = None
    text = source.strip()
    for cut in range(len(text), 0, -1):  # the line may continue past the lambda: ...(lambda x: x + 1, y)
        try:
            tree = ast.parse(text[:cut].rstrip().rstrip(",").lstrip("(") if cut < len(text) else text)
            break
        except SyntaxError:
            continue
    if tree is None:
        raise ValueError("cuarray.jit cannot read the source of this lambda; define it with def")
    names = list(func.__code__.co_varnames[:func.__code__.co_argcount])
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and [a.arg for a in n.args.args] == names]
    if len(found) != 1:
        raise ValueError("cuarray.jit cannot tell this lambda from the others on its line; define it with def")
    lam = found[0]
    fdef = ast.FunctionDef(name="lambda_", args=lam.args, body=[ast.Return(value=lam.body, lineno=lam.lineno,
                                                                             col_offset=0)],
                           decorator_list=[], returns=None, type_comment=None, lineno=lam.lineno, col_offset=0)
    try:
        filename = inspect.getsourcefile(func) or "<unknown>"
        _, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        filename, first = "<unknown>", 1
    return fdef, source.splitlines(), filename, first


def _locate(exc, node, env, lines, filename, first):
    if getattr(exc, "_cuarray_jit_located", False):  # already names the innermost line
        return exc
    lineno = getattr(node, "lineno", None)
    where = ""
    if lineno is not None:
        text = lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""
        where = f'\n  File "{filename}", line {first + lineno - 1}, in {env.func.__name__}\n    {text}'
    msg = (str(exc.args[0]) if exc.args else type(exc).__name__) + where
    try:
        new = type(exc)(msg)
    except Exception:
        return exc
    new._cuarray_jit_located = True
    return new


def transpile(func, mode, arg_types, module, is_kernel, c_name):
    """Compile `func` for `arg_types` into `module`; returns the return type."""
    fdef, lines, filename, first = _parse(func)
    env = Env(module, func, mode, is_kernel)
    args = fdef.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults:
        raise NotImplementedError(f"cuarray.jit: {func.__name__}: *args, **kwargs, keyword-only arguments and "
                                  f"defaults are not supported")
    names = [a.arg for a in args.args]
    if len(names) != len(arg_types):
        raise TypeError(f"{func.__name__}() takes {len(names)} argument{'s' if len(names) != 1 else ''} "
                        f"but {len(arg_types)} were given")
    params, prologue = [], []
    for name, t in zip(names, arg_types):
        cname = "v_" + name
        if isinstance(t, Array) and is_kernel:
            n = t.ndim
            params.append(f"{t.elem.ctype}* {cname}_p")
            params.append(f"long long {cname}_n")
            params += [f"long long {cname}_s{k}" for k in builtins.range(n)]
            params += [f"long long {cname}_t{k}" for k in builtins.range(n)]
            prologue.append(f"{t.ctype} {cname};")
            prologue.append(f"{cname}.p = {cname}_p; {cname}.size = {cname}_n;")
            if n == 0:
                prologue.append(f"{cname}.shape[0] = 1; {cname}.strides[0] = 0;")
            for k in builtins.range(n):
                prologue.append(f"{cname}.shape[{k}] = {cname}_s{k}; {cname}.strides[{k}] = {cname}_t{k};")
        elif isinstance(t, (Array, Scalar, Pointer)):
            params.append(f"{t.ctype} {cname}")
        else:
            raise TypeError(f"cuarray.jit: argument '{name}' of type {t} cannot be passed to {func.__name__}")
        env.locals[name] = Data(cname, t)
    body = []
    module.in_progress.add(c_name)
    try:
        for stmt in fdef.body:
            body += _stmt_located(stmt, env, True, lines, filename, first)
    finally:
        module.in_progress.discard(c_name)
    ret = env.ret_type or T.VOID
    if is_kernel and ret is not T.VOID:
        raise TypeError(f"cuarray.jit: kernel {func.__name__} must not return a value")
    head = (f'extern "C" __global__ void {c_name}' if is_kernel
            else f"__device__ __forceinline__ {ret.ctype} {c_name}")
    decls = [f"{t.ctype} {n}[{t.size}];" if isinstance(t, _SharedDecl) else f"{t.ctype} {n};"
             for n, t in env.decls.items()]
    out = [f"{head}({', '.join(params)}) {{"]
    out += ["  " + line for line in prologue + decls]
    out += _render(body, 1)
    out.append("}")
    module.functions.append("\n".join(out))
    return ret


def _render(items, depth):
    out = []
    for it in items:
        if isinstance(it, list):
            out += _render(it, depth + 1)
        else:
            out.append("  " * depth + it)
    return out


def _stmt_located(stmt, env, top, lines, filename, first):
    env._src = (lines, filename, first)
    try:
        return _stmt(stmt, env, top)
    except (TypeError, NameError, ValueError, NotImplementedError, IndexError, AttributeError, OverflowError) as e:
        raise _locate(e, stmt, env, lines, filename, first) from None


def _stmts(stmts, env):
    lines, filename, first = env._src
    out = []
    for s in stmts:
        out += _stmt_located(s, env, False, lines, filename, first)
    return out


# ---------------------------------------------------------------------------------------------------------
# statements

def _stmt(s, env, top):
    if isinstance(s, ast.Expr):
        v = _expr(s.value, env)
        if isinstance(v, Data) and v.code and not isinstance(v.type, (Group, T.Dim3)):
            return [v.code + ";"]
        return []
    if isinstance(s, ast.Pass):
        return []
    if isinstance(s, ast.Assign):
        value = _expr(s.value, env)
        out = []
        if len(s.targets) > 1:
            value, out = _materialize(value, env, out)
        for target in s.targets:
            out += _assign(target, value, env, top)
        return out
    if isinstance(s, ast.AnnAssign):
        if s.value is None:
            raise NotImplementedError("annotated declarations without a value are not supported")
        return _assign(s.target, _expr(s.value, env), env, top)
    if isinstance(s, ast.AugAssign):
        target = _expr(s.target, env)
        if not isinstance(target, Data) or not isinstance(target.type, Scalar):
            raise TypeError(f"cannot augment-assign to {ast.unparse(s.target)}")
        value = _expr(s.value, env)
        if isinstance(s.target, ast.Name):
            result = _binop(s.op, target, value, env)
            result = _assign_cast(result, target.type, ast.unparse(s.target))
            return [f"{target.code} = {result.code};"]
        # Evaluate the element's address once (x[f(i)] += v).
        ref = env.fresh("r_")
        tmp = Data(ref, target.type)
        result = _binop(s.op, tmp, value, env)
        result = _assign_cast(result, target.type, ast.unparse(s.target))
        return [f"{{ {target.type.ctype}& {ref} = {target.code}; {ref} = {result.code}; }}"]
    if isinstance(s, ast.If):
        test = _cond(s.test, env)
        body = _stmts(s.body, env)
        out = [f"if ({test}) {{", body]
        if s.orelse:
            out += ["} else {", _stmts(s.orelse, env)]
        out.append("}")
        return out
    if isinstance(s, ast.While):
        if s.orelse:
            raise NotImplementedError("while-else is not supported")
        test = _cond(s.test, env)
        return [f"while ({test}) {{", _stmts(s.body, env), "}"]
    if isinstance(s, ast.For):
        return _for(s, env)
    if isinstance(s, ast.Break):
        return ["break;"]
    if isinstance(s, ast.Continue):
        return ["continue;"]
    if isinstance(s, ast.Return):
        return _return(s, env)
    if isinstance(s, (ast.Import, ast.ImportFrom)):
        raise ValueError("cannot import modules inside a cuarray.jit function")
    if isinstance(s, (ast.Global, ast.Nonlocal)):
        raise ValueError("global/nonlocal are not allowed in a cuarray.jit function")
    if isinstance(s, (ast.Try, ast.Raise, ast.Assert)) or type(s).__name__ == "TryStar":
        raise ValueError(f"{type(s).__name__.lower()} statements are not supported in cuarray.jit functions")
    if isinstance(s, ast.With):
        raise ValueError("with statements are not supported in cuarray.jit functions")
    if isinstance(s, ast.Delete):
        raise NotImplementedError("del is not supported in cuarray.jit functions")
    if isinstance(s, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
        raise NotImplementedError("nested function and class definitions are not supported in cuarray.jit "
                                  "functions (define a device function with @jit.rawkernel(device=True))")
    raise ValueError(f"unsupported statement: {type(s).__name__}")


def _assign_cast(value, t, what):
    if value.type == t:
        return value
    if not numpy.can_cast(value.type.dtype, t.dtype, "same_kind"):
        raise TypeError(f"cannot assign a value of type {value.type.dtype} to '{what}' of type {t.dtype} "
                        f"(casting='same_kind'); cast explicitly, e.g. numpy.{t.dtype.name}(value)")
    return cast(value, t)


def _coerce(v, t, what, env):
    """`v` as the type of the place it is stored to: constants convert as CuPy converts them (no casting check),
    run-time values with casting='same_kind'."""
    if isinstance(v, Const) and isinstance(v.obj, _SCALAR_TYPES):
        if t.kind in "iu" and isinstance(v.obj, (int, numpy.integer)) and not isinstance(v.obj, bool):
            info = numpy.iinfo(t.dtype)
            if not info.min <= int(v.obj) <= info.max:
                raise OverflowError(f"Python integer {v.obj} out of bounds for {t.dtype} ('{what}')")
        if t.kind not in "c" and isinstance(v.obj, complex):
            raise TypeError(f"cannot store a complex constant in '{what}' of type {t.dtype}")
        return Data(literal(v.obj, t), t)
    d = _to_data(v, env)
    if not isinstance(d.type, Scalar):
        raise TypeError(f"cannot store a {d.type} in '{what}' of type {t.dtype}")
    return _assign_cast(d, t, what)


def _to_data(v, env):
    if isinstance(v, Data):
        return v
    if isinstance(v, Const):
        if isinstance(v.obj, _SCALAR_TYPES):
            t = const_type(v.obj, env.mode)
            return Data(literal(v.obj, t), t)
        raise TypeError(f"{v.obj!r} cannot be used as a value in a cuarray.jit function")
    raise TypeError("a tuple cannot be used as a scalar value")


def _materialize(value, env, out):
    """Copies of a tuple's elements into fresh variables (a, b = b, a)."""
    if isinstance(value, TupleV):
        items = []
        for it in value.items:
            if isinstance(it, Const) or (isinstance(it, Data) and not isinstance(it.type, (Scalar, Array))):
                items.append(it)
                continue
            d = _to_data(it, env)
            name = env.declare(d.type)
            out.append(f"{name} = {d.code};")
            items.append(Data(name, d.type))
        return TupleV(items), out
    return value, out


def _assign(target, value, env, top):
    if isinstance(target, ast.Name):
        name = target.id
        cur = env.locals.get(name)
        if isinstance(value, TupleV):
            value, out = _materialize(value, env, [])
            if cur is None:
                env.locals[name] = value
                return out
            if not isinstance(cur, TupleV) or len(cur.items) != len(value.items):
                raise TypeError(f"type mismatch of variable '{name}': a tuple of {len(value.items)} cannot be "
                                f"assigned to it")
            for c, v in zip(cur.items, value.items):
                if not isinstance(c, Data):
                    raise TypeError(f"type mismatch of variable '{name}'")
                v = _coerce(v, c.type, name, env)
                out.append(f"{c.code} = {v.code};")
            return out
        if isinstance(value, Const) and not isinstance(value.obj, _SCALAR_TYPES) and not isinstance(value.obj, str):
            # Non-numeric compile-time values (dtypes, modules, functions) are bound as constants, as CuPy does.
            if cur is not None:
                raise TypeError(f"type mismatch of variable '{name}'")
            env.locals[name] = value
            return []
        if cur is not None and isinstance(cur, Data) and isinstance(cur.type, Scalar):
            return [f"{cur.code} = {_coerce(value, cur.type, name, env).code};"]
        value = _to_data(value, env)
        if isinstance(value.type, (Pointer, Group)) or (isinstance(value.type, Array) and cur is None
                                                          and _is_plain_name(value.code)):
            # Shared memory, groups and arrays are aliased, not copied.
            if cur is not None and not (isinstance(cur, Data) and cur.code == value.code):
                raise TypeError(f"type mismatch of variable '{name}': it cannot be re-assigned")
            env.locals[name] = value
            return []
        if cur is None:
            cname = "v_" + name
            while cname in env.decls:
                cname = env.fresh("v_" + name + "_")
            env.decls[cname] = value.type
            env.locals[name] = Data(cname, value.type)
            return [f"{cname} = {value.code};"]
        if not isinstance(cur, Data):
            raise TypeError(f"type mismatch of variable '{name}'")
        if isinstance(cur.type, Scalar) and isinstance(value.type, Scalar):
            value = _assign_cast(value, cur.type, name)
        elif cur.type != value.type:
            raise TypeError(f"type mismatch of variable '{name}': {cur.type} != {value.type}")
        return [f"{cur.code} = {value.code};"]
    if isinstance(target, ast.Subscript):
        lhs = _expr(target, env)
        if not isinstance(lhs, Data) or not isinstance(lhs.type, Scalar) or not lhs.code:
            raise TypeError(f"cannot assign to {ast.unparse(target)}")
        v = _coerce(value, lhs.type, ast.unparse(target), env)
        return [f"{lhs.code} = {v.code};"]
    if isinstance(target, (ast.Tuple, ast.List)):
        if isinstance(value, Const) and isinstance(value.obj, tuple):
            value = TupleV([Const(o) for o in value.obj])
        if not isinstance(value, TupleV):
            raise TypeError(f"cannot unpack a non-tuple value into {ast.unparse(target)}")
        n = len(target.elts)
        if len(value.items) != n:
            raise ValueError(f"{'too many' if len(value.items) > n else 'not enough'} values to unpack "
                             f"(expected {n}, got {len(value.items)})")
        value, out = _materialize(value, env, [])
        for t, v in zip(target.elts, value.items):
            out += _assign(t, v, env, top)
        return out
    if isinstance(target, ast.Attribute):
        raise TypeError(f"cannot assign to attribute {ast.unparse(target)}")
    raise ValueError(f"unsupported assignment target {type(target).__name__}")


def _is_plain_name(code):
    return code.replace("_", "a").isalnum()


def _cond(node, env):
    v = _expr(node, env)
    if isinstance(v, Const):
        return "true" if v.obj else "false"
    if not isinstance(v, Data) or not isinstance(v.type, Scalar):
        raise TypeError(f"{ast.unparse(node)} cannot be used as a condition")
    return truth(v)


def _for(s, env):
    if s.orelse:
        raise NotImplementedError("for-else is not supported")
    if not isinstance(s.target, ast.Name):
        raise TypeError("the loop variable must be a name (for i in range(...))")
    it = _expr(s.iter, env)
    if not isinstance(it, Range):
        raise NotImplementedError("for loops are supported over range() and jit.range() only")
    name = s.target.id
    cur = env.locals.get(name)
    if cur is None:
        cname = "v_" + name
        while cname in env.decls:
            cname = env.fresh("v_" + name + "_")
        env.decls[cname] = it.type
        var = Data(cname, it.type)
        env.locals[name] = var
    elif isinstance(cur, Data) and isinstance(cur.type, Scalar):
        var = cur
        if cur.type != it.type:
            raise TypeError(f"data type mismatch of variable '{name}': {cur.type} != {it.type}")
    else:
        raise TypeError(f"'{name}' cannot be a loop variable")
    t = it.type.ctype
    i, stop, step = env.fresh("it_"), env.fresh("stop_"), env.fresh("step_")
    if it.step_sign > 0:
        cond = f"{i} < {stop}"
    elif it.step_sign < 0:
        cond = f"{i} > {stop}"
    else:  # a step whose sign is known only at run time
        cond = f"({step} >= 0 ? {i} < {stop} : {i} > {stop})"
    body = _stmts(s.body, env)
    out = []
    if it.unroll is True:
        out.append("#pragma unroll")
    elif it.unroll is not None:
        out.append(f"#pragma unroll {int(it.unroll)}")
    out += [f"for ({t} {i} = {it.start.code}, {stop} = {it.stop.code}, {step} = {it.step.code}; {cond}; "
            f"{i} += {step}) {{", [f"{var.code} = {i};"] + body, "}"]
    return out


def _return(s, env):
    if env.is_kernel:
        if s.value is not None:
            raise TypeError("a kernel cannot return a value")
        return ["return;"]
    if s.value is None:
        t = T.VOID
        code = "return;"
    else:
        v = _to_data(_expr(s.value, env), env)
        if not isinstance(v.type, Scalar):
            raise TypeError(f"a device function can return scalars only, not {v.type}")
        t = v.type
        if env.ret_type is not None and env.ret_type != t:
            if env.ret_type is T.VOID or not numpy.can_cast(t.dtype, env.ret_type.dtype, "same_kind"):
                raise ValueError(f"failed to infer the return type: {env.ret_type} or {t}")
            v = cast(v, env.ret_type)
            t = env.ret_type
        code = f"return {v.code};"
    if env.ret_type is None:
        env.ret_type = t
    elif (env.ret_type is T.VOID) != (t is T.VOID):
        raise ValueError(f"failed to infer the return type: {env.ret_type} or {t}")
    return [code]


# ---------------------------------------------------------------------------------------------------------
# expressions

def _expr(e, env):
    if isinstance(e, ast.Constant):
        if e.value is None or isinstance(e.value, (_SCALAR_TYPES, str)):
            return Const(e.value)
        raise TypeError(f"unsupported constant {e.value!r}")
    if isinstance(e, ast.Name):
        return env.lookup(e.id)
    if isinstance(e, ast.Attribute):
        return _attribute(_expr(e.value, env), e.attr, env)
    if isinstance(e, ast.BinOp):
        return _binop(e.op, _expr(e.left, env), _expr(e.right, env), env)
    if isinstance(e, ast.UnaryOp):
        return _unary(e.op, _expr(e.operand, env), env)
    if isinstance(e, ast.BoolOp):
        vals = [_expr(v, env) for v in e.values]
        if all(isinstance(v, Const) for v in vals):
            r = vals[0].obj
            for v in vals[1:]:
                r = (r and v.obj) if isinstance(e.op, ast.And) else (r or v.obj)
            return Const(r)
        op = " && " if isinstance(e.op, ast.And) else " || "
        parts = []
        for v in vals:
            d = _to_data(v, env)
            if not isinstance(d.type, Scalar):
                raise TypeError("and/or take scalars")
            parts.append(truth(d))
        return Data("(" + op.join(parts) + ")", T.BOOL)
    if isinstance(e, ast.Compare):
        vals = [_expr(e.left, env)] + [_expr(c, env) for c in e.comparators]
        results = []
        for op, a, b in zip(e.ops, vals, vals[1:]):
            if isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
                raise NotImplementedError(f"the '{type(op).__name__}' comparison is not supported")
            results.append(_binop(op, a, b, env))
        if len(results) == 1:
            return results[0]
        if all(isinstance(r, Const) for r in results):
            return Const(all(r.obj for r in results))
        return Data("(" + " && ".join(truth(_to_data(r, env)) for r in results) + ")", T.BOOL)
    if isinstance(e, ast.IfExp):
        test = _expr(e.test, env)
        if isinstance(test, Const):
            return _expr(e.body if test.obj else e.orelse, env)
        a, b = _expr(e.body, env), _expr(e.orelse, env)
        t = _promote(ast.Add, a, b, env, plain=True)
        a, b = cast(_to_data(a, env), t), cast(_to_data(b, env), t)
        td = _to_data(test, env)
        if td.type.kind == "c":
            raise TypeError("a complex value cannot be a condition")
        return Data(f"({truth(td)} ? {a.code} : {b.code})", t)
    if isinstance(e, ast.Call):
        return _call(e, env)
    if isinstance(e, ast.Subscript):
        return _subscript(_expr(e.value, env), _expr(e.slice, env), env)
    if isinstance(e, ast.Tuple):
        items = [_expr(x, env) for x in e.elts]
        if all(isinstance(x, Const) for x in items):
            return Const(tuple(x.obj for x in items))
        return TupleV(items)
    if isinstance(e, ast.Lambda):
        raise NotImplementedError("lambda is not supported in cuarray.jit functions")
    if isinstance(e, ast.Slice):
        raise TypeError("slices are not supported in cuarray.jit functions (index with integers)")
    raise ValueError(f"unsupported expression: {type(e).__name__} ({ast.unparse(e)})")


def _attribute(v, attr, env):
    if isinstance(v, Const):
        o = v.obj
        if isinstance(o, B.Dim3):
            if attr not in ("x", "y", "z"):
                raise AttributeError(f"dim3 has no attribute '{attr}'")
            return Data(f"{o._name}.{attr}", T.UINT32)
        if not hasattr(o, attr):
            raise AttributeError(f"{o!r} has no attribute '{attr}'")
        return Const(getattr(o, attr))
    if isinstance(v, TupleV):
        raise AttributeError(f"tuple has no attribute '{attr}'")
    t = v.type
    if isinstance(t, Array):
        if attr == "shape":
            return TupleV([Data(f"{v.code}.shape[{k}]", T.INT64) for k in builtins.range(t.ndim)])
        if attr == "strides":
            return TupleV([Data(f"{v.code}.strides[{k}]", T.INT64) for k in builtins.range(t.ndim)])
        if attr == "size":
            return Data(f"{v.code}.size", T.INT64)
        if attr == "ndim":
            return Const(t.ndim)
        if attr == "dtype":
            return Const(t.dtype)
    if isinstance(t, Pointer):
        if attr in ("shape", "size") and t.size is not None:
            return Const((t.size,)) if attr == "shape" else Const(t.size)
        if attr == "ndim":
            return Const(1)
        if attr == "dtype":
            return Const(t.dtype)
    if isinstance(t, Scalar):
        if attr in ("real", "imag"):
            if t.kind == "c":
                rt = Scalar("f" if t.dtype.char == "F" else "d")
                return Data(f"({v.code}).{'re' if attr == 'real' else 'im'}", rt)
            return v if attr == "real" else Data(literal(0, t), t)
        if attr == "dtype":
            return Const(t.dtype)
    if isinstance(t, Group):
        return _GroupMethod(v, attr)
    raise AttributeError(f"{t} has no attribute '{attr}'")


class _GroupMethod:
    def __init__(self, group, name):
        self.group, self.name = group, name


def _subscript(arr, idx, env):
    if isinstance(arr, Const):
        if isinstance(idx, Const):
            return Const(arr.obj[idx.obj])
        raise TypeError(f"{type(arr.obj).__name__} cannot be indexed with run-time values")
    if isinstance(arr, TupleV):
        if not isinstance(idx, Const) or not isinstance(idx.obj, int):
            raise TypeError("tuples can be indexed with constant integers only")
        return arr.items[idx.obj]
    t = arr.type
    if isinstance(idx, Const) and isinstance(idx.obj, tuple):
        idx = TupleV([Const(o) for o in idx.obj])
    items = idx.items if isinstance(idx, TupleV) else [idx]
    codes = []
    for it in items:
        if isinstance(it, Const) and it.obj is Ellipsis:
            raise TypeError("Ellipsis indexing is not supported in cuarray.jit functions")
        d = _to_data(it, env)
        if not isinstance(d.type, Scalar) or d.type.kind not in "iub":
            raise TypeError(f"array indices must be integers, not {d.type}")
        codes.append(d.code)
    if isinstance(t, Pointer):
        if len(codes) != 1:
            raise IndexError("shared memory arrays are one-dimensional")
        return Data(f"{arr.code}[{codes[0]}]", t.elem)
    if not isinstance(t, Array):
        raise TypeError(f"a value of type {t} is not subscriptable")
    n = t.ndim
    if len(codes) > n:
        raise IndexError(f"too many indices for a {n}-dimensional array: {len(codes)} were given")
    a = arr.code
    if len(codes) < n:
        off = " + ".join(f"(long long)({c}) * {a}.strides[{k}]" for k, c in enumerate(codes))
        sub = Array(t.dtype, n - len(codes), t.c_contiguous)
        return Data(f"ca_jdrop<{n - len(codes)}>({a}, {off})", sub)
    if n == 0:
        return Data(f"{a}.p[0]", t.elem)
    if t.c_contiguous:
        lin = f"(long long)({codes[0]})"
        for k in builtins.range(1, n):
            lin = f"({lin}) * {a}.shape[{k}] + (long long)({codes[k]})"
        return Data(f"{a}.p[{lin}]", t.elem)
    off = " + ".join(f"(long long)({c}) * {a}.strides[{k}]" for k, c in enumerate(codes))
    return Data(f"(*({t.elem.ctype}*)((char*)({a}.p) + {off}))", t.elem)


def _scalar_dtypes(vals, env):
    out = []
    for v in vals:
        if isinstance(v, Const):
            if not isinstance(v.obj, _SCALAR_TYPES):
                raise TypeError(f"{v.obj!r} is not a number")
            out.append(v.obj)
        elif isinstance(v, Data) and isinstance(v.type, Scalar):
            out.append(v.type.dtype)
        else:
            raise TypeError(f"operands must be scalars, not {getattr(v, 'type', 'a tuple')}")
    return out


def _promote(op, a, b, env, plain=False):
    """The type both operands are converted to."""
    items = _scalar_dtypes([a, b], env)
    if env.mode == "numpy":
        weak = [x for x in items if not isinstance(x, (numpy.dtype, numpy.generic))]
        strong = [x for x in items if isinstance(x, (numpy.dtype, numpy.generic))]
        if strong:
            r = numpy.result_type(*strong, *weak)
        else:
            r = numpy.result_type(*[const_type(x, "numpy").dtype for x in weak])
        return Scalar(r)
    ds = [const_type(x, "cuda").dtype if not isinstance(x, numpy.dtype) else x for x in items]
    return Scalar(max(ds, key=lambda d: T.TYPE_ORDER.index(d.char)))


def _binop(op, a, b, env):
    if isinstance(a, Const) and isinstance(b, Const):
        if isinstance(a.obj, _SCALAR_TYPES) and isinstance(b.obj, _SCALAR_TYPES):
            try:
                return Const(_PY_OPS[type(op)](a.obj, b.obj))
            except ZeroDivisionError:
                pass  # computed on the device instead (x // 0 is 0 there)
        elif type(op) in _PY_OPS:
            return Const(_PY_OPS[type(op)](a.obj, b.obj))
    t = _promote(op, a, b, env)
    c = t.dtype.char
    k = t.kind
    if isinstance(op, ast.Div) and k in "biu":
        t, c, k = T.FLOAT64, "d", "f"
    if isinstance(op, (ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift, ast.RShift)) and k == "b":
        t, c, k = Scalar("b"), "b", "i"
    if isinstance(op, (ast.BitOr, ast.BitAnd, ast.BitXor, ast.LShift, ast.RShift)) and k in "fc":
        raise TypeError(f"the '{_opname(op)}' operator is not supported for type {t.dtype}")
    if isinstance(op, (ast.FloorDiv, ast.Mod)) and k == "c":
        raise TypeError(f"the '{_opname(op)}' operator is not supported for complex values")
    if isinstance(op, ast.Sub) and k == "b":
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead")
    if isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) and k == "c":
        raise TypeError("complex values cannot be ordered")
    if isinstance(op, ast.MatMult):
        raise TypeError("the @ operator is not supported on scalars")
    x, y = cast(_to_data(a, env), t), cast(_to_data(b, env), t)
    if c == "e":  # float16 computes in float32 and rounds once
        xf, yf = f"(float)({x.code})", f"(float)({y.code})"
        if type(op) in _C_CMP:
            return Data(f"({xf} {_C_CMP[type(op)]} {yf})", T.BOOL)
        if type(op) in _C_ARITH:
            return Data(f"ca_half({xf} {_C_ARITH[type(op)]} {yf})", t)
        return Data(f"ca_half(ca_uf_{_UF_BINOP[type(op)]}<float>({xf}, {yf}))", t)
    if type(op) in _C_CMP:
        return Data(f"({x.code} {_C_CMP[type(op)]} {y.code})", T.BOOL)
    if type(op) in _UF_BINOP:
        return Data(f"ca_uf_{_UF_BINOP[type(op)]}<{t.ctype}>({x.code}, {y.code})", t)
    if k == "b":
        sym = {ast.Add: "||", ast.Mult: "&&", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^"}[type(op)]
        return Data(f"(bool)({x.code} {sym} {y.code})", t)
    sym = _C_ARITH[type(op)]
    if k in "iu":
        return Data(f"({t.ctype})({x.code} {sym} {y.code})", t)
    return Data(f"({x.code} {sym} {y.code})", t)


def _opname(op):
    return {ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
            ast.FloorDiv: "//", ast.Mod: "%"}.get(type(op), type(op).__name__)


def _unary(op, v, env):
    if isinstance(v, Const) and isinstance(v.obj, _SCALAR_TYPES):
        fn = {ast.USub: lambda x: -x, ast.UAdd: lambda x: +x, ast.Not: lambda x: not x,
              ast.Invert: lambda x: ~x}[type(op)]
        return Const(fn(v.obj))
    d = _to_data(v, env)
    if not isinstance(d.type, Scalar):
        raise TypeError(f"bad operand type for unary operator: {d.type}")
    t, k = d.type, d.type.kind
    if isinstance(op, ast.Not):
        return Data(f"(!{truth(d)})", T.BOOL)
    if isinstance(op, ast.UAdd):
        return d
    if isinstance(op, ast.USub):
        if k == "b":
            raise TypeError("the numpy boolean negative, the `-` operator, is not supported, use the `~` operator "
                            "or the logical_not function instead")
        if t.dtype.char == "e":
            return Data(f"ca_half(-(float)({d.code}))", t)
        if k in "iu":
            return Data(f"ca_uf_negative<{t.ctype}>({d.code})", t)
        return Data(f"(-{d.code})", t)
    if isinstance(op, ast.Invert):
        if k == "b":
            return Data(f"(!{d.code})", t)
        if k in "iu":
            return Data(f"({t.ctype})(~{d.code})", t)
        raise TypeError(f"the '~' operator is not supported for type {t.dtype}")
    raise ValueError(f"unsupported unary operator {type(op).__name__}")


# ---------------------------------------------------------------------------------------------------------
# calls

def _float_for(t, rule):
    """The floating type a math function of an integer or bool computes in ('math': float64 as Python's math
    module; 'ufunc': NumPy's smallest safe float)."""
    if t.kind in "fc":
        return t
    if rule == "math":
        return T.FLOAT64
    if t.dtype.itemsize == 1:
        return Scalar("e")
    if t.dtype.itemsize == 2:
        return Scalar("f")
    return T.FLOAT64


def _math(name, args, env, rule):
    nargs, kind = _MATH[name]
    if len(args) != nargs:
        raise TypeError(f"{name}() takes {nargs} argument{'s' if nargs > 1 else ''} ({len(args)} given)")
    ds = [_to_data(a, env) if not isinstance(a, Const) else a for a in args]
    if nargs == 2:
        t = _promote(ast.Add, ds[0], ds[1], env)
    else:
        t = _to_data(ds[0], env).type
        if not isinstance(t, Scalar):
            raise TypeError(f"{name}() takes scalars, not {t}")
    if kind in ("f", "fr", "b"):
        t = _float_for(t, rule) if (kind != "b" or t.kind in "fc") else t
    if kind == "fr" and t.kind == "c":
        raise TypeError(f"{name}() is not supported for complex values")
    if kind == "b" and t.kind not in "fc":  # integers are never nan or inf
        value = {"isnan": False, "isinf": False, "isfinite": True, "signbit": None}[name]
        if value is None:
            x = cast(_to_data(ds[0], env), t)
            return Data(f"({x.code} < 0)", T.BOOL) if t.kind == "i" else Data("false", T.BOOL)
        return Data("true" if value else "false", T.BOOL)
    if name == "sign" and t.kind == "b":
        raise TypeError("sign() is not supported for bool")
    if name == "negative":
        return _unary(ast.USub(), ds[0], env)
    xs = [cast(_to_data(d, env), t) for d in ds]
    if t.dtype.char == "e" and name not in ("nextafter",):
        inner = ", ".join(f"(float)({x.code})" for x in xs)
        call = f"ca_uf_{name}<float>({inner})"
        if kind == "b":
            return Data(call, T.BOOL)
        return Data(f"ca_half({call})", t)
    call = f"ca_uf_{name}<{t.ctype}>({', '.join(x.code for x in xs)})"
    if kind == "b":
        return Data(call, T.BOOL)
    if name == "absolute" and t.kind == "c":
        return Data(call, Scalar("f" if t.dtype.char == "F" else "d"))
    return Data(call, t)


def _ufunc_name(fn):
    if isinstance(fn, numpy.ufunc):
        return fn.__name__
    tn = type(fn).__name__
    mod = type(fn).__module__ or ""
    if tn == "ufunc" and mod.startswith("cuarray"):
        return fn.__name__
    return None


def _call(e, env):
    fv = _expr(e.func, env)
    args = []
    for a in e.args:
        if isinstance(a, ast.Starred):
            raise NotImplementedError("*args in calls is not supported in cuarray.jit functions")
        args.append(_expr(a, env))
    kwargs = {}
    for kw in e.keywords:
        if kw.arg is None:
            raise NotImplementedError("**kwargs in calls is not supported in cuarray.jit functions")
        kwargs[kw.arg] = _expr(kw.value, env)
    if isinstance(fv, _GroupMethod):
        return _group_method(fv, args, kwargs, env)
    if not isinstance(fv, Const):
        raise TypeError(f"'{ast.unparse(e.func)}' is not callable")
    f = fv.obj
    if isinstance(f, B.BuiltinFunc):
        return _builtin(f, args, kwargs, env)
    from cuarray.jit._interface import _JitRawKernel
    if isinstance(f, _JitRawKernel):
        return _device_call(f, args, kwargs, env)
    if f is builtins.range:
        return _range(args, kwargs, env)
    if f is builtins.len:
        if len(args) != 1 or kwargs:
            raise TypeError(f"len() takes exactly one argument ({len(args)} given)")
        a = args[0]
        if isinstance(a, TupleV):
            return Const(len(a.items))
        if isinstance(a, Const):
            return Const(len(a.obj))
        if isinstance(a.type, Array):
            if a.type.ndim == 0:
                raise TypeError("len() of unsized object")
            return Data(f"{a.code}.shape[0]", T.INT64)
        if isinstance(a.type, Pointer) and a.type.size is not None:
            return Const(a.type.size)
        raise TypeError(f"object of type {a.type} has no len()")
    if f in (builtins.min, builtins.max):
        if kwargs or len(args) < 2:
            raise TypeError(f"{f.__name__}() takes at least 2 scalar arguments in cuarray.jit functions")
        r = args[0]
        for a in args[1:]:
            r = _math("minimum" if f is builtins.min else "maximum", [r, a], env, "ufunc")
        return r
    if f is builtins.abs:
        if len(args) != 1 or kwargs:
            raise TypeError("abs() takes exactly one argument")
        if isinstance(args[0], Const):
            return Const(abs(args[0].obj))
        return _math("absolute", args, env, "ufunc")
    if f is builtins.print:
        raise TypeError("print() is not supported in cuarray.jit functions")
    if f in (bool, int, float, complex) or (isinstance(f, type) and issubclass(f, numpy.generic)):
        if kwargs or len(args) != 1:
            raise TypeError(f"{getattr(f, '__name__', f)}() takes exactly one argument in cuarray.jit functions")
        t = Scalar(numpy.dtype(f))
        a = args[0]
        if isinstance(a, Const) and isinstance(a.obj, _SCALAR_TYPES):
            return Const(numpy.dtype(f).type(a.obj)) if f not in (bool, int, float, complex) else Const(f(a.obj))
        d = _to_data(a, env)
        if not isinstance(d.type, Scalar):
            raise TypeError(f"cannot cast {d.type} to {t.dtype}")
        return cast(d, t)
    if getattr(f, "__module__", None) == "math" or f in (getattr(math, n, None) for n in _MATH_MODULE):
        name = _MATH_MODULE.get(getattr(f, "__name__", ""))
        if name is None:
            raise TypeError(f"math.{getattr(f, '__name__', f)} is not supported in cuarray.jit functions")
        return _math(name, args, env, "math")
    if getattr(f, "__module__", None) == "cmath":
        raise TypeError(f"cmath.{f.__name__} is not supported in cuarray.jit functions; use cuarray.{f.__name__}")
    uname = _ufunc_name(f)
    if uname is not None:
        uname = _UFUNC_ALIASES.get(uname, uname)
        dtype = kwargs.pop("dtype", None)
        if kwargs:
            raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword to ufunc {uname} in cuarray.jit")
        if uname in _UFUNC_OPS:
            if len(args) != 2:
                raise TypeError(f"{uname}() takes 2 arguments ({len(args)} given)")
            r = _binop(_UFUNC_OPS[uname](), args[0], args[1], env)
        elif uname in ("logical_and", "logical_or", "logical_xor", "logical_not", "invert", "bitwise_not",
                       "positive"):
            r = _logical(uname, args, env)
        elif uname in _MATH:
            r = _math(uname, args, env, "ufunc")
        else:
            raise TypeError(f"ufunc {uname} is not supported in cuarray.jit functions")
        if dtype is not None:
            r = cast(_to_data(r, env), Scalar(dtype.obj))
        return r
    if all(isinstance(a, Const) for a in args) and all(isinstance(v, Const) for v in kwargs.values()) \
            and callable(f):
        # A call on compile-time values runs in Python while compiling (numpy.dtype('f'), a helper on ints).
        return Const(f(*[a.obj for a in args], **{k: v.obj for k, v in kwargs.items()}))
    raise TypeError(f"calling {getattr(f, '__name__', f)!r} is not supported in cuarray.jit functions (device "
                    f"functions need @jit.rawkernel(device=True))")


def _logical(name, args, env):
    ds = [_to_data(a, env) for a in args]
    if name in ("logical_and", "logical_or", "logical_xor"):
        if len(ds) != 2:
            raise TypeError(f"{name}() takes 2 arguments")
        op = {"logical_and": "&&", "logical_or": "||", "logical_xor": "!="}[name]
        return Data(f"({truth(ds[0])} {op} {truth(ds[1])})", T.BOOL)
    if len(ds) != 1:
        raise TypeError(f"{name}() takes 1 argument")
    if name == "logical_not":
        return Data(f"(!{truth(ds[0])})", T.BOOL)
    if name == "positive":
        return ds[0]
    return _unary(ast.Invert(), ds[0], env)


def _range(args, kwargs, env, unroll=None):
    if kwargs:
        raise TypeError(f"range() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not 1 <= len(args) <= 3:
        raise TypeError(f"range expected 1 to 3 arguments, got {len(args)}")
    if len(args) == 1:
        start, stop, step = Const(0), args[0], Const(1)
    elif len(args) == 2:
        start, stop, step = args[0], args[1], Const(1)
    else:
        start, stop, step = args
    if isinstance(step, Const):
        if step.obj == 0:
            raise ValueError("range() arg 3 must not be zero")
        sign = 1 if step.obj > 0 else -1
    else:
        sign = 1 if (isinstance(step, Data) and isinstance(step.type, Scalar) and step.type.kind == "u") else 0
    ds = [_to_data(x, env) for x in (start, stop, step)]
    for d in ds:
        if not isinstance(d.type, Scalar) or d.type.kind not in "iu":
            raise TypeError(f"range() takes integers, not {d.type}")
    t = T.INT64 if env.mode == "numpy" else ds[1].type
    if sign == 0 and t.kind == "u":
        t = Scalar({1: "b", 2: "h", 4: "i", 8: "l"}[t.dtype.itemsize])  # a signed step needs a signed counter
    start, stop, step = (cast(d, t) for d in ds)
    return Range(start, stop, step, t, sign, unroll)


def _device_call(f, args, kwargs, env):
    if kwargs:
        raise TypeError("keyword arguments are not supported in calls of device functions")
    if not f._device:
        raise TypeError(f"calling the __global__ function {f.__name__} from a kernel is not allowed (decorate it "
                        f"with @jit.rawkernel(device=True))")
    ds = [_to_data(a, env) for a in args]
    types = tuple(d.type for d in ds)
    m = env.module
    key = (f._func, env.mode, types)
    if key not in m.device_funcs:
        name = m.fresh(f"ca_jit_dev_{_cname(f._func)}_")
        if any(k[0] is f._func and v is None for k, v in m.device_funcs.items()):
            raise ValueError(f"recursive device function {f.__name__} is not supported")
        m.device_funcs[key] = None
        ret = transpile(f._func, env.mode, list(types), m, False, name)
        m.device_funcs[key] = (name, ret)
    entry = m.device_funcs[key]
    if entry is None:
        raise ValueError(f"recursive device function {f.__name__} is not supported")
    name, ret = entry
    arg_codes = [d.code for d in ds]
    return Data(f"{name}({', '.join(arg_codes)})", ret)


def _cname(func):
    import re
    return re.sub(r"\W", "_", getattr(func, "__name__", "f"))


def _const_arg(v, what):
    if not isinstance(v, Const):
        raise TypeError(f"{what} must be a compile-time constant")
    return v.obj


def _builtin(f, args, kwargs, env):
    name = f.__name__
    if name in ("grid", "gridsize"):
        if kwargs or len(args) != 1:
            raise TypeError(f"{name}() takes exactly one argument (ndim)")
        n = _const_arg(args[0], "ndim")
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError("ndim must be an integer")
        if n not in (1, 2, 3):
            raise ValueError("only ndim=1, 2 or 3 are supported")
        fmt = "(threadIdx.{0} + blockIdx.{0} * blockDim.{0})" if name == "grid" else "(blockDim.{0} * gridDim.{0})"
        items = [Data(fmt.format(ax), T.UINT32) for ax in "xyz"[:n]]
        return items[0] if n == 1 else TupleV(items)
    if name == "laneid":
        return Data("ca_jit_laneid()", T.UINT32)
    if name == "range":
        unroll = kwargs.pop("unroll", None)
        if unroll is not None:
            unroll = _const_arg(unroll, "unroll")
            if not isinstance(unroll, (bool, int)):
                raise TypeError(f"unroll value expected to be of type int, got {type(unroll).__name__}")
            if unroll is False:
                unroll = 1
        return _range(args, kwargs, env, unroll)
    if name == "syncthreads":
        if args or kwargs:
            raise TypeError("syncthreads() takes no arguments")
        return Data("__syncthreads()", T.VOID)
    if name == "syncwarp":
        if args:
            raise TypeError("syncwarp() takes only the keyword argument mask")
        mask = kwargs.pop("mask", Const(0xFFFFFFFF))
        if kwargs:
            raise TypeError(f"syncwarp() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if isinstance(mask, Const) and not 0 <= mask.obj <= 0xFFFFFFFF:
            raise ValueError("mask is out of range")
        m = cast(_to_data(mask, env), T.UINT32) if not isinstance(mask, Const) else \
            Data(f"{int(mask.obj)}u", T.UINT32)
        return Data(f"__syncwarp({m.code})", T.VOID)
    if name == "shared_memory":
        return _shared_memory(args, kwargs, env)
    if name.startswith("shfl_"):
        return _shuffle(name, args, kwargs, env)
    if name.startswith("atomic_"):
        return _atomic(name[7:], args, kwargs, env)
    if name == "this_thread_block":
        if args or kwargs:
            raise TypeError("this_thread_block() takes no arguments")
        return Data("", Group("block"))
    if name == "this_grid":
        if args or kwargs:
            raise TypeError("this_grid() takes no arguments")
        return Data("", Group("grid"))
    raise TypeError(f"jit.{name} cannot be called here")


def _shared_memory(args, kwargs, env):
    params = ["dtype", "size", "alignment"]
    vals = dict(zip(params, args))
    for k, v in kwargs.items():
        if k not in params or k in vals:
            raise TypeError(f"shared_memory() got an unexpected keyword argument '{k}'")
        vals[k] = v
    if "dtype" not in vals or "size" not in vals:
        raise TypeError("shared_memory() takes dtype and size")
    dt = T.norm_dtype(_const_arg(vals["dtype"], "the dtype of shared_memory()"))
    size = _const_arg(vals["size"], "the size of shared_memory()")
    align = _const_arg(vals.get("alignment", Const(None)), "alignment")
    t = Pointer(dt, size)
    ctype = t.elem.ctype
    if align is not None and (not isinstance(align, int) or align <= 0 or align & (align - 1)):
        raise ValueError("alignment must be a power of 2")
    al = f" __align__({align})" if align else ""
    if size is None:
        env.module.uses_dynamic_smem = True
        return Data(f"(({ctype}*)ca_jit_dyn_smem)", t)
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        raise ValueError(f"the size of shared_memory() must be a positive int or None, got {size!r}")
    name = env.fresh("smem_")
    env.decls[name] = _SharedDecl(ctype, size, al)
    return Data(name, t)


class _SharedDecl:
    def __init__(self, ctype, size, align):
        self.ctype = f"__shared__{align} {ctype}"
        self.size = size

    def __str__(self):
        return self.ctype


def _shuffle(name, args, kwargs, env):
    width = kwargs.pop("width", Const(32))
    if kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if len(args) != 3:
        raise TypeError(f"{name}(mask, var, val_id, *, width=32) takes 3 positional arguments")
    mask, var, lane = args
    v = _to_data(var, env)
    if not isinstance(v.type, Scalar) or v.type.dtype.char not in _SHFL_TYPES:
        raise TypeError(f"`{name}` does not support {v.type} input")
    if isinstance(mask, Const) and not 0 <= mask.obj <= 0xFFFFFFFF:
        raise ValueError("mask is out of range")
    m = cast(_to_data(mask, env), T.UINT32) if not isinstance(mask, Const) else Data(f"{int(mask.obj)}u", T.UINT32)
    if isinstance(width, Const) and width.obj not in (1, 2, 4, 8, 16, 32):
        raise ValueError("width needs to be a power of 2 up to 32")
    w = cast(_to_data(width, env), T.INT32)
    lt = T.UINT32 if name in ("shfl_up_sync", "shfl_down_sync") else T.INT32
    ld = cast(_to_data(lane, env), lt)
    fn = "__" + name
    if v.type.dtype.char == "e":
        return Data(f"ca_half::from_bits((unsigned short){fn}({m.code}, (unsigned int)({v.code}).x, {ld.code}, "
                    f"{w.code}))", v.type)
    return Data(f"{fn}({m.code}, {v.code}, {ld.code}, {w.code})", v.type)


def _atomic(op, args, kwargs, env):
    n = 4 if op == "cas" else 3
    if kwargs:
        raise TypeError(f"atomic_{op}() takes no keyword arguments")
    if len(args) != n:
        raise TypeError(f"atomic_{op}() takes {n} arguments ({len(args)} given)")
    arr = args[0]
    if not isinstance(arr, Data) or not isinstance(arr.type, (Array, Pointer)):
        raise TypeError("the first argument must be of array type")
    target = _subscript(arr, args[1], env)
    if not isinstance(target.type, Scalar):
        raise TypeError(f"atomic_{op}() needs an index of one element of the array")
    t = target.type
    if t.dtype.char not in _ATOMIC_TYPES[op]:
        raise TypeError(f"`atomic_{op}` does not support {t.dtype} input")
    vals = [_coerce(v, t, f"atomic_{op} value", env) for v in args[2:]]
    addr = f"&({target.code})"
    c = t.dtype.char
    if c == "e":
        return Data(f"ca_jit_atomic_add_half({addr}, {vals[0].code})", t)
    fn = {"cas": "CAS"}.get(op, op.capitalize())
    if c == "l":  # CUDA's 64-bit atomics take unsigned long long (the bits of add/exch/cas/and... are the same)
        if op in ("min", "max"):
            return Data(f"atomic{fn}({addr}, {vals[0].code})", t)
        uv = ", ".join(f"(unsigned long long)({v.code})" for v in vals)
        return Data(f"(long long)atomic{fn}((unsigned long long*){addr}, {uv})", t)
    if c == "H":
        return Data(f"atomicCAS({addr}, {vals[0].code}, {vals[1].code})", t)
    return Data(f"atomic{fn}({addr}, {', '.join(v.code for v in vals)})", t)


def _group_method(m, args, kwargs, env):
    g = m.group.type.kind
    name = m.name
    if kwargs or args:
        raise TypeError(f"{g}_group.{name}() takes no arguments")
    if g == "block":
        table = {
            "sync": ("__syncthreads()", T.VOID),
            "thread_rank": ("(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))", T.UINT32),
            "size": ("(blockDim.x * blockDim.y * blockDim.z)", T.UINT32),
            "num_threads": ("(blockDim.x * blockDim.y * blockDim.z)", T.UINT32),
        }
    else:
        table = {
            "sync": ("ca_jit_grid_sync()", T.VOID),
            "thread_rank": ("ca_jit_grid_thread_rank()", T.INT64),
            "size": ("((long long)blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z)",
                     T.INT64),
            "num_threads": ("((long long)blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z)",
                            T.INT64),
            "block_rank": ("(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z))", T.UINT32),
            "num_blocks": ("(gridDim.x * gridDim.y * gridDim.z)", T.UINT32),
            "is_valid": ("true", T.BOOL),
        }
    if name not in table:
        raise AttributeError(f"{g}_group has no method '{name}'")
    if g == "grid" and name == "sync":
        env.module.uses_grid_sync = True
    code, t = table[name]
    return Data(code, t)


# Declarations every generated module starts with (after cuarray's scalar headers).
PRELUDE = r"""
template <class T, int N> struct ca_jarr {
  T* p;
  long long size;
  long long shape[N];
  long long strides[N];  // in bytes
};
// The sub-array a[i0, ..., ik] of the last M axes, `off` bytes from the start.
template <int M, class T, int N> __device__ __forceinline__ ca_jarr<T, M> ca_jdrop(const ca_jarr<T, N>& a,
                                                                                  long long off) {
  ca_jarr<T, M> r;
  r.p = (T*)((char*)a.p + off);
  r.size = 1;
  for (int k = 0; k < M; ++k) {
    r.shape[k] = a.shape[N - M + k];
    r.strides[k] = a.strides[N - M + k];
    r.size *= r.shape[k];
  }
  return r;
}
__device__ __forceinline__ unsigned int ca_jit_laneid() {
  unsigned int r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ ca_half ca_jit_atomic_add_half(ca_half* p, ca_half v) {
  unsigned short* a = (unsigned short*)p;
  unsigned short old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, ca_half((float)ca_half::from_bits(assumed) + (float)v).x);
  } while (assumed != old);
  return ca_half::from_bits(old);
}
"""

# Note [jit grid sync]: this_grid().sync() is a barrier over a counter and a generation word of the module
# (no cooperative_groups header, which NVRTC cannot find without the toolkit). The kernel is launched with
# cuLaunchCooperativeKernel, which guarantees that all blocks are resident. The last block to arrive resets the
# counter before it bumps the generation, so the counter is zero again before any block can pass. Two launches
# of the same kernel running at once (two streams) would share the words: they must not overlap.
GRID_SYNC = r"""
__device__ unsigned int ca_jit_grid_bar[2];
__device__ __forceinline__ long long ca_jit_grid_thread_rank() {
  long long block = blockIdx.x + (long long)gridDim.x * (blockIdx.y + (long long)gridDim.y * blockIdx.z);
  return block * (blockDim.x * blockDim.y * blockDim.z) +
         (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
__device__ __noinline__ void ca_jit_grid_sync() {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    volatile unsigned int* gen = &ca_jit_grid_bar[1];
    unsigned int g = *gen;
    __threadfence();
    unsigned int nblocks = gridDim.x * gridDim.y * gridDim.z;
    if (atomicAdd(&ca_jit_grid_bar[0], 1u) == nblocks - 1) {
      atomicExch(&ca_jit_grid_bar[0], 0u);
      __threadfence();
      atomicAdd(&ca_jit_grid_bar[1], 1u);
    } else {
      while (*gen == g) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}
"""


def generate(func, mode, arg_types, c_name):
    """CUDA source (without cuarray's headers) of kernel `func` for `arg_types`, and what its launch needs."""
    module = Module(mode)
    transpile(func, mode, list(arg_types), module, True, c_name)
    parts = [PRELUDE]
    if module.uses_grid_sync:
        parts.append(GRID_SYNC)
    if module.uses_dynamic_smem:
        parts.append("extern __shared__ __align__(16) unsigned char ca_jit_dyn_smem[];")
    parts += module.functions
    return "\n".join(parts) + "\n", module


def generate_device(func, mode, arg_types):
    """Source of device function `func` for `arg_types` (for vectorize): (code, C name, return type)."""
    module = Module(mode)
    name = module.fresh(f"ca_jit_dev_{_cname(func)}_")
    ret = transpile(func, mode, list(arg_types), module, False, name)
    parts = [PRELUDE]
    if module.uses_dynamic_smem or module.uses_grid_sync:
        raise TypeError("shared memory and grid synchronisation are not available in vectorize")
    parts += module.functions
    return "\n".join(parts) + "\n", name, ret
