// User-defined kernels (CuPy's ElementwiseKernel and ReductionKernel): parameter lists parsed and checked,
// placeholders resolved, the code generated for the elementwise and reduction engines, and the C++ classes
// elementwise_kernel and reduction_kernel that run them.
#include "cuarray/custom_kernel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <utility>

#include "cuarray/axis.hpp"
#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/kernel.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/shape.hpp"
#include "cuarray/stream.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/reduction.hpp"

namespace cuarray {

// Note [custom kernel definition]: ElementwiseKernel's definition is parsed, checked and turned into engine
// code here only; the Python class keeps just its per-signature cache and the warm call (Note [elementwise
// warm call] in python/src/elementwise_kernel.cpp). The rules follow CuPy and the texts the Python class
// produced before it moved here (messages quote user text as Python's repr does): words are ASCII letters,
// digits, '_' and any non-ASCII byte, as Python's `\w` counts letters of any script. What the code implies is
// read once per definition: whether it reads the index (`i`, `_ind`), which outputs it assigns exactly once
// without control flow (they need not be loaded first: the others keep a given output's values where the
// operation leaves them), and which raw parameters it uses other than by indexing (their size is passed).

namespace {

constexpr std::size_t max_operands = 11;  // the engine's limit on inputs + outputs

constexpr std::string_view cpp_keywords[] = {
    "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
    "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char16_t",
    "char32_t",    "char8_t",   "class",      "compl",     "concept",  "const",        "consteval",
    "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
    "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
    "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
    "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
    "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
    "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
    "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
    "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
    "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
    "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
    "xor_eq"};

constexpr std::string_view control_words[] = {"if",     "else", "for",      "while", "do",
                                              "switch", "goto", "continue", "break", "return"};

constexpr const char* raw_helper = "template <class T> struct _ca_raw { T* p; long long n;\n"
                                   "  __device__ T& operator[](long long j) const { return p[j]; }\n"
                                   "  __device__ long long size() const { return n; } };\n";

bool is_keyword(std::string_view s) {
  return std::find(std::begin(cpp_keywords), std::end(cpp_keywords), s) != std::end(cpp_keywords);
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || (c >= '\x1c' && c <= '\x1f');
}

bool is_word(char c) {
  auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || c == '_';
}

bool is_ascii_identifier(std::string_view s) {
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (s.empty() || !alpha(s[0])) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

std::string_view strip(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool reserved(std::string_view s) { return s == "i" || s == "n" || (!s.empty() && s[0] == '_'); }

// Whether `word` occurs at `pos` of `s` as a whole word (Python's \bword\b for a word that starts and ends
// with word characters).
bool word_at(std::string_view s, std::size_t pos, std::string_view word) {
  if (s.compare(pos, word.size(), word) != 0) return false;
  if (pos > 0 && is_word(s[pos - 1])) return false;
  std::size_t end = pos + word.size();
  return end >= s.size() || !is_word(s[end]);
}

// Positions of `word` as a whole word, non-overlapping, left to right.
std::vector<std::size_t> find_words(std::string_view s, std::string_view word) {
  std::vector<std::size_t> at;
  if (word.empty()) return at;
  for (std::size_t p = s.find(word); p != std::string_view::npos; p = s.find(word, p + 1)) {
    if (word_at(s, p, word)) {
      at.push_back(p);
      p += word.size() - 1;
    }
  }
  return at;
}

// re.search(r"\bi\b|_ind\b", code): `_ind` needs a boundary after it only.
bool reads_index(std::string_view code) {
  if (!find_words(code, "i").empty()) return true;
  for (std::size_t p = code.find("_ind"); p != std::string_view::npos; p = code.find("_ind", p + 1)) {
    if (p + 4 >= code.size() || !is_word(code[p + 4])) return true;
  }
  return false;
}

// re.search(r"\b(if|else|...|return)\b|\?", operation)
bool has_control_flow(std::string_view op) {
  if (op.find('?') != std::string_view::npos) return true;
  return std::any_of(std::begin(control_words), std::end(control_words),
                     [&](std::string_view w) { return !find_words(op, w).empty(); });
}

// re.search(rf"(^|[;{{}}]|\n)\s*{name}\s*=(?!=)", op): `name = ...` as a statement of its own.
bool assigned_as_statement(std::string_view op, std::string_view name) {
  for (std::size_t p = op.find(name); p != std::string_view::npos; p = op.find(name, p + 1)) {
    std::size_t b = p;
    while (b > 0 && is_space(op[b - 1])) --b;
    // The whitespace before the name may itself hold the '\n' the pattern accepts.
    bool start = b == 0 || op[b - 1] == ';' || op[b - 1] == '{' || op[b - 1] == '}' ||
                 op.substr(b, p - b).find('\n') != std::string_view::npos;
    if (!start) continue;
    std::size_t e = p + name.size();
    while (e < op.size() && is_space(op[e])) ++e;
    if (e < op.size() && op[e] == '=' && (e + 1 >= op.size() || op[e + 1] != '=')) return true;
  }
  return false;
}

// re.search(r"\bcomplex\s*<", text)
bool spells_complex_template(std::string_view text) {
  for (std::size_t p = text.find("complex"); p != std::string_view::npos; p = text.find("complex", p + 1)) {
    if (p > 0 && is_word(text[p - 1])) continue;
    std::size_t e = p + 7;
    while (e < text.size() && is_space(text[e])) ++e;
    if (e < text.size() && text[e] == '<') return true;
  }
  return false;
}

// Names the generated kernel declares at function scope, where loop_prep and after_loop also live (see
// elementwise.cpp): a parameter or placeholder named so is usable in the operation, which runs in a nested
// block, but gets no alias in loop_prep. re.match(r"^(n|L|pw|stride|nvec|[pv][0-9]+|raw[0-9]+)$").
bool kernel_scope_name(std::string_view s) {
  if (s == "n" || s == "L" || s == "pw" || s == "stride" || s == "nvec") return true;
  auto digits_after = [&](std::size_t k) {
    return s.size() > k && std::all_of(s.begin() + static_cast<std::ptrdiff_t>(k), s.end(),
                                       [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!s.empty() && (s[0] == 'p' || s[0] == 'v') && digits_after(1)) return true;
  return s.starts_with("raw") && digits_after(3);
}

kernel_param parse_item(std::string_view item, const dtype_name_resolver& resolve) {
  std::vector<std::string_view> w;
  for (std::size_t i = 0; i < item.size();) {
    while (i < item.size() && is_space(item[i])) ++i;
    std::size_t j = i;
    while (j < item.size() && !is_space(item[j])) ++j;
    if (j > i) w.push_back(item.substr(i, j - i));
    i = j;
  }
  std::string shown = python_repr(strip(item));
  bool raw = w.size() == 3 && w[0] == "raw";
  if (!(w.size() == 2 || raw) || !is_ascii_identifier(w[w.size() - 2]) || !is_ascii_identifier(w.back())) {
    throw value_error("Invalid parameter " + shown + ": expected '[raw] TYPE NAME'");
  }
  kernel_param p;
  p.raw = raw;
  p.ctype = std::string(w[w.size() - 2]);
  p.name = std::string(w.back());
  if (p.ctype.size() > 1) {
    if (resolve) {
      p.type = resolve(p.ctype);
    } else {
      dtype t;
      if (parse_dtype(p.ctype, t)) p.type = t;
    }
  }
  if (!p.type && (p.ctype == "raw" || is_keyword(p.ctype))) {
    // 'raw T' is a raw parameter without a name, not a parameter T of a placeholder type 'raw'.
    throw value_error("Invalid parameter " + shown + ": expected '[raw] TYPE NAME' (" + python_repr(p.ctype) +
                      " is a keyword, not a type)");
  }
  if (reserved(p.name)) {
    throw value_error("Invalid parameter name " + python_repr(p.name) +
                      ": 'i', 'n' and names starting with '_' are reserved for the kernel's own use");
  }
  if (is_keyword(p.name)) throw value_error("Invalid parameter name " + python_repr(p.name) + ": a C++ keyword");
  return p;
}

std::string type_str(dtype t) { return std::string(cuarray::name(t)); }

}  // namespace

std::string python_repr(std::string_view s) {
  bool single = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos;
  char q = single ? '"' : '\'';
  std::string r(1, q);
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == q) {
      r += '\\';
      r += c;
    } else if (c == '\n') {
      r += "\\n";
    } else if (c == '\r') {
      r += "\\r";
    } else if (c == '\t') {
      r += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", u);
      r += buf;
    } else {
      r += c;
    }
  }
  r += q;
  return r;
}

std::vector<kernel_param> parse_kernel_params(std::string_view text, const dtype_name_resolver& resolve) {
  std::vector<kernel_param> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    std::string_view item = text.substr(start, comma - start);
    start = comma + 1;
    if (!strip(item).empty()) out.push_back(parse_item(item, resolve));
  }
  return out;
}

std::vector<kernel_param> parse_kernel_params(std::span<const std::string> items, const dtype_name_resolver& resolve) {
  std::vector<kernel_param> out;
  for (const std::string& item : items) out.push_back(parse_item(item, resolve));
  return out;
}

elementwise_definition define_elementwise(std::vector<kernel_param> in, std::vector<kernel_param> out,
                                          std::string operation, std::string name, std::string preamble,
                                          std::string loop_prep, std::string after_loop, bool no_return) {
  elementwise_definition d;
  d.in = std::move(in);
  d.out = std::move(out);
  if (d.out.empty() && !no_return) {
    throw value_error("ElementwiseKernel needs at least one output parameter (or no_return=True)");
  }
  std::vector<std::string> names, sorted;
  for (const auto* list : {&d.in, &d.out})
    for (const kernel_param& p : *list) names.push_back(p.name);
  sorted = names;
  std::sort(sorted.begin(), sorted.end());
  std::string dups;
  for (std::size_t k = 1; k < sorted.size(); ++k) {
    if (sorted[k] == sorted[k - 1] && (k < 2 || sorted[k - 2] != sorted[k])) {
      dups += (dups.empty() ? "" : ", ") + sorted[k];
    }
  }
  if (!dups.empty()) throw value_error("Parameter names must be unique: " + dups + " appears more than once");
  std::vector<std::string> placeholders;
  for (const auto* list : {&d.in, &d.out})
    for (const kernel_param& p : *list)
      if (!p.type) placeholders.push_back(p.ctype);
  std::sort(placeholders.begin(), placeholders.end());
  placeholders.erase(std::unique(placeholders.begin(), placeholders.end()), placeholders.end());
  for (const std::string& t : placeholders) {
    if (std::find(names.begin(), names.end(), t) != names.end()) {
      throw value_error("Type placeholder " + python_repr(t) + " is also the name of a parameter");
    }
    if (reserved(t)) {
      throw value_error("Invalid type placeholder " + python_repr(t) +
                        ": 'i', 'n' and names starting with '_' are reserved for the kernel's own use");
    }
  }
  d.operation = std::move(operation);
  d.name = std::move(name);
  d.preamble = std::move(preamble);
  d.loop_prep = std::move(loop_prep);
  d.after_loop = std::move(after_loop);
  d.no_return = no_return;
  d.kernel_name = d.name;
  for (char& c : d.kernel_name)
    if (!is_word(c)) c = '_';
  if (d.kernel_name.empty()) d.kernel_name = "kernel";
  std::string code = d.operation + "\n" + d.loop_prep + "\n" + d.after_loop;
  bool any_raw = false;
  for (const auto* list : {&d.in, &d.out})
    for (const kernel_param& p : *list) any_raw = any_raw || p.raw;
  d.c_order = any_raw || reads_index(code);
  bool simple = !has_control_flow(d.operation);
  for (const kernel_param& p : d.out) {
    d.assigned.push_back(simple && find_words(d.operation, p.name).size() == 1 &&
                         assigned_as_statement(d.operation, p.name));
  }
  for (const auto* list : {&d.in, &d.out}) {
    for (const kernel_param& p : *list) {
      bool sized = false;
      if (p.raw) {
        for (std::size_t at : find_words(code, p.name)) {
          std::size_t e = at + p.name.size();
          while (e < code.size() && is_space(code[e])) ++e;
          if (e >= code.size() || code[e] != '[') sized = true;
        }
      }
      d.sized.push_back(sized);
    }
  }
  return d;
}

elementwise_plan plan_elementwise(const elementwise_definition& d, std::span<const kernel_arg_info> args) {
  const std::size_t nin = d.in.size(), nout = d.out.size(), nargs = nin + nout;
  const std::string kname = python_repr(d.name);
  auto param = [&](std::size_t k) -> const kernel_param& { return k < nin ? d.in[k] : d.out[k - nin]; };
  if (args.size() != nin && args.size() != nargs) {
    throw type_error("Wrong number of arguments for " + kname + ": it takes " + std::to_string(nin) + " (inputs) or " +
                     std::to_string(nargs) + " (inputs and outputs), but " + std::to_string(args.size()) +
                     " were given");
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    const kernel_param& p = param(k);
    const kernel_arg_info& a = args[k];
    std::string pn = python_repr(p.name);
    if (a.kind == kernel_arg_kind::array) continue;
    if (a.kind == kernel_arg_kind::host_array) {
      throw type_error("Unsupported type numpy.ndarray for argument " + pn + " of " + kname +
                       ": move host data to the device with cuarray.asarray(), or bring device data to the host "
                       "with .get()");
    }
    if (k >= nin) {
      if (a.kind == kernel_arg_kind::none) continue;
      throw type_error("Output argument " + pn + " of " + kname + " must be a cuarray.ndarray, not " + a.type_name);
    }
    if (a.kind != kernel_arg_kind::scalar) {
      throw type_error("Unsupported type " + a.type_name + " for argument " + pn + " of " + kname);
    }
    if (p.raw) {
      throw type_error("Raw argument " + pn + " of " + kname + " must be a cuarray.ndarray, not " + a.type_name);
    }
  }
  auto arg_of = [&](std::size_t k) -> const kernel_arg_info* { return k < args.size() ? &args[k] : nullptr; };
  auto given_out = [&](std::size_t j) {
    const kernel_arg_info* a = arg_of(nin + j);
    return a && a->kind == kernel_arg_kind::array;
  };

  // Placeholders in the order they are bound (the typedefs follow it).
  std::vector<std::pair<std::string, dtype>> types;
  auto bound = [&](const std::string& ct) -> const dtype* {
    for (const auto& [n, t] : types)
      if (n == ct) return &t;
    return nullptr;
  };
  auto bind = [&](const kernel_param& p, dtype t, const char* what) {
    if (p.type) {
      // An output array is written as it is, so it must be of the parameter's type; an input is cast.
      if (std::string_view(what) == "output" && t != *p.type) {
        throw type_error("Type is mismatched: output " + python_repr(p.name) + " of " + kname + " is declared " +
                         type_str(*p.type) + ", but the array given has dtype " + type_str(t));
      }
      return;
    }
    if (const dtype* b = bound(p.ctype)) {
      if (*b != t) {
        throw type_error(std::string("Type is mismatched: ") + what + " " + python_repr(p.name) + " has dtype " +
                         type_str(t) + ", but type placeholder " + python_repr(p.ctype) + " is already " +
                         type_str(*b));
      }
      return;
    }
    types.emplace_back(p.ctype, t);
  };
  for (std::size_t j = 0; j < nout; ++j)
    if (given_out(j)) bind(d.out[j], args[nin + j].type, "output");
  for (std::size_t k = 0; k < nin; ++k)
    if (args[k].kind != kernel_arg_kind::scalar) bind(d.in[k], args[k].type, "input");
  for (std::size_t k = 0; k < nin; ++k) {
    const kernel_param& p = d.in[k];
    if (args[k].kind == kernel_arg_kind::scalar && !p.type && !bound(p.ctype))
      types.emplace_back(p.ctype, args[k].type);
  }
  std::vector<dtype> dtypes;
  for (std::size_t k = 0; k < nargs; ++k) {
    const kernel_param& p = param(k);
    if (p.type) {
      dtypes.push_back(*p.type);
    } else if (const dtype* b = bound(p.ctype)) {
      dtypes.push_back(*b);
    } else {
      throw type_error("Cannot determine the type of " + python_repr(p.name) + " in " + kname + ": type placeholder " +
                       python_repr(p.ctype) + " is not fixed by any argument (pass the output array)");
    }
  }
  for (std::size_t j = 0; j < nout; ++j) {
    if (d.out[j].raw && given_out(j) && args[nin + j].type != dtypes[nin + j]) {
      throw type_error("Raw output " + python_repr(d.out[j].name) + " of " + kname + " must have dtype " +
                       type_str(dtypes[nin + j]) + ", not " + type_str(args[nin + j].type));
    }
  }

  elementwise_plan plan;
  plan.name = d.kernel_name;
  plan.c_order = d.c_order;
  std::vector<std::string> ct, pointee;
  for (dtype t : dtypes) {
    ct.emplace_back(ew::type_name(t));
    pointee.push_back(t == dtype::bool_ ? "unsigned char" : ct.back());
  }
  for (std::size_t j = 0; j < nout; ++j)
    if (given_out(j) && !d.out[j].raw && !d.assigned[j]) plan.preload.push_back(static_cast<int>(j));
  for (std::size_t k = 0; k < nargs; ++k)
    if (d.sized[k]) plan.raw_sizes.push_back(static_cast<int>(k));
  if (nargs + plan.preload.size() + plan.raw_sizes.size() > max_operands) {
    throw value_error(kname + " has too many parameters for one kernel (" + std::to_string(nargs) + " parameters, " +
                      std::to_string(plan.preload.size()) + " outputs to load first and " +
                      std::to_string(plan.raw_sizes.size()) + " raw sizes; at most " + std::to_string(max_operands) +
                      ")");
  }
  // Hidden engine inputs after the parameters' own: the preloaded outputs, then the raw sizes.
  const std::size_t n_in = nin + plan.preload.size() + plan.raw_sizes.size();
  auto size_slot = [&](std::size_t k) -> std::optional<std::size_t> {
    for (std::size_t s = 0; s < plan.raw_sizes.size(); ++s)
      if (static_cast<std::size_t>(plan.raw_sizes[s]) == k) return nin + plan.preload.size() + s;
    return std::nullopt;
  };
  auto pointer = [&](std::size_t k) { return "raw" + std::to_string(k < nin ? k : n_in + k - nin); };
  auto raw_init = [&](std::size_t k, bool kernel_scope) {
    std::string size = "0";
    if (auto slot = size_slot(k)) size = kernel_scope ? "v" + std::to_string(*slot) : "_ca_s" + std::to_string(k);
    std::string ptr = kernel_scope ? pointer(k) : "_ca_r" + std::to_string(k);
    return "_ca_raw<" + pointee[k] + "> " + param(k).name + "{" + ptr + ", " + size + "};";
  };
  std::vector<std::string> alias, decl;
  for (std::size_t k = 0; k < nin; ++k) {
    const kernel_param& p = d.in[k];
    std::string ks = std::to_string(k);
    if (p.raw) {
      alias.push_back(pointee[k] + "* _ca_r" + ks + " = " + pointer(k) + ";");
      decl.push_back(raw_init(k, false));
    } else {
      alias.push_back("const " + ct[k] + "& _ca_i" + ks + " = in" + ks + ";");
      decl.push_back("const " + ct[k] + " " + p.name + " = _ca_i" + ks + ";");
    }
  }
  std::size_t idx = nin;
  for (int j : plan.preload) {
    alias.push_back("const " + ct[nin + static_cast<std::size_t>(j)] + "& _ca_h" + std::to_string(j) + " = in" +
                    std::to_string(idx++) + ";");
  }
  for (int k : plan.raw_sizes)
    alias.push_back("const long long _ca_s" + std::to_string(k) + " = in" + std::to_string(idx++) + ";");
  for (std::size_t j = 0; j < nout; ++j) {
    std::size_t k = nin + j;
    std::string js = std::to_string(j);
    if (d.out[j].raw) {
      alias.push_back(pointee[k] + "* _ca_r" + std::to_string(k) + " = " + pointer(k) + ";");
      decl.push_back(raw_init(k, false));
    } else {
      alias.push_back(ct[k] + "& _ca_o" + js + " = out" + js + ";");
      if (std::find(plan.preload.begin(), plan.preload.end(), static_cast<int>(j)) != plan.preload.end()) {
        decl.push_back("_ca_o" + js + " = _ca_h" + js + ";");
      }
      decl.push_back(ct[k] + "& " + d.out[j].name + " = _ca_o" + js + ";");
    }
  }
  std::vector<std::string> typedefs;
  for (const auto& [n, t] : types) typedefs.push_back("typedef " + std::string(ew::type_name(t)) + " " + n + ";");
  std::string body;
  for (const auto* part : {&alias, &typedefs, &decl}) {
    for (const std::string& s : *part) body += (body.empty() ? "" : " ") + s;
  }
  plan.body = body + "\n" + d.operation + "\n;";
  bool any_raw = false;
  for (std::size_t k = 0; k < nargs; ++k) any_raw = any_raw || param(k).raw;
  plan.preamble = (any_raw ? std::string(raw_helper) : std::string()) + d.preamble;
  if (spells_complex_template(d.operation + d.preamble + d.loop_prep + d.after_loop)) {
    plan.preamble = "template <class T> using complex = ca_complex<T>;\n" + plan.preamble;
  }
  plan.loop_prep = d.loop_prep;
  plan.after_loop = d.after_loop;
  if (!strip(d.loop_prep).empty() || !strip(d.after_loop).empty()) {
    // loop_prep and after_loop see the placeholders, the scalar and the raw parameters, as in CuPy.
    std::string prep;
    auto add = [&](const std::string& s) { prep += (prep.empty() ? "" : " ") + s; };
    for (const auto& [n, t] : types)
      if (!kernel_scope_name(n)) add("typedef " + std::string(ew::type_name(t)) + " " + n + ";");
    for (std::size_t k = 0; k < nargs; ++k) {
      const kernel_param& p = param(k);
      if (kernel_scope_name(p.name)) continue;
      if (p.raw) {
        add(raw_init(k, true));
      } else if (k < nin && args[k].kind == kernel_arg_kind::scalar) {
        add("const " + ct[k] + " " + p.name + " = v" + std::to_string(k) + ";");
      }
    }
    plan.loop_prep = prep + "\n" + d.loop_prep;
  }
  for (std::size_t k = 0; k < nin; ++k) {
    plan.in_types.push_back(dtypes[k]);
    plan.in_kinds.push_back(d.in[k].raw ? 'r' : args[k].kind == kernel_arg_kind::scalar ? 's' : 'a');
  }
  for (int j : plan.preload) {
    plan.in_types.push_back(dtypes[nin + static_cast<std::size_t>(j)]);
    plan.in_kinds.push_back('a');
  }
  for (std::size_t s = 0; s < plan.raw_sizes.size(); ++s) {
    plan.in_types.push_back(dtype::int64);
    plan.in_kinds.push_back('s');
  }
  for (std::size_t j = 0; j < nout; ++j) {
    plan.out_types.push_back(dtypes[nin + j]);
    plan.out_raw.push_back(d.out[j].raw);
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k].kind == kernel_arg_kind::array && !param(k).raw) {
      plan.shape_args.push_back(static_cast<int>(k));
      if (k >= nin) plan.given_outs.push_back(static_cast<int>(k));
    }
  }
  for (std::size_t j = 0; j < nout; ++j)
    if (!given_out(j)) plan.alloc.push_back(static_cast<int>(j));
  return plan;
}

// ---------------------------------------------------------------------------------------------------------
// elementwise_kernel: the C++ front end over the same definition and plans

namespace detail {

struct elementwise_state {
  elementwise_definition def;
  struct prepared {
    elementwise_plan plan;
    const void* id = nullptr;
  };
  // Plans per argument signature (each argument's kind and dtype), made once, as the Python class keeps them.
  mutable std::mutex mutex;
  mutable std::map<std::string, std::shared_ptr<const prepared>> plans;
};

}  // namespace detail

namespace {

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

std::string shape_repr(const shape_t& s) {
  std::string r = "(";
  for (std::size_t k = 0; k < static_cast<std::size_t>(s.size()); ++k) r += (k ? ", " : "") + std::to_string(s[k]);
  return r + (static_cast<std::size_t>(s.size()) == 1 ? ",)" : ")");
}

}  // namespace

elementwise_kernel::elementwise_kernel(std::string in_params, std::string out_params, std::string operation,
                                       std::string name, std::string preamble, std::string loop_prep,
                                       std::string after_loop) {
  auto s = std::make_shared<detail::elementwise_state>();
  s->def = define_elementwise(parse_kernel_params(in_params), parse_kernel_params(out_params), std::move(operation),
                              std::move(name), std::move(preamble), std::move(loop_prep), std::move(after_loop));
  state_ = std::move(s);
}

int elementwise_kernel::nin() const { return static_cast<int>(state_->def.in.size()); }
int elementwise_kernel::nout() const { return static_cast<int>(state_->def.out.size()); }
const std::string& elementwise_kernel::name() const { return state_->def.name; }

array elementwise_kernel::single(std::vector<array> outs) const {
  if (outs.size() != 1) {
    throw value_error("elementwise kernel '" + state_->def.name + "' has " + std::to_string(outs.size()) +
                      " outputs: use call() to get them all");
  }
  return std::move(outs[0]);
}

std::vector<array> elementwise_kernel::call(const std::vector<ufunc_arg>& args,
                                            const elementwise_options& options) const {
  const detail::elementwise_state& k = *state_;
  const elementwise_definition& d = k.def;
  const std::size_t nin = d.in.size(), nout = d.out.size();
  std::vector<kernel_arg_info> info(args.size());
  std::string key;
  for (std::size_t a = 0; a < args.size(); ++a) {
    // An output given as a scalar is refused by the planner (only arrays are written).
    info[a].kind = args[a].is_scalar() ? kernel_arg_kind::scalar : kernel_arg_kind::array;
    info[a].type = args[a].is_scalar() ? args[a].value.type : args[a].arr.type();
    info[a].type_name = "scalar";
    key += static_cast<char>(info[a].kind);
    key += static_cast<char>(info[a].type);
  }
  std::shared_ptr<const detail::elementwise_state::prepared> prep;
  {
    std::lock_guard<std::mutex> lock(k.mutex);
    auto it = k.plans.find(key);
    if (it != k.plans.end()) prep = it->second;
  }
  if (!prep) {
    auto made = std::make_shared<detail::elementwise_state::prepared>();
    made->plan = plan_elementwise(d, info);
    const elementwise_plan& p = made->plan;
    made->id = ew::intern(ew::kernel_spec{nullptr, p.name, p.body, p.preamble, p.loop_prep, p.after_loop, p.c_order});
    std::lock_guard<std::mutex> lock(k.mutex);
    prep = k.plans.emplace(key, std::move(made)).first->second;
  }
  const elementwise_plan& p = prep->plan;

  // The loop shape: the broadcast shape of the non-raw arrays (given outputs must have it), or `size`.
  shape_t shape;
  if (options.size) {
    if (!p.shape_args.empty()) {
      throw value_error("size= cannot be given to " + python_repr(d.name) +
                        " when non-raw array arguments are given: their broadcast shape is the loop size");
    }
    if (*options.size < 0) throw value_error("negative dimensions are not allowed");
    shape = shape_t{*options.size};
  } else {
    if (p.shape_args.empty()) {
      throw value_error("Loop size is undecided for " + python_repr(d.name) +
                        ": pass size= or a non-raw array argument");
    }
    shape = args[static_cast<std::size_t>(p.shape_args[0])].arr.shape();
    for (int a : p.shape_args) shape = broadcast_shapes(shape, args[static_cast<std::size_t>(a)].arr.shape());
    for (int a : p.given_outs) {
      const shape_t& s = args[static_cast<std::size_t>(a)].arr.shape();
      if (s != shape) {
        throw value_error("Out shape is mismatched: output " +
                          python_repr(d.out[static_cast<std::size_t>(a) - nin].name) + " has shape " + shape_repr(s) +
                          ", the broadcast shape of the arguments is " + shape_repr(shape));
      }
    }
  }

  stream_scope on_stream(options.stream);
  std::vector<array> outs(nout);
  if (args.size() == nin + nout)
    for (std::size_t j = 0; j < nout; ++j) outs[j] = args[nin + j].arr;
  for (int j : p.alloc) outs[static_cast<std::size_t>(j)] = empty(shape, p.out_types[static_cast<std::size_t>(j)]);
  std::vector<ew::operand> in_ops, out_ops;
  for (std::size_t a = 0; a < nin; ++a) {
    dtype t = p.in_types[a];
    if (p.in_kinds[a] == 's') {
      in_ops.push_back(ew::operand::of_scalar(args[a].value, t));
    } else if (p.in_kinds[a] == 'r') {
      // A raw operand is indexed flat: C-contiguous, of the parameter's type.
      array arr = args[a].arr;
      if (!arr.is_c_contiguous()) arr = arr.copy(order::C);
      if (arr.type() != t) arr = arr.astype(t);
      in_ops.push_back(ew::operand::of_raw(std::move(arr), t));
    } else {
      in_ops.push_back(ew::operand::of(args[a].arr, t));
    }
  }
  std::size_t slot = nin;
  for (int j : p.preload) in_ops.push_back(ew::operand::of(outs[static_cast<std::size_t>(j)], p.in_types[slot++]));
  for (int a : p.raw_sizes) {
    auto ua = static_cast<std::size_t>(a);
    std::int64_t n = ua < nin ? args[ua].arr.size() : outs[ua - nin].size();
    in_ops.push_back(ew::operand::of_scalar(scalar::from_int(n), p.in_types[slot++]));
  }
  for (std::size_t j = 0; j < nout; ++j) {
    out_ops.push_back(p.out_raw[j] ? ew::operand::of_raw(outs[j], p.out_types[j])
                                   : ew::operand::of(outs[j], p.out_types[j]));
  }
  ew::kernel_spec spec{prep->id, p.name, p.body, p.preamble, p.loop_prep, p.after_loop, p.c_order};
  // As a ufunc call: the current device runs it, and a caller's output of another device is written over peer
  // access with CuPy's warning (outputs made here are on the current device already).
  spec.on_current_device = true;
  ew::run(spec, in_ops, out_ops, shape);
  return outs;
}

// ---------------------------------------------------------------------------------------------------------
// reduction kernels

namespace {

// Reduction code computes float16 in float32.
std::string reduction_type_name(dtype t) { return t == dtype::float16 ? "float" : ew::type_name(t); }

}  // namespace

reduction_kernel_definition define_reduction_kernel(std::vector<kernel_param> in, std::vector<kernel_param> out,
                                                    std::string map_expr, std::string reduce_expr,
                                                    std::string post_map_expr, std::optional<std::string> identity,
                                                    std::string name, std::optional<std::string> reduce_type,
                                                    std::string preamble, const dtype_name_resolver& resolve) {
  reduction_kernel_definition d;
  d.in = std::move(in);
  d.out = std::move(out);
  if (d.out.size() != 1) throw value_error("ReductionKernel takes exactly one output parameter");
  for (const auto* list : {&d.in, &d.out}) {
    for (const kernel_param& p : *list) {
      if (p.raw) {
        throw value_error("ReductionKernel parameter " + python_repr(p.name) +
                          ": raw parameters are not supported; index arrays in an ElementwiseKernel instead");
      }
    }
  }
  std::vector<std::string> names;
  for (const auto* list : {&d.in, &d.out})
    for (const kernel_param& p : *list) names.push_back(p.name);
  std::sort(names.begin(), names.end());
  if (std::adjacent_find(names.begin(), names.end()) != names.end()) {
    throw value_error("Parameter names must be unique");
  }
  // The engine reads its shape from the first input.
  if (d.in.empty()) throw value_error("ReductionKernel needs at least one input parameter");
  d.map_expr = std::move(map_expr);
  d.reduce_expr = std::move(reduce_expr);
  d.post_map_expr = std::move(post_map_expr);
  d.identity = std::move(identity);
  d.name = std::move(name);
  d.reduce_type = std::move(reduce_type);
  d.preamble = std::move(preamble);
  d.kernel_name = d.name;
  for (char& c : d.kernel_name)
    if (!is_word(c)) c = '_';
  if (d.kernel_name.empty()) d.kernel_name = "reduce_kernel";
  // A reduce_type that names no placeholder is a dtype name, read now; its error shows at the call, where
  // the placeholders would have been resolved.
  bool placeholder = false;
  for (const auto* list : {&d.in, &d.out})
    for (const kernel_param& p : *list) placeholder = placeholder || (!p.type && d.reduce_type == p.ctype);
  if (d.reduce_type && !placeholder) {
    try {
      if (resolve) {
        d.reduce_dtype = resolve(*d.reduce_type);
      } else if (dtype t; parse_dtype(*d.reduce_type, t)) {
        d.reduce_dtype = t;
      }
      if (!d.reduce_dtype) d.reduce_type_error = "data type " + python_repr(*d.reduce_type) + " not understood";
    } catch (const type_error& e) {
      d.reduce_type_error = e.what();
    }
  }
  return d;
}

reduction_kernel_plan plan_reduction_kernel(const reduction_kernel_definition& d, std::span<const kernel_arg_info> args,
                                            const kernel_arg_info& out_kw) {
  const std::size_t nin = d.in.size();
  reduction_kernel_plan plan;
  const kernel_arg_info* out = out_kw.kind == kernel_arg_kind::none ? nullptr : &out_kw;
  if (args.size() == nin + 1) {
    if (out) throw value_error("the output is given twice (positionally and as out=)");
    plan.out_positional = true;
    out = args.back().kind == kernel_arg_kind::none ? nullptr : &args.back();
    args = args.first(nin);
  }
  if (args.size() != nin) {
    throw type_error(d.name + " takes " + std::to_string(nin) + " inputs (" + std::to_string(args.size()) + " given)");
  }
  for (const kernel_arg_info& a : args) {
    if (a.kind == kernel_arg_kind::host_array) {
      throw type_error("Unsupported type numpy.ndarray: move host data to the device with cuarray.asarray()");
    }
    if (a.kind != kernel_arg_kind::array && a.kind != kernel_arg_kind::scalar) {
      throw type_error("Unsupported type " + a.type_name);
    }
  }
  if (out && out->kind != kernel_arg_kind::array) {
    throw type_error("Output argument " + python_repr(d.out[0].name) + " of " + python_repr(d.name) +
                     " must be a cuarray.ndarray, not " + out->type_name);
  }
  std::vector<std::pair<std::string, dtype>> types;
  auto bound = [&](const std::string& ct) -> const dtype* {
    for (const auto& [n, t] : types)
      if (n == ct) return &t;
    return nullptr;
  };
  for (std::size_t k = 0; k < nin; ++k) {
    const kernel_param& p = d.in[k];
    if (!p.type && args[k].kind == kernel_arg_kind::array && !bound(p.ctype)) types.emplace_back(p.ctype, args[k].type);
  }
  for (std::size_t k = 0; k < nin; ++k) {
    const kernel_param& p = d.in[k];
    if (!p.type && !bound(p.ctype)) types.emplace_back(p.ctype, args[k].type);
  }
  const kernel_param& op = d.out[0];
  if (!op.type && !bound(op.ctype)) {
    if (!out) {
      throw type_error("Cannot determine the output type " + python_repr(op.ctype) + " of " + python_repr(d.name) +
                       ": pass out=");
    }
    types.emplace_back(op.ctype, out->type);
  }
  for (const kernel_param& p : d.in) plan.in_types.push_back(p.type ? *p.type : *bound(p.ctype));
  plan.out_type = op.type ? *op.type : *bound(op.ctype);
  if (!d.reduce_type) {
    plan.acc_type = plan.out_type;
  } else if (const dtype* t = bound(*d.reduce_type)) {
    plan.acc_type = *t;
  } else {
    if (!d.reduce_dtype) throw type_error(d.reduce_type_error);
    plan.acc_type = *d.reduce_dtype;
  }
  for (const auto& [n, t] : types) plan.preamble += "typedef " + reduction_type_name(t) + " " + n + ";\n";
  plan.preamble += d.preamble;
  plan.name = d.kernel_name;
  plan.acc = reduction_type_name(plan.acc_type);
  std::string binds, rebinds;
  for (std::size_t k = 0; k < nin; ++k) {
    plan.in_compute.push_back(reduction_type_name(plan.in_types[k]));
    std::string ks = std::to_string(k);
    binds += (k ? " " : "") + ("const " + plan.in_compute[k] + " _ca_v" + ks + " = " + (k ? "x" + ks : "x") + ";");
    rebinds += (k ? " " : "") + ("const " + plan.in_compute[k] + "& " + d.in[k].name + " = _ca_v" + ks + ";");
  }
  // The parameters are bound in a nested block, so that any name (even the engine's x, m or a) works.
  plan.map = binds + " acc_t _ca_m; { " + rebinds + " _ca_m = ca_cast<acc_t>(" + d.map_expr + "); } m = _ca_m;";
  plan.combine = "r = ca_cast<acc_t>(" + d.reduce_expr + ");";
  plan.out_compute = reduction_type_name(plan.out_type);
  plan.post = "out_t _ca_y; { " + plan.out_compute + " " + op.name + "; { " + d.post_map_expr +
              "; } _ca_y = " + op.name + "; } y = _ca_y;";
  plan.sequential = !d.identity;
  plan.identity = d.identity ? "ca_cast<acc_t>(" + *d.identity + ")" : "acc_t()";
  plan.acc_bytes = plan.acc_type == dtype::float16 ? 4 : itemsize(plan.acc_type);
  return plan;
}

namespace detail {

// Note [reduction kernel plans]: a warm call reuses the plan and the interned spec of its argument signature
// (each argument's kind and dtype, and the out= argument's), so it parses no type, builds no string and hashes
// no text; only calls that plan successfully are kept, so errors are raised afresh each time.
struct reduction_kernel_signature {
  std::vector<std::pair<kernel_arg_kind, dtype>> args;
  kernel_arg_kind out_kind = kernel_arg_kind::none;
  dtype out_type = dtype::float64;
  bool operator==(const reduction_kernel_signature&) const = default;
};

struct reduction_kernel_prepared {
  reduction_kernel_signature sig;
  reduction_kernel_plan plan;
  red::spec spec;
};

struct reduction_kernel_state {
  reduction_kernel_definition def;
  mutable std::mutex mutex;
  mutable std::vector<std::shared_ptr<const reduction_kernel_prepared>> prepared;  // most recent last
  /// The plan of a call with one array argument of each dtype and no out= (k(a)), read without the lock by
  /// reduce_all; kept alive by `single_keep` for the kernel's life (at most one per dtype).
  mutable std::atomic<const reduction_kernel_prepared*> single[num_dtypes] = {};
  mutable std::vector<std::shared_ptr<const reduction_kernel_prepared>> single_keep;
};

}  // namespace detail

reduction_kernel::reduction_kernel(std::string in_params, std::string out_params, std::string map_expr,
                                   std::string reduce_expr, std::string post_map_expr,
                                   std::optional<std::string> identity, std::string name,
                                   std::optional<std::string> reduce_type, std::string preamble)
    : reduction_kernel(define_reduction_kernel(parse_kernel_params(in_params), parse_kernel_params(out_params),
                                               std::move(map_expr), std::move(reduce_expr), std::move(post_map_expr),
                                               std::move(identity), std::move(name), std::move(reduce_type),
                                               std::move(preamble))) {}

reduction_kernel::reduction_kernel(reduction_kernel_definition definition)
    : state_([&] {
        auto st = std::make_shared<detail::reduction_kernel_state>();
        st->def = std::move(definition);
        return st;
      }()) {}

int reduction_kernel::nin() const { return static_cast<int>(state_->def.in.size()); }
const std::string& reduction_kernel::name() const { return state_->def.name; }
const reduction_kernel_definition& reduction_kernel::definition() const { return state_->def; }

namespace red {

spec spec_of(const reduction_kernel_plan& p) {
  spec s;
  s.name = p.name;
  s.preamble = p.preamble;
  s.acc = p.acc;
  s.in_compute = p.in_compute[0];
  s.extra_compute.assign(p.in_compute.begin() + 1, p.in_compute.end());
  s.out_compute = p.out_compute;
  s.map = p.map;
  s.combine = p.combine;
  s.post = p.post;
  s.identity = p.identity;
  s.acc_bytes = p.acc_bytes;
  s.sequential = p.sequential;
  return s;
}

}  // namespace red

namespace {

// Whether the arguments of a call (and its out=) have the signature `sig`, compared in place: a warm call
// builds no signature vector.
bool same_signature(const detail::reduction_kernel_signature& sig, const std::vector<ufunc_arg>& args,
                    const array& out) {
  if (sig.args.size() != args.size()) return false;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const ufunc_arg& a = args[k];
    kernel_arg_kind kind = a.is_scalar() ? kernel_arg_kind::scalar : kernel_arg_kind::array;
    if (sig.args[k].first != kind || sig.args[k].second != (a.is_scalar() ? a.value.type : a.arr.type())) return false;
  }
  if (out.defined()) return sig.out_kind == kernel_arg_kind::array && sig.out_type == out.type();
  return sig.out_kind == kernel_arg_kind::none;
}

}  // namespace

array reduction_kernel::call(const std::vector<ufunc_arg>& args, const reduction_kernel_options& options) const {
  const reduction_kernel_definition& d = state_->def;
  std::shared_ptr<const detail::reduction_kernel_prepared> prep;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    for (auto e = state_->prepared.rbegin(); e != state_->prepared.rend(); ++e) {  // the most recent first
      if (same_signature((*e)->sig, args, options.out)) {
        prep = *e;
        break;
      }
    }
  }
  if (!prep) {  // Note [reduction kernel plans]
    detail::reduction_kernel_signature sig;
    sig.args.reserve(args.size());
    for (const ufunc_arg& a : args) {
      sig.args.emplace_back(a.is_scalar() ? kernel_arg_kind::scalar : kernel_arg_kind::array,
                            a.is_scalar() ? a.value.type : a.arr.type());
    }
    if (options.out.defined()) {
      sig.out_kind = kernel_arg_kind::array;
      sig.out_type = options.out.type();
    }
    std::vector<kernel_arg_info> info(sig.args.size());
    for (std::size_t a = 0; a < info.size(); ++a) {
      info[a].kind = sig.args[a].first;
      info[a].type = sig.args[a].second;
      info[a].type_name = "scalar";
    }
    kernel_arg_info out_info;
    out_info.kind = sig.out_kind;
    out_info.type = sig.out_type;
    auto made = std::make_shared<detail::reduction_kernel_prepared>();
    made->plan = plan_reduction_kernel(d, info, out_info);
    made->spec = red::spec_of(made->plan);
    made->spec.id = red::intern(made->spec);
    made->sig = std::move(sig);
    prep = made;
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (state_->prepared.size() >= 32) state_->prepared.erase(state_->prepared.begin());
    state_->prepared.push_back(std::move(made));
  }
  if (d.in.size() == 1 && args.size() == 1 && !args[0].is_scalar() && !options.out.defined()) {  // k(a): pinned
    auto& slot = state_->single[static_cast<std::size_t>(args[0].arr.type())];
    if (slot.load(std::memory_order_acquire) == nullptr) {
      std::lock_guard<std::mutex> lock(state_->mutex);
      if (slot.load(std::memory_order_relaxed) == nullptr) {
        state_->single_keep.push_back(prep);
        slot.store(prep.get(), std::memory_order_release);
      }
    }
  }
  const reduction_kernel_plan& p = prep->plan;
  array out = p.out_positional ? args.back().arr : options.out;
  const std::size_t nin = d.in.size();

  stream_scope on_stream(options.stream);
  // One array reduced whole, no out= (kern(a)): one launch for a short input (Note [small full reduction]).
  if (array r; nin == 1 && !args[0].is_scalar() && !options.axis && !options.keepdims && !out.defined() &&
               red::run_full(prep->spec, args[0].arr, p.out_type, r)) {
    return r;
  }
  std::vector<array> arrays;
  for (std::size_t k = 0; k < nin; ++k) {
    arrays.push_back(args[k].is_scalar() ? full(shape_t{}, args[k].value.cast(p.in_types[k]), p.in_types[k])
                                         : args[k].arr);
  }
  if (arrays.size() > 1) arrays = broadcast_arrays(arrays);
  const shape_t shape = arrays[0].shape();
  const int ndim = static_cast<int>(shape.size());
  const red::spec& s = prep->spec;
  red::call c;
  c.in = arrays[0];
  c.extra.assign(arrays.begin() + 1, arrays.end());
  c.axes = reduction_axes(options.axis, ndim);
  c.out_type = p.out_type;
  array r = red::run(s, c);
  if (options.keepdims) r = r.reshape(keepdims_shape(shape, c.axes));
  if (!out.defined()) return r;
  if (out.shape() != r.shape()) {
    throw value_error("Shape mismatch: out has shape " + shape_repr(out.shape()) + ", the reduction's result " +
                      shape_repr(r.shape()));
  }
  copyto(out, r, casting::unsafe);
  return out;
}

array reduction_kernel::reduce_all(const array& a) const {
  const auto* prep = state_->single[static_cast<std::size_t>(a.type())].load(std::memory_order_acquire);
  if (array r; prep != nullptr && red::run_full(prep->spec, a, prep->plan.out_type, r)) return r;
  return call(std::vector<ufunc_arg>{ufunc_arg(a)});  // plans (and pins) a's dtype, or takes the general path
}

}  // namespace cuarray
