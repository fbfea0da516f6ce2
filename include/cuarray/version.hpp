// Library version.
#pragma once

#define CUARRAY_VERSION_MAJOR 0
#define CUARRAY_VERSION_MINOR 1
#define CUARRAY_VERSION_PATCH 0

namespace cuarray {
inline constexpr const char* version = "0.1.0";
}  // namespace cuarray
