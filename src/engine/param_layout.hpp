// Kernel parameter sizes read from a module image (a cubin's ELF notes or PTX text): no driver call is made,
// so none can fail (Note [kernel parameters]).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace cuarray::jit {

/// The sizes in bytes of the parameters of the kernel whose (lowered) name is `name`, in declaration order,
/// as `image` declares them. nullopt when the image is neither a cubin (ELF) nor PTX text (a fatbin, say),
/// when the kernel is not in it, or when its notes do not read consistently: the caller then checks nothing.
std::optional<std::vector<std::size_t>> kernel_param_sizes(std::string_view image, std::string_view name);

}  // namespace cuarray::jit
