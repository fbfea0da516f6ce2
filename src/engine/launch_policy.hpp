// The engines' launch configuration (block sizes, grid caps, work per thread, split rules), apart from dispatch.
#pragma once

#include <algorithm>
#include <cstdint>

#include "src/engine/kernel.hpp"

namespace cuarray::jit {

// Note [launch policy]
// As CUB keeps its tuning policies apart from its dispatch code, the numbers that shape a launch live here
// and the engines ask for them: the generators print some of them into the kernel source (block sizes,
// lanes, the unroll depth), so a change here changes the generated code, and with it the disk cache key.
// The numbers are the ones the engines were tuned with; retune them here, with the benchmarks on a GPU.

/// `Get(device)` cached per thread: launches ask on every call, and the device_* functions take a lock.
template <class T, T (*Get)(int)> T per_thread(int device) {
  thread_local T values[64] = {};
  if (device < 0 || device >= 64) return Get(device);
  T& c = values[device];
  if (!c) c = Get(device);
  return c;
}

/// Multiprocessor count of `device` (per_thread).
inline int sm_count(int device) { return per_thread<int, device_sm_count>(device); }

/// L2 cache bytes of `device` (per_thread).
inline std::int64_t l2_bytes(int device) { return per_thread<std::int64_t, device_l2_bytes>(device); }

/// The elementwise engine's grid-stride loop (Note [vectorised flat loop] in elementwise.cpp).
struct elementwise_policy {
  static constexpr unsigned block_threads = 256;
  /// Grid cap per multiprocessor: beyond it each thread loops over more items.
  static constexpr std::int64_t max_blocks_per_sm = 32;
  /// Bytes of the widest array operand each thread moves per step in the vectorised flat loop.
  static constexpr int vector_bytes = 16;
  /// The vectorised loop is used only when there are at least this many vectors' worth of elements.
  static constexpr std::int64_t min_vectors = 4;

  /// Elements each thread takes per block run in the strided run loop (Note [strided runs] in elementwise.cpp).
  static constexpr int run_elements = 8;

  /// Blocks for `items` thread work items (elements, or vectors in the vectorised loop), capped: each thread
  /// loops over more items beyond the cap.
  static unsigned grid(std::int64_t items, int device) {
    return capped_blocks((items + block_threads - 1) / block_threads, device);
  }
  /// `blocks` block work items, capped as in grid().
  static unsigned capped_blocks(std::int64_t blocks, int device) {
    std::int64_t cap = static_cast<std::int64_t>(sm_count(device)) * max_blocks_per_sm;
    return static_cast<unsigned>(std::max<std::int64_t>(1, std::min(blocks, cap)));
  }
  /// Blocks for `items` thread work items of a flat loop: one item per thread (Note [flat grids] in
  /// elementwise.cpp: on an H200 a streaming copy reaches 1.0x cudaMemcpy this way, 0.93x with the capped grid).
  /// At most 2**30 threads, so that the grid's stride fits the 32-bit index of a kernel whose n < 2**31.
  static unsigned flat_grid(std::int64_t items) {
    std::int64_t want = (items + block_threads - 1) / block_threads;
    return static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>(want, max_flat_blocks)));
  }
  static constexpr std::int64_t max_flat_blocks = (std::int64_t{1} << 30) / block_threads;
};

/// The reduction engine's thread mappings and split passes (Note [reduction kernels] in reduction.cpp).
struct reduction_policy {
  static constexpr int block_threads = 256;
  /// Rows mapping with many outputs: one warp per output.
  static constexpr int row_group_small = 32;
  /// Columns mapping: consecutive outputs per block, and lanes per output along the reduced axes.
  static constexpr int column_outputs = 32;
  static constexpr int column_lanes = 8;
  static_assert(column_outputs * column_lanes == block_threads, "the columns mapping fills the block");
  /// Loads each thread issues before combining them (memory parallelism).
  static constexpr int unroll = 4;
  /// The grid should reach this many blocks per multiprocessor; splitting the reduced range gets it there.
  static constexpr int target_blocks_per_sm = 8;
  /// A split must leave each lane at least this many elements.
  static constexpr std::int64_t min_items_per_lane = 16;
  static constexpr std::int64_t max_splits = 1024;

  /// Whether a reduction that reads `bytes` (all its operands) loads its vector rows evict-first (Note
  /// [streaming loads] in reduction.cpp): where they cannot stay in the L2 cache anyway.
  static bool stream_loads(std::int64_t bytes, int device) { return bytes > l2_bytes(device); }

  /// Blocks the grid should reach on `device`.
  static int target_blocks(int device) { return sm_count(device) * target_blocks_per_sm; }

  /// Group size of the rows mapping for `outputs` outputs of `units` loads each (elements, or 16-byte
  /// vectors): the whole block per output when the outputs alone cannot fill the GPU twice, or when the rows
  /// are long enough that every lane of the block keeps `unroll` loads (Note [long rows]); else a warp,
  /// narrowed (power of two) for short rows so that each lane keeps at least `unroll` loads.
  ///
  /// Note [long rows]: a warp per row puts 64 rows' streams on each multiprocessor and, for fewer rows than
  /// resident warps, leaves the GPU part empty (4096 rows: 512 blocks, half a wave); a block per row reads
  /// 8 streams a multiprocessor and fills the waves. Row sums of 1 GiB of float32 on an H200
  /// (tools/diag/rows23.py, the same loop with 16-byte vectors, four a lane in flight): 16384 rows of 16384 at
  /// 237 µs with a block a row against 243-245 with a warp, 65536 rows of 4096 at 237 against 240-241, 4096
  /// rows of 65536 at 238-240 against 260-264; CuPy's CUB reduction (a block a segment) 237, 237 and 240.
  static int row_group(std::int64_t outputs, std::int64_t units, int target) {
    if (outputs < 2 * static_cast<std::int64_t>(target) || units >= std::int64_t{block_threads} * unroll)
      return block_threads;
    int g = row_group_small;
    while (g > 1 && static_cast<std::int64_t>(g) * unroll > units) g >>= 1;
    return g;
  }

  /// Splits of the reduced range (length `reduced`) for `blocks` blocks of `lanes` lanes per output: enough
  /// to fill whole waves of `target` blocks (Note [whole waves]), but never so many that a lane gets fewer
  /// than min_items_per_lane elements.
  ///
  /// Note [whole waves]: `target` blocks are resident at once, so a grid of 1.1 or 1.45 times `target` runs a
  /// second, mostly empty wave after the first. Column sums of 16384² float32 on an H200
  /// (tools/diag/columns23.py, 16-byte vector columns) ran at 0.98 and 0.89 of the copy rate with 1152 and
  /// 1536 blocks (8.7 and 11.6 a multiprocessor), at 1.00 with 1024 (one wave, 0.97 full), and at 1.04 with
  /// 3072 or 4096 (three or four waves: the blocks finish unevenly, and more, shorter blocks even that out).
  /// The old rule, the fewest splits reaching `target`, chose 1152 and 1536. The rule is now the fewest splits
  /// whose grid fills three waves at least 90% on average, else one wave, else the old rule, within the cap.
  static std::int64_t splits(std::int64_t blocks, std::int64_t reduced, std::int64_t lanes, int target) {
    if (blocks >= target) return 1;
    const std::int64_t cap = std::min<std::int64_t>(max_splits,
                                                    std::max<std::int64_t>(1, reduced / (lanes * min_items_per_lane)));
    const std::int64_t t = target;
    for (std::int64_t w : {3, 1}) {
      const std::int64_t lo = std::max<std::int64_t>(1, w * t / blocks);
      for (std::int64_t s = lo; s <= 4 * lo + 4 && s <= cap; ++s) {
        const std::int64_t total = blocks * s, waves = (total + t - 1) / t;
        if (total * 10 >= w * t * 9 && total * 10 >= waves * t * 9) return s;
      }
    }
    return std::min<std::int64_t>((t + blocks - 1) / blocks, cap);
  }
};

}  // namespace cuarray::jit
