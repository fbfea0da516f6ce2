// Compilation of one request with NVRTC (loaded by src/cuda/nvrtc.cpp), and compile_error's readable message.
#include "src/engine/compile.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "cuarray/errors.hpp"

namespace cuarray {

// ---------------------------------------------------------------------------------------------------------
// compile_error

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  // A final newline does not open one more line.
  if (!lines.empty() && lines.back().empty() && !text.empty() && text.back() == '\n') lines.pop_back();
  return lines;
}

/// A position NVRTC reports: "NAME(LINE): error: ..." (or "(LINE): ..." with no name).
struct log_position {
  std::size_t line;
  bool is_error;
};

// Only positions in the kernel's own file are quoted: one in a header names the header, whose text the
// exception does not hold, and NVRTC's own quotes of source lines are indented so they never match.
std::vector<log_position> parse_log_positions(std::string_view log, std::string_view name) {
  std::vector<log_position> out;
  for (std::string_view line : split_lines(log)) {
    std::size_t open = line.find('(');
    if (open == std::string_view::npos) continue;
    std::string_view file = line.substr(0, open);
    if (!file.empty() && file != name) continue;
    std::size_t i = open + 1, line_no = 0, digits = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9' && digits < 9) {
      line_no = line_no * 10 + static_cast<std::size_t>(line[i] - '0');
      ++i, ++digits;
    }
    if (digits == 0 || line_no == 0 || line.substr(i, 2) != "):") continue;
    std::string_view kind = line.substr(i + 2);
    std::size_t colon = kind.find(':');
    if (colon != std::string_view::npos) kind = kind.substr(0, colon);
    out.push_back({line_no, kind.find("error") != std::string_view::npos});
  }
  return out;
}

// Quote each error line of `source` with two lines of context each side, marked with '>'; windows that
// overlap are merged so that a line is printed once. Falls back to every reported position when the log
// names no error (an invalid option, for one, fails without any).
std::string quote_source(std::string_view log, std::string_view source, std::string_view name) {
  constexpr std::size_t context = 2, max_marked = 20, max_width = 240;
  std::vector<log_position> positions = parse_log_positions(log, name);
  std::vector<std::string_view> lines = split_lines(source);
  if (positions.empty() || lines.empty()) return {};
  bool any_error = std::any_of(positions.begin(), positions.end(), [](const log_position& p) { return p.is_error; });
  std::vector<std::size_t> marked;
  for (const log_position& p : positions) {
    // A position past the end (an unterminated block, say) points at the last line.
    if (p.is_error || !any_error) marked.push_back(std::min(p.line, lines.size()));
  }
  std::sort(marked.begin(), marked.end());
  marked.erase(std::unique(marked.begin(), marked.end()), marked.end());
  if (marked.size() > max_marked) marked.resize(max_marked);

  std::string out;
  std::size_t width = std::to_string(lines.size()).size(), printed_up_to = 0;
  for (std::size_t at : marked) {
    std::size_t first = std::max<std::size_t>(at > context ? at - context : 1, printed_up_to + 1);
    std::size_t last = std::min(at + context, lines.size());
    if (first > last) continue;
    if (printed_up_to != 0 && first > printed_up_to + 1) out += "  ...\n";
    for (std::size_t l = first; l <= last; ++l) {
      std::string number = std::to_string(l);
      out += std::binary_search(marked.begin(), marked.end(), l) ? "> " : "  ";
      out.append(width - number.size(), ' ');
      out += number;
      out += " | ";
      std::string_view text = lines[l - 1];
      if (text.size() > max_width) {
        out += text.substr(0, max_width);
        out += " ...";
      } else {
        out += text;
      }
      out += '\n';
    }
    printed_up_to = last;
  }
  return out;
}

std::string compile_message(const std::string& what, const std::string& log, const std::string& source,
                            const std::vector<std::string>& options, const std::string& name) {
  std::string msg = what;
  msg += "\nkernel: " + name;
  if (!options.empty()) {
    msg += "\noptions:";
    for (const std::string& o : options) msg += " " + o;
  }
  std::string_view trimmed = log;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ' || trimmed.back() == '\r'))
    trimmed.remove_suffix(1);
  msg += "\nNVRTC log:\n";
  msg += trimmed.empty() ? std::string_view("(empty)") : trimmed;
  std::string quoted = quote_source(log, source, name);
  if (!quoted.empty()) {
    msg += "\nsource (" + name + "):\n";
    msg += quoted;
    if (msg.back() == '\n') msg.pop_back();
  }
  return msg;
}

}  // namespace

compile_error::compile_error(const std::string& what, std::string log, std::string source,
                             std::vector<std::string> options, std::string name)
    : std::runtime_error(compile_message(what, log, source, options, name)),
      log(std::move(log)),
      source(std::move(source)),
      name(std::move(name)),
      options(std::move(options)) {}

namespace jit {

namespace {

/// Destroys the program on every path out of compile().
struct program_guard {
  const nvrtc_api& a;
  nvrtc_program prog = nullptr;
  ~program_guard() {
    if (prog) a.destroy_program(&prog);
  }
};

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

std::vector<std::string> effective_options(const compile_request& req) {
  std::vector<std::string> opts;
  // A second -std only draws a warning from NVRTC, but the caller's choice must win cleanly.
  bool has_std = std::any_of(req.options.begin(), req.options.end(), [](const std::string& o) {
    return o == "-std" || o == "--std" || starts_with(o, "-std=") || starts_with(o, "--std=");
  });
  if (!has_std) opts.push_back("-std=c++17");
  if (req.arch > 0) opts.push_back((req.ptx ? "-arch=compute_" : "-arch=sm_") + std::to_string(req.arch));
  opts.insert(opts.end(), req.options.begin(), req.options.end());
  return opts;
}

compile_result compile(const compile_request& req) {
  if (req.source.find('\0') != std::string::npos) {
    throw value_error("kernel source '" + req.name + "' contains a NUL character");
  }
  const nvrtc_api& a = nvrtc();
  std::vector<std::string> opts = effective_options(req);
  std::vector<const char*> opt_ptrs, header_sources, header_names;
  for (const std::string& o : opts) opt_ptrs.push_back(o.c_str());
  for (const auto& [include_name, contents] : req.headers) {
    header_names.push_back(include_name.c_str());
    header_sources.push_back(contents.c_str());
  }

  program_guard guard{a};
  nvrtc_check(a,
              a.create_program(&guard.prog, req.source.c_str(), req.name.c_str(),
                               static_cast<int>(header_sources.size()),
                               header_sources.empty() ? nullptr : header_sources.data(),
                               header_names.empty() ? nullptr : header_names.data()),
              "nvrtcCreateProgram");
  for (const std::string& e : req.name_expressions) {
    nvrtc_check(a, a.add_name_expression(guard.prog, e.c_str()), "nvrtcAddNameExpression");
  }
  nvrtc_result status = a.compile_program(guard.prog, static_cast<int>(opt_ptrs.size()), opt_ptrs.data());

  compile_result result;
  std::size_t log_size = 0;
  if (a.get_program_log_size(guard.prog, &log_size) == nvrtc_success && log_size > 1) {
    result.log.resize(log_size);
    if (a.get_program_log(guard.prog, result.log.data()) != nvrtc_success) log_size = 1;
    result.log.resize(log_size - 1);  // NVRTC counts the terminating NUL
  }
  if (status != nvrtc_success) {
    throw compile_error(nvrtc_error_name(a, status) + ": NVRTC could not compile '" + req.name + "'", result.log,
                        req.source, opts, req.name);
  }

  if (req.ptx) {
    std::size_t size = 0;
    nvrtc_check(a, a.get_ptx_size(guard.prog, &size), "nvrtcGetPTXSize");
    result.cubin.resize(size);
    if (size) nvrtc_check(a, a.get_ptx(guard.prog, result.cubin.data()), "nvrtcGetPTX");
    while (!result.cubin.empty() && result.cubin.back() == '\0') result.cubin.pop_back();
  } else {
    std::size_t size = 0;
    nvrtc_check(a, a.get_cubin_size(guard.prog, &size), "nvrtcGetCUBINSize");
    // NVRTC makes no cubin for a virtual architecture (its default one included) and says nothing.
    if (size == 0) {
      throw value_error("NVRTC produced no cubin for '" + req.name +
                        "': the target is a virtual architecture; set arch (e.g. 90) or pass -arch=sm_XX, "
                        "or ask for PTX");
    }
    result.cubin.resize(size);
    nvrtc_check(a, a.get_cubin(guard.prog, result.cubin.data()), "nvrtcGetCUBIN");
  }

  for (const std::string& e : req.name_expressions) {
    const char* lowered = nullptr;
    nvrtc_check(a, a.get_lowered_name(guard.prog, e.c_str(), &lowered), "nvrtcGetLoweredName");
    // The string belongs to the program, which the guard destroys: copy it now.
    result.lowered_names.emplace_back(lowered ? lowered : "");
  }
  return result;
}

}  // namespace jit
}  // namespace cuarray
