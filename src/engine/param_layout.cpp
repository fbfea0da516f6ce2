// Kernel parameter sizes from a cubin's .nv.info.<kernel> section or from a PTX .entry declaration.
#include "src/engine/param_layout.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace cuarray::jit {

// Note [kernel parameters]
// RawKernel checks the number and sizes of the arguments of a launch against the kernel's parameters, so that
// a wrong call raises instead of letting the driver read past the argument list. The driver can tell one
// parameter's size (cuFuncGetParamInfo) but not how many there are: probing until it fails leaves a failed
// driver call in every program, which compute-sanitizer reports as an error. The count and sizes are instead
// read from the image the module was loaded from:
// - a cubin holds, per kernel, a section ".nv.info.<name>" of 4-byte aligned entries (u8 format, u8 attribute,
//   then: no value, a byte or a half-word in the same 4 bytes, or, for format 4, a u16 length and that many
//   bytes). Attribute 0x17 (kernel parameter info) is one entry per parameter: u32 index, u16 ordinal, u16
//   offset, u32 whose top 14 bits are the size. Attribute 0x19 is the total size of the parameters, used to
//   check the reading;
// - PTX declares them in its ".entry name(.param .type name[n], ...)" line.
// Anything else (a fatbin), or notes that do not add up, gives no layout, and the arguments go unchecked as in
// CuPy.

namespace {

template <class T> bool read_at(std::string_view b, std::size_t off, T& v) {
  if (off > b.size() || b.size() - off < sizeof(T)) return false;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return true;
}

std::optional<std::vector<std::size_t>> from_elf(std::string_view b, std::string_view name) {
  // 64-bit little-endian ELF only (every cubin NVRTC and nvcc write for a 64-bit host).
  if (b.size() < 64 || static_cast<unsigned char>(b[4]) != 2 || static_cast<unsigned char>(b[5]) != 1) {
    return std::nullopt;
  }
  std::uint64_t shoff = 0;
  std::uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  if (!read_at(b, 0x28, shoff) || !read_at(b, 0x3A, shentsize) || !read_at(b, 0x3C, shnum) ||
      !read_at(b, 0x3E, shstrndx) || shentsize < 64 || shstrndx >= shnum) {
    return std::nullopt;
  }
  auto section = [&](std::size_t i, std::uint32_t& sh_name, std::uint64_t& off, std::uint64_t& size) {
    std::size_t h = static_cast<std::size_t>(shoff) + i * shentsize;
    if (shoff > b.size()) return false;
    return read_at(b, h, sh_name) && read_at(b, h + 24, off) && read_at(b, h + 32, size) && off <= b.size() &&
           size <= b.size() - off;
  };
  std::uint32_t strname = 0;
  std::uint64_t stroff = 0, strsize = 0;
  if (!section(shstrndx, strname, stroff, strsize)) return std::nullopt;
  std::string_view strtab = b.substr(static_cast<std::size_t>(stroff), static_cast<std::size_t>(strsize));
  std::string wanted = ".nv.info." + std::string(name);
  for (std::size_t i = 0; i < shnum; ++i) {
    std::uint32_t sh_name = 0;
    std::uint64_t off = 0, size = 0;
    if (!section(i, sh_name, off, size) || sh_name >= strtab.size()) continue;
    std::string_view sname = strtab.substr(sh_name);
    sname = sname.substr(0, sname.find('\0'));
    if (sname != wanted) continue;
    std::string_view notes = b.substr(static_cast<std::size_t>(off), static_cast<std::size_t>(size));
    std::vector<std::size_t> sizes;
    std::vector<bool> seen;
    std::size_t end = 0;  // one past the last parameter byte
    long total = -1;      // attribute 0x19, when present
    std::size_t p = 0;
    while (p + 4 <= notes.size()) {
      auto format = static_cast<unsigned char>(notes[p]), attr = static_cast<unsigned char>(notes[p + 1]);
      if (format == 4) {
        std::uint16_t len = 0;
        read_at(notes, p + 2, len);
        if (notes.size() - p - 4 < len) return std::nullopt;
        if (attr == 0x17) {
          std::uint16_t ordinal = 0, offset = 0;
          std::uint32_t bits = 0;
          if (len < 12 || !read_at(notes, p + 8, ordinal) || !read_at(notes, p + 10, offset) ||
              !read_at(notes, p + 12, bits)) {
            return std::nullopt;
          }
          std::size_t psize = bits >> 18;
          if (ordinal >= sizes.size()) {
            sizes.resize(ordinal + std::size_t{1}, 0);
            seen.resize(ordinal + std::size_t{1}, false);
          }
          if (seen[ordinal]) return std::nullopt;
          seen[ordinal] = true;
          sizes[ordinal] = psize;
          end = std::max(end, static_cast<std::size_t>(offset) + psize);
        }
        p += 4 + len;
      } else if (format >= 1 && format <= 3) {
        if (attr == 0x19 && format == 3) {
          std::uint16_t v = 0;
          read_at(notes, p + 2, v);
          total = v;
        }
        p += 4;
      } else {
        return std::nullopt;
      }
    }
    for (bool s : seen) {
      if (!s) return std::nullopt;
    }
    if (total >= 0 ? static_cast<std::size_t>(total) != end : !sizes.empty()) return std::nullopt;
    return sizes;
  }
  return std::nullopt;
}

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

std::size_t ptx_type_size(std::string_view t) {
  if (t == ".pred") return 1;
  if (t.size() < 3) return 0;
  char k = t[1];
  if (k != 'u' && k != 's' && k != 'b' && k != 'f') return 0;
  std::string_view bits = t.substr(2);
  if (bits == "8") return 1;
  if (bits == "16") return 2;
  if (bits == "32") return 4;
  if (bits == "64") return 8;
  if (bits == "128") return 16;
  return 0;
}

std::optional<std::vector<std::size_t>> from_ptx(std::string_view b, std::string_view name) {
  std::size_t at = 0;
  while ((at = b.find(".entry", at)) != std::string_view::npos) {
    std::size_t p = at + 6;
    at = p;
    if (p >= b.size() || !(b[p] == ' ' || b[p] == '\t')) continue;
    while (p < b.size() && (b[p] == ' ' || b[p] == '\t')) ++p;
    std::size_t q = p;
    while (q < b.size() && ident_char(b[q])) ++q;
    if (b.substr(p, q - p) != name) continue;
    while (q < b.size() && (b[q] == ' ' || b[q] == '\t' || b[q] == '\n' || b[q] == '\r')) ++q;
    std::vector<std::size_t> sizes;
    if (q >= b.size() || b[q] != '(') return sizes;  // no parameter list: no parameters
    std::size_t close = b.find(')', q);
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view list = b.substr(q + 1, close - q - 1);
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t comma = list.find(',', start);
      std::string_view item = list.substr(start,
                                          comma == std::string_view::npos ? std::string_view::npos : comma - start);
      start = comma == std::string_view::npos ? list.size() + 1 : comma + 1;
      // Tokens: .param [.align n] .type [.ptr ...] name[count]
      std::size_t psize = 0, count = 1;
      bool any = false;
      std::size_t i = 0;
      while (i < item.size()) {
        while (i < item.size() && std::strchr(" \t\r\n", item[i])) ++i;
        std::size_t j = i;
        while (j < item.size() && !std::strchr(" \t\r\n", item[j])) ++j;
        std::string_view tok = item.substr(i, j - i);
        i = j;
        if (tok.empty()) continue;
        any = true;
        if (psize == 0 && tok[0] == '.' && ptx_type_size(tok)) {
          psize = ptx_type_size(tok);
        } else if (tok[0] != '.' && tok.back() == ']') {
          std::size_t lb = tok.find('[');
          if (lb == std::string_view::npos) return std::nullopt;
          count = 0;
          for (char c : tok.substr(lb + 1, tok.size() - lb - 2)) {
            if (c < '0' || c > '9') return std::nullopt;
            count = count * 10 + static_cast<std::size_t>(c - '0');
          }
        }
      }
      if (!any) continue;  // "()" or a trailing blank
      if (psize == 0) return std::nullopt;
      sizes.push_back(psize * count);
    }
    return sizes;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<std::size_t>> kernel_param_sizes(std::string_view image, std::string_view name) {
  if (image.size() >= 4 && image.substr(0, 4) == std::string_view("\x7f"
                                                                  "ELF",
                                                                  4))
    return from_elf(image, name);
  if (image.find(".entry") != std::string_view::npos) return from_ptx(image, name);
  return std::nullopt;
}

}  // namespace cuarray::jit
