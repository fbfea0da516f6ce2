// Out-of-memory error message: the request, the pool's use and its limit, as the design asks.
#include "cuarray/errors.hpp"

#include <string>

namespace cuarray {

namespace {
std::string with_commas(std::size_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string oom_message(std::size_t requested, std::size_t used, std::size_t total, std::size_t limit) {
  std::string msg = "Out of memory allocating " + with_commas(requested) + " bytes (in use: " + with_commas(used) +
                    " bytes, held by the pool: " + with_commas(total) + " bytes, limit: ";
  msg += limit ? with_commas(limit) + " bytes)" : std::string("none)");
  return msg;
}
}  // namespace

out_of_memory_error::out_of_memory_error(std::size_t requested, std::size_t used, std::size_t total, std::size_t limit)
    : std::runtime_error(oom_message(requested, used, total, limit)),
      requested(requested),
      used(used),
      total(total),
      limit(limit) {}

}  // namespace cuarray
