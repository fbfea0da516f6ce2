// Universal functions: the loop table (generated from NumPy's), NEP 50 type resolution, and calls.
#include "src/engine/ufunc.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "src/core/internal.hpp"
#include "src/engine/elementwise.hpp"

namespace cuarray {

namespace {

struct raw_loop {
  const char* types;
  const char* body;
};

struct raw_ufunc {
  const char* name;
  int nin, nout;
  const char* identity;
  std::vector<raw_loop> loops;
};

#define UFUNC_LOOPS(...)                                                                                               \
  { __VA_ARGS__ }
#define CUARRAY_UFUNC(name, nin, nout, identity, loops)                                                                \
  raw_ufunc{#name, nin, nout, identity, std::vector<raw_loop> loops},
#define CUARRAY_UFUNC_ALIAS(alias, target)

const std::vector<raw_ufunc>& raw_table() {
  static const std::vector<raw_ufunc> table = {
#include "src/engine/ufunc_table.inc"
  };
  return table;
}

#undef CUARRAY_UFUNC
#undef CUARRAY_UFUNC_ALIAS
#define CUARRAY_UFUNC(name, nin, nout, identity, loops)
#define CUARRAY_UFUNC_ALIAS(alias, target) {#alias, #target},

const std::vector<std::pair<std::string, std::string>>& raw_aliases() {
  static const std::vector<std::pair<std::string, std::string>> aliases = {
#include "src/engine/ufunc_table.inc"
  };
  return aliases;
}

#undef CUARRAY_UFUNC
#undef CUARRAY_UFUNC_ALIAS
#undef UFUNC_LOOPS

dtype from_char(char c) {
  switch (c) {
    case '?': return dtype::bool_;
    case 'b': return dtype::int8;
    case 'h': return dtype::int16;
    case 'i': return dtype::int32;
    case 'l':
    case 'q': return dtype::int64;
    case 'B': return dtype::uint8;
    case 'H': return dtype::uint16;
    case 'I': return dtype::uint32;
    case 'L':
    case 'Q': return dtype::uint64;
    case 'e': return dtype::float16;
    case 'f': return dtype::float32;
    case 'd': return dtype::float64;
    case 'F': return dtype::complex64;
    case 'D': return dtype::complex128;
    default: throw std::logic_error(std::string("ufunc table: unknown type character ") + c);
  }
}

struct registry {
  std::vector<ufunc_def> defs;
  std::vector<const ufunc_def*> list;
  std::unordered_map<std::string, const ufunc_def*> by_name;
};

const registry& reg() {
  static const registry* r = [] {
    auto* g = new registry();
    const auto& raw = raw_table();
    g->defs.reserve(raw.size());
    for (const auto& u : raw) {
      ufunc_def d;
      d.name = u.name;
      d.nin = u.nin;
      d.nout = u.nout;
      d.identity = u.identity;
      for (const auto& l : u.loops) {
        ufunc_loop loop;
        loop.types = l.types;
        loop.body = l.body;
        std::string t = l.types;
        auto arrow = t.find("->");
        for (std::size_t i = 0; i < arrow; ++i) loop.in.push_back(from_char(t[i]));
        for (std::size_t i = arrow + 2; i < t.size(); ++i) loop.out.push_back(from_char(t[i]));
        d.loops.push_back(std::move(loop));
      }
      if (d.nin <= 2) {
        std::size_t slots = d.nin == 1 ? num_dtypes : num_dtypes * num_dtypes;
        d.loop_cache = std::make_unique<std::atomic<const ufunc_loop*>[]>(slots);
        for (std::size_t i = 0; i < slots; ++i) d.loop_cache[i].store(nullptr, std::memory_order_relaxed);
      }
      g->defs.push_back(std::move(d));
    }
    for (const auto& d : g->defs) {
      g->list.push_back(&d);
      g->by_name.emplace(d.name, &d);
    }
    for (const auto& [alias, target] : raw_aliases()) {
      auto it = g->by_name.find(target);
      if (it != g->by_name.end()) g->by_name.emplace(alias, it->second);
    }
    return g;
  }();
  return *r;
}

int kind_rank(dtype t) {
  switch (kind(t)) {
    case 'b': return 0;
    case 'u': return 1;
    case 'i': return 2;
    case 'f': return 3;
    default: return 4;
  }
}

std::string dtype_repr(dtype t) { return "dtype('" + std::string(name(t)) + "')"; }

// Does a weak Python int fit dtype t? (NumPy 2 raises OverflowError otherwise.)
bool int_fits(const scalar& v, dtype t) {
  if (!is_integer(t)) return true;
  bool big_unsigned = v.type == dtype::uint64;
  std::int64_t i = v.to_int64();
  if (big_unsigned) return t == dtype::uint64;
  switch (t) {
    case dtype::int8: return i >= -128 && i <= 127;
    case dtype::int16: return i >= -32768 && i <= 32767;
    case dtype::int32:
      return i >= std::numeric_limits<std::int32_t>::min() && i <= std::numeric_limits<std::int32_t>::max();
    case dtype::int64: return true;
    case dtype::uint8: return i >= 0 && i <= 255;
    case dtype::uint16: return i >= 0 && i <= 65535;
    case dtype::uint32: return i >= 0 && i <= static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max());
    case dtype::uint64: return i >= 0;
    default: return true;
  }
}

// The dtype an argument brings (a scalar's own type, or the array's).
dtype arg_type(const ufunc_arg& a) { return a.is_scalar() ? a.value.type : a.arr.type(); }
dtype arg_type(const ufunc_arg_ref& a) { return a.is_scalar() ? a.value.type : a.arr->type(); }

// NEP 50: the dtype a weak Python scalar takes next to the strong operands.
template <class Arg> dtype weak_type(const Arg& a, std::optional<dtype> promoted) {
  char k = a.big_int ? 'i' : kind(a.value.type);  // a big Python int is still an int for promotion
  if (k == 'i' || k == 'u') {
    if (promoted && kind(*promoted) != 'b') return *promoted;
    return dtype::int64;  // NumPy's default integer; a value past its range fails the loop's fit check
  }
  if (k == 'f') {
    if (promoted && is_inexact(*promoted)) return *promoted;
    return dtype::float64;
  }
  if (k == 'c') {
    if (promoted && is_complex(*promoted)) return *promoted;
    if (promoted && (*promoted == dtype::float16 || *promoted == dtype::float32)) return dtype::complex64;
    return dtype::complex128;
  }
  return a.value.type;
}

constexpr int max_nin = 8;

// NEP 50: the dtype each argument takes part in loop selection with (weak Python scalars adapt).
template <class Arg> void effective_types(const Arg* args, int nargs, dtype* types) {
  std::optional<dtype> promoted;
  bool any_weak = false;
  for (int i = 0; i < nargs; ++i) {
    const Arg& a = args[i];
    if (a.weak) {
      any_weak = true;
      continue;
    }
    dtype t = arg_type(a);
    types[i] = t;
    promoted = promoted ? promote_types(*promoted, t) : t;
  }
  if (!any_weak) return;
  for (int i = 0; i < nargs; ++i) {
    const Arg& a = args[i];
    if (!a.weak) continue;
    types[i] = weak_type(a, promoted);
  }
}

[[noreturn]] void no_loop(const ufunc_def& u, const dtype* types, const ufunc_options& opts) {
  std::string list;
  for (int i = 0; i < u.nin; ++i) list += (i ? ", " : "") + dtype_repr(types[i]);
  if (opts.dtype_) {
    throw type_error("ufunc '" + u.name + "' has no loop giving " + dtype_repr(*opts.dtype_) +
                     " for the input types (" + list + ") with casting rule '" + casting_name(opts.rule) + "'");
  }
  throw type_error("ufunc '" + u.name + "' not supported for the input types (" + list +
                   "), and the inputs could not be safely coerced to any supported types according to the casting "
                   "rule ''safe''");
}

const ufunc_loop& search_loop(const ufunc_def& u, const dtype* types, const ufunc_options& opts) {
  // Ufuncs whose NumPy resolvers refuse booleans although bool casts safely to int8; a dtype= other than bool
  // picks its loop as usual (numpy.sign(bools, dtype='F') is complex64).
  if ((!opts.dtype_ || is_bool(*opts.dtype_)) &&
      std::all_of(types, types + u.nin, [](dtype t) { return is_bool(t); })) {
    if (u.name == "subtract") {
      throw type_error("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                       "operator, or the logical_xor function instead.");
    }
    if (u.name == "negative") {
      throw type_error("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the "
                       "logical_not function instead.");
    }
    if (u.name == "positive" || u.name == "sign" || u.name == "gcd" || u.name == "lcm") no_loop(u, types, opts);
  }
  // NumPy's true-division resolver: bool and integer inputs divide in float64, not in the first float loop
  // they could be cast to (int8 / int8 is float64, not float16).
  if (u.name == "divide" && !opts.dtype_ &&
      std::all_of(types, types + u.nin, [](dtype t) { return is_bool(t) || is_integer(t); })) {
    for (const auto& loop : u.loops) {
      if (loop.types == "dd->d") return loop;
    }
  }
  if (opts.dtype_) {
    // NumPy's type_tuple_type_resolver: dtype= names every output's type (numpy.frexp(x, dtype=...) has no loop;
    // divmod's two outputs do). First a loop with those outputs whose inputs take the operands safely (so
    // less(int16, 7, dtype=bool) keeps 'hh->?', never 'bb->?' with the int16 cast to int8), then the
    // homogeneous loop, all of whose types are dtype=, with the operands cast by the casting rule
    // (add(int16, 1, dtype=int8) is 'bb->b').
    dtype want = *opts.dtype_;
    casting in_rule = opts.rule > casting::safe ? casting::safe : opts.rule;
    auto outs_ok = [&](const ufunc_loop& loop) {
      return !loop.out.empty() && std::all_of(loop.out.begin(), loop.out.end(), [&](dtype t) { return t == want; });
    };
    for (const auto& loop : u.loops) {
      if (!outs_ok(loop)) continue;
      bool ok = true;
      for (int i = 0; i < u.nin && ok; ++i) ok = can_cast(types[i], loop.in[static_cast<std::size_t>(i)], in_rule);
      if (ok) return loop;
    }
    for (const auto& loop : u.loops) {
      if (!outs_ok(loop) || std::any_of(loop.in.begin(), loop.in.end(), [&](dtype t) { return t != want; })) continue;
      bool ok = true;
      for (int i = 0; i < u.nin && ok; ++i) ok = can_cast(types[i], want, opts.rule);
      if (ok) return loop;
    }
    no_loop(u, types, opts);
  }
  for (const auto& loop : u.loops) {
    bool ok = true;
    for (int i = 0; i < u.nin && ok; ++i) ok = can_cast_safely(types[i], loop.in[static_cast<std::size_t>(i)]);
    if (ok) return loop;
  }
  no_loop(u, types, opts);
}

// Loop for already-effective types, through Note [loop cache] where it applies.
const ufunc_loop& find_loop(const ufunc_def& u, const dtype* types, const ufunc_options& opts) {
  if (opts.dtype_ || !u.loop_cache) return search_loop(u, types, opts);
  std::size_t slot = u.nin == 1 ? static_cast<std::size_t>(types[0])
                                : static_cast<std::size_t>(types[0]) * num_dtypes + static_cast<std::size_t>(types[1]);
  const ufunc_loop* l = u.loop_cache[slot].load(std::memory_order_acquire);
  if (l) return *l;
  const ufunc_loop& found = search_loop(u, types, opts);
  u.loop_cache[slot].store(&found, std::memory_order_release);
  return found;
}

void check_nargs(const ufunc_def& u, int nargs) {
  if (nargs != u.nin) {
    throw type_error(u.name + "() takes " + std::to_string(u.nin) + " positional argument" + (u.nin == 1 ? "" : "s") +
                     " but " + std::to_string(nargs) + " were given");
  }
  if (u.nin > max_nin) throw value_error("too many ufunc inputs");
}

}  // namespace

const std::vector<const ufunc_def*>& all_ufuncs() { return reg().list; }

const ufunc_def* find_ufunc(std::string_view n) {
  auto it = reg().by_name.find(std::string(n));
  return it == reg().by_name.end() ? nullptr : it->second;
}

const std::vector<std::pair<std::string, std::string>>& ufunc_aliases() { return raw_aliases(); }

const char* casting_name(casting c) {
  switch (c) {
    case casting::no: return "no";
    case casting::equiv: return "equiv";
    case casting::safe: return "safe";
    case casting::same_kind: return "same_kind";
    default: return "unsafe";
  }
}

casting parse_casting(std::string_view s) {
  if (s == "no") return casting::no;
  if (s == "equiv") return casting::equiv;
  if (s == "safe") return casting::safe;
  if (s == "same_kind") return casting::same_kind;
  if (s == "unsafe") return casting::unsafe;
  throw value_error("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
}

bool can_cast(dtype from, dtype to, casting rule) {
  switch (rule) {
    case casting::no:
    case casting::equiv: return from == to;
    case casting::safe: return can_cast_safely(from, to);
    case casting::same_kind: return can_cast_safely(from, to) || kind_rank(from) <= kind_rank(to);
    default: return true;
  }
}

namespace {

template <class Arg> bool is_weak_int(const Arg& a) {
  return a.weak && (a.big_int || kind(a.value.type) == 'i' || kind(a.value.type) == 'u');
}

// Give weak Python ints their own dtype (int64, or uint64 past its range); false if nothing changed.
template <class Arg> bool widen_weak_ints(const Arg* args, int nargs, dtype* types) {
  bool changed = false;
  for (int i = 0; i < nargs; ++i) {
    if (!is_weak_int(args[i])) continue;
    dtype own = args[i].value.type == dtype::uint64 ? dtype::uint64 : dtype::int64;
    if (types[i] != own) {
      types[i] = own;
      changed = true;
    }
  }
  return changed;
}

bool compares_values(const ufunc_def& u) {
  static const char* const names[] = {"equal",         "not_equal",   "less",       "less_equal", "greater",
                                      "greater_equal", "logical_and", "logical_or", "logical_xor"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return u.name == n; });
}

// Note [big Python ints]: NumPy 2 converts a Python int beyond 64 bits to the dtype of its loop slot: fine
// for a floating-point loop (OverflowError past float64's range), an OverflowError for an integer or bool
// one, except that a comparison (not a logical function) with an integer array compares the value exactly
// (NumPy 2's comparison promoter). There the int lies beyond every value of the array's dtype, so it is
// compared in float64 as +-inf (scalar_in_slot), which orders it past them all, its float64 rounding
// (2**64 for 2**64 itself, which uint64's largest value also rounds to) would not.
template <class Arg> bool compared_with_int_array(const ufunc_def& u, const Arg* args, int nargs, int i) {
  if (!compares_values(u) || u.name.rfind("logical_", 0) == 0) return false;
  for (int j = 0; j < nargs; ++j) {
    if (j == i || args[j].weak) continue;
    char k = kind(arg_type(args[j]));
    if (k == 'i' || k == 'u') return true;
  }
  return false;
}

// nullptr: the big int `args[i]` is fine in `loop_type`'s slot; else the loop to use instead.
template <class Arg>
const ufunc_loop* settle_big_int(const ufunc_def& u, const Arg* args, int nargs, int i, dtype loop_type,
                                 const ufunc_options& opts, dtype* types) {
  bool logical = u.name.rfind("logical_", 0) == 0;
  if (!logical && is_inexact(loop_type)) {
    if (std::isinf(args[i].value.to_double())) throw overflow_error("int too large to convert to float");
    return nullptr;
  }
  if (compared_with_int_array(u, args, nargs, i)) {
    for (int j = 0; j < nargs; ++j) types[j] = dtype::float64;
    return &find_loop(u, types, opts);
  }
  throw overflow_error("Python int too large to convert to C long");
}

// The value of the scalar argument `args[i]` in its loop slot `t` (Note [big Python ints]).
template <class Arg> scalar scalar_in_slot(const ufunc_def& u, const Arg* args, int nargs, int i, dtype t) {
  const Arg& a = args[i];
  if (a.big_int && compared_with_int_array(u, args, nargs, i)) {
    double inf = std::numeric_limits<double>::infinity();
    return scalar::from_double(a.value.to_double() < 0 ? -inf : inf).cast(t);
  }
  return a.value.cast(t);
}

// The loop for `args`, with `types` set to the dtypes the inputs take part as. A weak Python int takes the
// strong operands' type (NEP 50) and must fit the loop's integer type (OverflowError), except that
// comparisons and logical functions compare its value exactly (NumPy 2), and that it becomes an int64
// where no loop has the strong type in its slot (ldexp's exponent next to a float array).
template <class Arg>
const ufunc_loop& resolve_types(const ufunc_def& u, const Arg* args, int nargs, const ufunc_options& opts,
                                dtype* types) {
  effective_types(args, nargs, types);
  // A unary ufunc takes a lone Python int as NumPy's array of it, no weak promotion: uint64 in [2**63, 2**64),
  // an object array beyond 64 bits, whose object loop raises TypeError or gives an object result (unsupported
  // here) unless dtype= with casting='unsafe' converts it (Note [big Python ints] then applies).
  if (u.nin == 1 && is_weak_int(args[0])) {
    if (args[0].big_int && opts.rule != casting::unsafe) {
      throw type_error("ufunc '" + u.name +
                       "' of a Python int beyond 64 bits needs NumPy's object loop "
                       "(loop of ufunc does not support argument 0 of type int); object arrays are not supported");
    }
    if (!args[0].big_int && args[0].value.type == dtype::uint64) types[0] = dtype::uint64;
  }
  const ufunc_loop* loop;
  try {
    loop = &find_loop(u, types, opts);
  } catch (const type_error&) {
    if (!widen_weak_ints(args, nargs, types)) throw;
    loop = &find_loop(u, types, opts);
  }
  for (int i = 0; i < nargs; ++i) {
    const Arg& a = args[i];
    dtype lt = loop->in[static_cast<std::size_t>(i)];
    if (a.big_int) {
      if (const ufunc_loop* l = settle_big_int(u, args, nargs, i, lt, opts, types)) return *l;
      continue;
    }
    if (!is_weak_int(a) || !is_integer(lt) || int_fits(a.value, lt)) continue;
    if (u.nin == 1 && a.value.type == dtype::uint64) continue;  // a strong uint64 (above), cast as an array is
    bool logical = u.name.rfind("logical_", 0) == 0;
    if (compares_values(u) && (a.value.type != dtype::uint64 || !logical) && widen_weak_ints(args, nargs, types)) {
      return find_loop(u, types, opts);
    }
    std::string text = a.value.type == dtype::uint64
                           ? std::to_string(static_cast<unsigned long long>(a.value.to_int64()))
                           : std::to_string(a.value.to_int64());
    throw overflow_error("Python integer " + text + " out of bounds for " + std::string(name(lt)));
  }
  return *loop;
}

}  // namespace

const ufunc_loop& resolve_loop(const ufunc_def& u, const std::vector<ufunc_arg>& args, const ufunc_options& opts) {
  check_nargs(u, static_cast<int>(args.size()));
  dtype types[max_nin];
  return resolve_types(u, args.data(), u.nin, opts, types);
}

array call_ufunc1(const ufunc_def& u, const ufunc_arg* args, int nargs) {
  check_nargs(u, nargs);
  if (u.nout != 1) throw value_error("ufunc '" + u.name + "' has several outputs");
  if (nargs > 2) return call_ufunc(u, std::vector<ufunc_arg>(args, args + nargs))[0];
  ufunc_arg_ref refs[2];
  for (int i = 0; i < nargs; ++i) {
    refs[i] = ufunc_arg_ref{args[i].is_scalar() ? nullptr : &args[i].arr, args[i].value, args[i].weak, args[i].big_int};
  }
  return call_ufunc1(u, refs, nargs);
}

namespace {

std::vector<ufunc_arg> owned_args(const ufunc_arg_ref* args, int nargs) {
  std::vector<ufunc_arg> copies;
  for (int i = 0; i < nargs; ++i) {
    copies.push_back(ufunc_arg{args[i].arr ? *args[i].arr : array(), args[i].value, args[i].weak, args[i].big_int});
  }
  return copies;
}

// An input that partly overlaps an output is read from a copy: NumPy's result, not a race. An input that is
// exactly an output is fine, element i is read before it is written.
bool partly_overlaps(const array& in, const array& out) {
  bool same = in.data() == out.data() && in.strides() == out.strides() && in.shape() == out.shape();
  return !same && detail::may_overlap(in, out);
}

// The kernel of `loop` over borrowed arguments into `out` (inputs read from copies where partly_overlaps,
// checked only when `may_alias`: a new output overlaps nothing).
void run_loop1(const ufunc_def& u, const ufunc_loop& loop, const ufunc_arg_ref* args, int nargs, const array& out,
               const shape_t& shape, bool may_alias) {
  ew::operand_ref ops[3];
  scalar values[2];
  ew::array_slots<2> copies;  // made only for an overlapping input
  for (int i = 0; i < nargs; ++i) {
    const ufunc_arg_ref& a = args[i];
    dtype it = loop.in[static_cast<std::size_t>(i)];
    if (a.is_scalar()) {
      values[i] = scalar_in_slot(u, args, nargs, i, it);
      ops[i] = ew::operand_ref{nullptr, values[i].bytes, it, false};
      continue;
    }
    const array* in = a.arr;
    if (may_alias && partly_overlaps(*in, out)) in = copies.add(in->copy(order::K));
    ops[i] = ew::operand_ref{in, nullptr, it, false};
  }
  ops[nargs] = ew::operand_ref{&out, nullptr, loop.out[0], false};
  ew::kernel_spec spec{&loop, u.name, loop.body, "", {}, {}};
  // A caller's output of another device is written over peer access by the current device (CuPy's rule): the
  // write is then ordered on the current device's stream with the caller's other work.
  spec.on_current_device = true;
  ew::run(spec, ops, nargs, ops + nargs, 1, shape, nullptr);
}

}  // namespace

// Note [small call]: the path of `a + b` and `sin(a)` with no keywords copies no array descriptor and takes
// no reference count: the arguments are borrowed (ufunc_arg_ref), the kernel's operands point at them
// (ew::operand_ref), and the only new objects are the output array and its storage.
array call_ufunc1(const ufunc_def& u, const ufunc_arg_ref* args, int nargs) {
  check_nargs(u, nargs);
  if (u.nout != 1) throw value_error("ufunc '" + u.name + "' has several outputs");
  if (nargs > 2) return call_ufunc(u, owned_args(args, nargs))[0];
  dtype types[max_nin];
  static const ufunc_options defaults;
  const ufunc_loop& loop = resolve_types(u, args, nargs, defaults, types);
  // Same-kind casting of inputs always holds for the loop chosen by safe casting; no out= and no mask.
  // `proto` is an input of the broadcast shape (the output takes its layout), null when none has it.
  const array* proto = nullptr;
  const shape_t* shape = nullptr;
  shape_t broadcast;
  for (int i = 0; i < nargs; ++i) {
    if (args[i].is_scalar()) continue;
    const array& a = *args[i].arr;
    if (!shape) {
      shape = &a.shape();
      proto = &a;
    } else if (a.shape() != *shape) {
      broadcast = broadcast_shapes(*shape, a.shape());
      shape = &broadcast;
    }
  }
  shape_t scalar_shape;
  if (!shape) shape = &scalar_shape;
  if (proto && proto->shape() != *shape) {
    proto = nullptr;
    for (int i = 0; i < nargs && !proto; ++i) {
      if (!args[i].is_scalar() && args[i].arr->shape() == *shape) proto = args[i].arr;
    }
  }
  int device = current_device();  // CuPy: the current device computes; other devices' inputs are read over peer access
  dtype lt = loop.out[0];
  array out = proto && !proto->is_c_contiguous()
                  ? detail::new_array(lt, *shape, strides_like(*shape, proto->strides(), itemsize(lt)), device)
                  : detail::new_array(lt, *shape, order::C, device);
  run_loop1(u, loop, args, nargs, out, *shape, false);
  return out;
}

void call_ufunc1_into(const ufunc_def& u, const ufunc_arg_ref* args, int nargs, const array& out) {
  check_nargs(u, nargs);
  if (u.nout != 1) throw value_error("ufunc '" + u.name + "' has several outputs");
  if (nargs > 2) {
    ufunc_options opts;
    opts.out.push_back(out);
    (void)call_ufunc(u, owned_args(args, nargs), opts);
    return;
  }
  dtype types[max_nin];
  static const ufunc_options defaults;  // same_kind casting
  const ufunc_loop& loop = resolve_types(u, args, nargs, defaults, types);
  // The output's cast before any shape (Note [ufunc argument order]).
  dtype lt = loop.out[0];
  if (!can_cast(lt, out.type(), casting::same_kind)) {
    throw type_error("Cannot cast ufunc '" + u.name + "' output from " + dtype_repr(lt) + " to " +
                     dtype_repr(out.type()) + " with casting rule 'same_kind'");
  }
  const shape_t& shape = out.shape();
  for (int i = 0; i < nargs; ++i) {
    if (args[i].is_scalar() || args[i].arr->shape() == shape) continue;
    if (broadcast_shapes(shape, args[i].arr->shape()) != shape) {
      throw value_error("non-broadcastable output operand with shape " + shape_to_string(shape) +
                        " doesn't match the broadcast shape " +
                        shape_to_string(broadcast_shapes(args[i].arr->shape(), shape)));
    }
  }
  run_loop1(u, loop, args, nargs, out, shape, true);  // on the current device, as call_ufunc with out=
}

namespace {

[[noreturn]] void output_cast_error(const ufunc_def& u, int j, dtype from, dtype to, casting rule) {
  // NumPy numbers the outputs after the inputs, but names a lone output just "output".
  std::string which = u.nout == 1 ? "output" : "output " + std::to_string(u.nin + j);
  throw type_error("Cannot cast ufunc '" + u.name + "' " + which + " from " + dtype_repr(from) + " to " +
                   dtype_repr(to) + " with casting rule '" + casting_name(rule) + "'");
}

}  // namespace

// Note [ufunc argument order] (python/src/ufunc.cpp): the mask's dtype, the loop, the inputs' and the
// outputs' casts (TypeError) come before any shape (ValueError), as in NumPy.
const ufunc_loop& check_ufunc_call(const ufunc_def& u, const std::vector<ufunc_arg>& args, const ufunc_options& opts,
                                   shape_t& shape) {
  check_nargs(u, static_cast<int>(args.size()));
  if (opts.where.defined() && opts.where.type() != dtype::bool_) {
    throw type_error("Cannot cast array data from " + dtype_repr(opts.where.type()) +
                     " to dtype('bool') according to the rule 'safe'");
  }
  dtype types[max_nin];
  const ufunc_loop& loop = resolve_types(u, args.data(), u.nin, opts, types);
  for (int i = 0; i < u.nin; ++i) {
    if (!can_cast(types[i], loop.in[static_cast<std::size_t>(i)], opts.rule)) {
      throw type_error("Cannot cast ufunc '" + u.name + "' input " + std::to_string(i) + " from " +
                       dtype_repr(types[i]) + " to " + dtype_repr(loop.in[static_cast<std::size_t>(i)]) +
                       " with casting rule '" + casting_name(opts.rule) + "'");
    }
  }
  for (int j = 0; j < u.nout && static_cast<std::size_t>(j) < opts.out.size(); ++j) {
    const array& o = opts.out[static_cast<std::size_t>(j)];
    dtype lt = loop.out[static_cast<std::size_t>(j)];
    if (o.defined() && !can_cast(lt, o.type(), opts.rule)) output_cast_error(u, j, lt, o.type(), opts.rule);
  }
  // Broadcast shape of the inputs, the mask and the outputs, with NumPy's message naming them all.
  std::vector<const shape_t*> shapes;
  for (const auto& a : args) shapes.push_back(a.is_scalar() ? nullptr : &a.arr.shape());
  for (const auto& o : opts.out) shapes.push_back(o.defined() ? &o.shape() : nullptr);
  if (opts.where.defined()) shapes.push_back(&opts.where.shape());
  shape_t all;
  try {
    for (const shape_t* s : shapes) {
      if (s) all = broadcast_shapes(all, *s);
    }
  } catch (const value_error&) {
    std::string list;
    for (const shape_t* s : shapes) {
      if (s) list += shape_to_string(*s) + " ";
    }
    throw value_error("operands could not be broadcast together with shapes " + list);
  }
  // An output must hold the broadcast shape of the inputs (and the mask) itself.
  shape = shape_t{};
  for (const auto& a : args) {
    if (!a.is_scalar()) shape = broadcast_shapes(shape, a.arr.shape());
  }
  if (opts.where.defined()) shape = broadcast_shapes(shape, opts.where.shape());
  const array* given = nullptr;
  for (const auto& o : opts.out) {
    if (o.defined()) {
      given = &o;
      break;
    }
  }
  if (given) {
    if (all != given->shape()) {
      throw value_error("non-broadcastable output operand with shape " + shape_to_string(given->shape()) +
                        " doesn't match the broadcast shape " + shape_to_string(all));
    }
    shape = given->shape();
  }
  for (const auto& o : opts.out) {
    if (o.defined() && o.shape() != shape) {
      throw value_error("non-broadcastable output operand with shape " + shape_to_string(o.shape()) +
                        " doesn't match the broadcast shape " + shape_to_string(shape));
    }
  }
  return loop;
}

std::vector<array> call_ufunc(const ufunc_def& u, const std::vector<ufunc_arg>& args, const ufunc_options& opts) {
  shape_t shape;
  const ufunc_loop& loop = check_ufunc_call(u, args, opts, shape);
  int device = current_device();
  // Order 'K' for new outputs: the layout of the first array input of the full shape, else C.
  const array* proto = nullptr;
  for (const auto& a : args) {
    if (!a.is_scalar() && a.arr.shape() == shape) {
      proto = &a.arr;
      break;
    }
  }
  std::vector<array> outs;
  for (int j = 0; j < u.nout; ++j) {
    array o = static_cast<std::size_t>(j) < opts.out.size() ? opts.out[static_cast<std::size_t>(j)] : array();
    dtype lt = loop.out[static_cast<std::size_t>(j)];
    if (o.defined()) {
      // a given output: its dtype and shape passed check_ufunc_call
    } else if (proto && opts.out_order == order::K) {
      o = detail::new_array(lt, shape, strides_like(shape, proto->strides(), itemsize(lt)), device);
    } else {
      order ord = opts.out_order == order::F ? order::F : order::C;
      o = detail::new_array(lt, shape, ord, device);
    }
    outs.push_back(std::move(o));
  }
  // The kernel's operands point at the arguments (Note [small call]); only copies made for overlap and
  // cast scalars are held here.
  ew::operand_ref ins[max_nin], os[max_nin];
  scalar values[max_nin];
  array copies[max_nin];
  for (int i = 0; i < u.nin; ++i) {
    const ufunc_arg& a = args[static_cast<std::size_t>(i)];
    dtype lt = loop.in[static_cast<std::size_t>(i)];
    if (a.is_scalar()) {
      values[i] = scalar_in_slot(u, args.data(), u.nin, i, lt);
      ins[i] = ew::operand_ref{nullptr, values[i].bytes, lt, false};
      continue;
    }
    const array* in = &a.arr;
    for (const auto& o : outs) {
      if (partly_overlaps(*in, o)) {
        copies[i] = in->copy(order::K);
        in = &copies[i];
        break;
      }
    }
    ins[i] = ew::operand_ref{in, nullptr, lt, false};
  }
  for (int j = 0; j < u.nout; ++j) {
    os[j] = ew::operand_ref{&outs[static_cast<std::size_t>(j)], nullptr, loop.out[static_cast<std::size_t>(j)], false};
  }
  ew::kernel_spec spec{&loop, u.name, loop.body, "", {}, {}};
  spec.on_current_device = true;  // as run_loop1: an `out=` of another device is written over peer access
  array mask = opts.where;
  if (mask.defined() && mask.type() != dtype::bool_) mask = mask.astype(dtype::bool_);
  ew::run(spec, ins, u.nin, os, u.nout, shape, mask.defined() ? &mask : nullptr);
  return outs;
}

std::vector<array> call_ufunc(std::string_view n, const std::vector<array>& args) {
  const ufunc_def* u = find_ufunc(n);
  if (!u) throw value_error("no ufunc named " + std::string(n));
  std::vector<ufunc_arg> a;
  for (const auto& x : args) a.push_back(ufunc_arg{x, scalar{}, false});
  return call_ufunc(*u, a);
}

}  // namespace cuarray
