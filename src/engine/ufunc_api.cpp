// The C++ elementwise API: one function per ufunc (from the generated list), call by name, and elementwise_kernel.
#include <algorithm>
#include <cctype>
#include <utility>

#include "cuarray/creation.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/kernel.hpp"
#include "cuarray/ufunc.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/ufunc.hpp"

namespace cuarray {

namespace {

const ufunc_def& def_of(const char* name) {
  const ufunc_def* u = find_ufunc(name);
  // The list and the table come from one generator run; a miss means they went out of step.
  if (!u) throw std::logic_error(std::string("ufunc table has no '") + name + "': rerun tools/gen_ufunc_table.py");
  return *u;
}

bool is_default(const ufunc_options& o) {
  return o.out.empty() && !o.dtype_ && o.rule == casting::same_kind && !o.where.defined() && o.out_order == order::K;
}

// Plain calls take the ufunc engine's hot path (no vectors); keywords go through call_ufunc.
array call1(const ufunc_def& u, const ufunc_arg* args, int n, const ufunc_options& o) {
  if (is_default(o)) return call_ufunc1(u, args, n);
  return std::move(call_ufunc(u, std::vector<ufunc_arg>(args, args + n), o)[0]);
}

std::pair<array, array> call2(const ufunc_def& u, const ufunc_arg* args, int n, const ufunc_options& o) {
  std::vector<array> r = call_ufunc(u, std::vector<ufunc_arg>(args, args + n), o);
  return {std::move(r[0]), std::move(r[1])};
}

}  // namespace

std::vector<array> call_ufunc(std::string_view name, const std::vector<ufunc_arg>& args, const ufunc_options& options) {
  const ufunc_def* u = find_ufunc(name);
  if (!u) throw value_error("no ufunc named '" + std::string(name) + "'");
  return call_ufunc(*u, args, options);
}

#define CUARRAY_UFUNC_DEF_1_1(fn, target)                                                                              \
  array fn(const ufunc_arg& x, const ufunc_options& o) {                                                               \
    static const ufunc_def& u = def_of(#target);                                                                       \
    return call1(u, &x, 1, o);                                                                                         \
  }
#define CUARRAY_UFUNC_DEF_2_1(fn, target)                                                                              \
  array fn(const ufunc_arg& x1, const ufunc_arg& x2, const ufunc_options& o) {                                         \
    static const ufunc_def& u = def_of(#target);                                                                       \
    const ufunc_arg args[2] = {x1, x2};                                                                                \
    return call1(u, args, 2, o);                                                                                       \
  }
#define CUARRAY_UFUNC_DEF_1_2(fn, target)                                                                              \
  std::pair<array, array> fn(const ufunc_arg& x, const ufunc_options& o) {                                             \
    static const ufunc_def& u = def_of(#target);                                                                       \
    return call2(u, &x, 1, o);                                                                                         \
  }
#define CUARRAY_UFUNC_DEF_2_2(fn, target)                                                                              \
  std::pair<array, array> fn(const ufunc_arg& x1, const ufunc_arg& x2, const ufunc_options& o) {                       \
    static const ufunc_def& u = def_of(#target);                                                                       \
    const ufunc_arg args[2] = {x1, x2};                                                                                \
    return call2(u, args, 2, o);                                                                                       \
  }
#define CUARRAY_UFUNC_DECL(name, nin, nout) CUARRAY_UFUNC_DEF_##nin##_##nout(name, name)
#define CUARRAY_UFUNC_ALIAS_DECL(alias, name, nin, nout) CUARRAY_UFUNC_DEF_##nin##_##nout(alias, name)
#include "cuarray/ufunc_list.inc"
#undef CUARRAY_UFUNC_DECL
#undef CUARRAY_UFUNC_ALIAS_DECL

// ---------------------------------------------------------------------------------------------------------
// elementwise_kernel

namespace detail {

struct ew_param {
  bool raw = false;
  std::string ctype, name;
  std::optional<dtype> type;  ///< empty: a placeholder resolved from the arguments
};

struct elementwise_state {
  std::vector<ew_param> in, out;
  std::string operation, name, preamble, loop_prep, after_loop;
  bool c_order = false;
};

}  // namespace detail

namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) words.push_back(s.substr(i, j - i));
    i = j;
  }
  return words;
}

// "[raw] TYPE NAME, ...": TYPE is a dtype name of two or more characters, else a placeholder (as in the
// Python front end, which asks numpy.dtype).
std::vector<detail::ew_param> parse_params(std::string_view text) {
  std::vector<detail::ew_param> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(start, comma - start);
    start = comma + 1;
    std::vector<std::string_view> w = split_words(item);
    if (w.empty()) continue;
    bool raw = w.size() == 3 && w[0] == "raw";
    if (!(w.size() == 2 || raw) || !is_identifier(w[w.size() - 2]) || !is_identifier(w.back())) {
      throw value_error("Invalid parameter '" + std::string(item) + "': expected '[raw] TYPE NAME'");
    }
    detail::ew_param p;
    p.raw = raw;
    p.ctype = std::string(w[w.size() - 2]);
    p.name = std::string(w.back());
    dtype t;
    if (p.ctype.size() > 1 && parse_dtype(p.ctype, t)) p.type = t;
    out.push_back(std::move(p));
  }
  return out;
}

// Whether `code` names the identifier `i` or anything with `_ind` (the element index or the indexer).
bool uses_index(std::string_view code) {
  for (std::size_t i = 0; i < code.size();) {
    unsigned char c = static_cast<unsigned char>(code[i]);
    if (std::isalpha(c) || c == '_') {
      std::size_t j = i;
      while (j < code.size() && (std::isalnum(static_cast<unsigned char>(code[j])) || code[j] == '_')) ++j;
      std::string_view id = code.substr(i, j - i);
      if (id == "i" || id.find("_ind") != std::string_view::npos) return true;
      i = j;
    } else if (std::isdigit(c)) {
      while (i < code.size() && (std::isalnum(static_cast<unsigned char>(code[i])) || code[i] == '.')) ++i;
    } else {
      ++i;
    }
  }
  return false;
}

/// Makes `s` the current stream for the scope.
class stream_scope {
public:
  explicit stream_scope(std::optional<stream_ref> s) : previous_(current_stream()), active_(s.has_value()) {
    if (active_) set_current_stream(*s);
  }
  ~stream_scope() {
    if (active_) set_current_stream(previous_);
  }
  stream_scope(const stream_scope&) = delete;
  stream_scope& operator=(const stream_scope&) = delete;

private:
  stream_ref previous_;
  bool active_;
};

std::string raw_decl(const std::string& ct, const std::string& name, int operand, std::int64_t size) {
  // The engine passes a raw bool operand as unsigned char*; the cast makes the view's element type exact.
  return "struct { " + ct + "* p; __device__ " + ct + "& operator[](long long j) const { return p[j]; } " +
         "__device__ long long size() const { return " + std::to_string(size) + "; } } " + name + "{reinterpret_cast<" +
         ct + "*>(raw" + std::to_string(operand) + ")};";
}

}  // namespace

elementwise_kernel::elementwise_kernel(std::string in_params, std::string out_params, std::string operation,
                                       std::string name, std::string preamble, std::string loop_prep,
                                       std::string after_loop) {
  auto s = std::make_shared<detail::elementwise_state>();
  s->in = parse_params(in_params);
  s->out = parse_params(out_params);
  if (s->out.empty()) throw value_error("elementwise_kernel needs at least one output parameter");
  std::vector<std::string> names;
  for (const auto* list : {&s->in, &s->out})
    for (const auto& p : *list) names.push_back(p.name);
  std::sort(names.begin(), names.end());
  if (std::adjacent_find(names.begin(), names.end()) != names.end())
    throw value_error("Parameter names must be unique");
  s->operation = std::move(operation);
  s->name = std::move(name);
  s->preamble = std::move(preamble);
  s->loop_prep = std::move(loop_prep);
  s->after_loop = std::move(after_loop);
  bool any_raw = false;
  for (const auto* list : {&s->in, &s->out})
    for (const auto& p : *list) any_raw = any_raw || p.raw;
  // The engine may reorder or vectorise the loop only when the body cannot see the index.
  s->c_order = any_raw || uses_index(s->operation) || uses_index(s->loop_prep) || uses_index(s->after_loop);
  state_ = std::move(s);
}

int elementwise_kernel::nin() const { return static_cast<int>(state_->in.size()); }
int elementwise_kernel::nout() const { return static_cast<int>(state_->out.size()); }
const std::string& elementwise_kernel::name() const { return state_->name; }

array elementwise_kernel::single(std::vector<array> outs) const {
  if (outs.size() != 1) {
    throw value_error("elementwise kernel '" + state_->name + "' has " + std::to_string(outs.size()) +
                      " outputs: use call() to get them all");
  }
  return std::move(outs[0]);
}

std::vector<array> elementwise_kernel::call(const std::vector<ufunc_arg>& args,
                                            const elementwise_options& options) const {
  const detail::elementwise_state& k = *state_;
  const std::size_t nin = k.in.size(), nout = k.out.size();
  if (args.size() != nin && args.size() != nin + nout) {
    throw type_error("Wrong number of arguments for '" + k.name + "': expected " + std::to_string(nin) + " or " +
                     std::to_string(nin + nout) + ", got " + std::to_string(args.size()));
  }
  std::vector<array> outs(nout);
  if (args.size() == nin + nout) {
    for (std::size_t j = 0; j < nout; ++j) {
      if (args[nin + j].is_scalar())
        throw type_error("output '" + k.out[j].name + "' of '" + k.name + "' must be an array");
      outs[j] = args[nin + j].arr;
    }
  }

  // Placeholders: bound by array arguments (all must agree), then by scalar inputs.
  std::vector<std::pair<std::string, dtype>> types;
  auto bound = [&](const std::string& ct) -> const dtype* {
    for (const auto& [n, t] : types)
      if (n == ct) return &t;
    return nullptr;
  };
  auto bind = [&](const detail::ew_param& p, const array& a) {
    if (p.type || !a.defined()) return;
    if (const dtype* t = bound(p.ctype)) {
      if (*t != a.type()) {
        throw type_error("Type is mismatched. " + p.name + " " + std::string(cuarray::name(a.type())) + " " +
                         std::string(cuarray::name(*t)));
      }
      return;
    }
    types.emplace_back(p.ctype, a.type());
  };
  // An output array is written as it is: one of a parameter with an explicit type must have that dtype
  // (CuPy's TypeError), where an input array is cast.
  for (std::size_t j = 0; j < nout; ++j) {
    const detail::ew_param& p = k.out[j];
    if (p.type && outs[j].defined() && outs[j].type() != *p.type) {
      throw type_error("Type is mismatched. " + p.name + " " + std::string(cuarray::name(outs[j].type())) + " " +
                       std::string(cuarray::name(*p.type)));
    }
  }
  for (std::size_t i = 0; i < nin; ++i) bind(k.in[i], args[i].arr);
  for (std::size_t j = 0; j < nout; ++j) bind(k.out[j], outs[j]);
  for (std::size_t i = 0; i < nin; ++i) {
    const detail::ew_param& p = k.in[i];
    if (!p.type && !bound(p.ctype) && args[i].is_scalar()) types.emplace_back(p.ctype, args[i].value.type);
  }
  auto dtype_of = [&](const detail::ew_param& p) {
    if (p.type) return *p.type;
    if (const dtype* t = bound(p.ctype)) return *t;
    throw type_error("Cannot determine the type of '" + p.name + "' (" + p.ctype + ") of '" + k.name + "'");
  };

  // Loop shape: broadcast of the non-raw array inputs, or the first non-raw output given, or `size`.
  shape_t shape;
  bool any_array = false;
  for (std::size_t i = 0; i < nin; ++i) {
    if (!k.in[i].raw && !args[i].is_scalar()) {
      shape = any_array ? broadcast_shapes(shape, args[i].arr.shape()) : args[i].arr.shape();
      any_array = true;
    }
  }
  bool out_given = false;
  for (std::size_t j = 0; j < nout && !out_given; ++j) {
    if (outs[j].defined() && !k.out[j].raw) {
      shape = outs[j].shape();
      out_given = true;
    }
  }
  if (!out_given) {
    if (options.size) {
      if (any_array) throw value_error("size cannot be specified when non-raw array arguments are given");
      if (*options.size < 0) throw value_error("size must be non-negative");
      shape = shape_t{*options.size};
    } else if (!any_array) {
      throw value_error("Loop size is undecided: give size or a non-raw array argument to '" + k.name + "'");
    }
  }

  stream_scope on_stream(options.stream);
  for (std::size_t j = 0; j < nout; ++j) {
    if (!outs[j].defined()) outs[j] = empty(shape, dtype_of(k.out[j]));
  }

  std::string typedefs;
  for (const auto& [n, t] : types) typedefs += "typedef " + std::string(ew::type_name(t)) + " " + n + "; ";
  std::string decl;
  std::vector<ew::operand> in_ops, out_ops;
  for (std::size_t i = 0; i < nin; ++i) {
    const detail::ew_param& p = k.in[i];
    dtype t = dtype_of(p);
    std::string ct = ew::type_name(t);
    const ufunc_arg& a = args[i];
    if (p.raw) {
      if (a.is_scalar()) throw type_error("raw parameter '" + p.name + "' of '" + k.name + "' must be an array");
      array arr = a.arr;
      if (arr.type() != t) arr = arr.astype(t, order::C);
      if (!arr.is_c_contiguous()) arr = arr.copy(order::C);
      decl += raw_decl(ct, p.name, static_cast<int>(i), arr.size()) + " ";
      in_ops.push_back(ew::operand::of_raw(std::move(arr), t));
    } else {
      decl += "const " + ct + " " + p.name + " = in" + std::to_string(i) + "; ";
      in_ops.push_back(a.is_scalar() ? ew::operand::of_scalar(a.value, t) : ew::operand::of(a.arr, t));
    }
  }
  for (std::size_t j = 0; j < nout; ++j) {
    const detail::ew_param& p = k.out[j];
    dtype t = dtype_of(p);
    std::string ct = ew::type_name(t);
    if (p.raw) {
      if (outs[j].type() != t)
        throw type_error("raw output '" + p.name + "' must have dtype " + std::string(cuarray::name(t)));
      decl += raw_decl(ct, p.name, static_cast<int>(nin + j), outs[j].size()) + " ";
      out_ops.push_back(ew::operand::of_raw(outs[j], t));
    } else {
      decl += ct + "& " + p.name + " = out" + std::to_string(j) + "; ";
      out_ops.push_back(ew::operand::of(outs[j], t));
    }
  }
  std::string kname = k.name;
  for (char& c : kname)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  // kernel_spec holds views: the strings live here until run() returns.
  std::string body = typedefs + decl + "\n" + k.operation + ";";
  std::string loop_prep = typedefs + k.loop_prep, after_loop = typedefs + k.after_loop;
  ew::kernel_spec spec{nullptr, kname, body, k.preamble, loop_prep, after_loop, k.c_order};
  spec.id = ew::intern(spec);
  ew::run(spec, in_ops, out_ops, shape);
  return outs;
}

}  // namespace cuarray
