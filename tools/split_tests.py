"""Print part K of N of the Python test files, for running the suite over several device calls.

Usage: python3 tools/split_tests.py N K   (1 <= K <= N)

Files go, largest first, to the part with the fewest bytes so far (ties: the lowest part; the known slow files
count extra), so that the parts take about as long; the split depends only on the files, so each call computes
the same parts, e.g. GPU_CHECK_PYTEST_ARGS="-m gpu -n 16 --dist load $(python3 tools/split_tests.py 2 1)".
Paths are relative to the repository root, where gpu_check.sh runs pytest.
"""
import os
import sys


# Files holding single tests of 15-42 s on an H200 (pytest --durations, 2026-11-29). Each part lists them first,
# so that pytest-xdist starts their long tests at once instead of late in the run: that day the second part,
# which holds the first two files late in its list, ran 353 s against 145 s for the first part.
SLOW_FIRST = ("test_scipy_ndimage_interpolation.py", "test_svd_low_memory.py", "test_scipy_special.py")
# What each of them costs beyond its size, in bytes of an ordinary test file: with all three in one part (by
# size alone, 2026-11-29 04:05) that part ran 339 s and the other 139 s, about 67 s each at the suite's rate of
# roughly 3,200 bytes of test file per second. Weighed so, they go to different parts.
SLOW_EXTRA_BYTES = 200_000


def weight(folder, f):
    return os.path.getsize(os.path.join(folder, f)) + (SLOW_EXTRA_BYTES if f in SLOW_FIRST else 0)


def parts(n, folder):
    files = sorted((f for f in os.listdir(folder) if f.startswith("test_") and f.endswith(".py")),
                   key=lambda f: (-weight(folder, f), f))
    sums, out = [0] * n, [[] for _ in range(n)]
    for f in files:
        k = min(range(n), key=lambda i: (sums[i], i))
        sums[k] += weight(folder, f)
        out[k].append(f)
    return [sorted(part, key=lambda f: f not in SLOW_FIRST) for part in out]  # (a stable sort)


def main(argv):
    if len(argv) != 3 or not argv[1].isdigit() or not argv[2].isdigit() or not 1 <= int(argv[2]) <= int(argv[1]):
        sys.exit(__doc__)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folder = os.path.join(root, "tests", "python")
    print(" ".join(os.path.join("tests", "python", f) for f in parts(int(argv[1]), folder)[int(argv[2]) - 1]))


if __name__ == "__main__":
    main(sys.argv)
