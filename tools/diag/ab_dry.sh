#!/usr/bin/env bash
# The host time of small calls, this tree against a base, in one device call (tools/diag/README.md).
#
#   here:   bash tools/diag/ab_dry.sh prepare REV PATH...   # REV's version of each PATH into .ab/base/
#   device: OUT=$OUT bash tools/diag/ab_dry.sh run [PAIRS]   # with carry [".ab"] (the folder is git-ignored)
#
# `run` builds this tree (gpu_check's build step, unless build-gpu is there already), copies the Python
# package aside, rebuilds with the base files in place (an incremental build), copies that aside, and puts the
# tree's files back and rebuilds. It then runs dry.py PAIRS times (default 10) on each build, alternating
# which goes first, 3 rounds each, and prints per call the median over pairs of new/base: the host's speed
# drifts by up to 2x within one call, so only neighbouring runs are compared. DRY_ONLY selects the calls
# (default: a.sum(), a+b (1024), ReductionKernel, RawKernel, empty(1024)). Every round is in $OUT/ab_dry.jsonl.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

if [ "${1:-}" = prepare ]; then
  rev=${2:?usage: ab_dry.sh prepare REV PATH...}
  shift 2
  rm -rf .ab/base
  for f in "$@"; do
    mkdir -p ".ab/base/$(dirname "$f")"
    git show "$rev:$f" >".ab/base/$f" || exit 1
  done
  echo "base files of $rev in .ab/base: $*"
  exit 0
fi

[ "${1:-}" = run ] || { sed -n 2,12p "$0"; exit 2; }
OUT=${OUT:?set OUT}
PAIRS=${2:-10}
[ -d .ab/base ] || { echo "no .ab/base: run 'ab_dry.sh prepare' here and carry .ab"; exit 2; }
if [ ! -d build-gpu/python/cuarray ]; then
  GPU_CHECK_INSTALL=build GPU_CHECK_BENCH_RESERVE_S=0 GPU_CHECK_BUDGET_S=200 \
    GPU_CHECK_SKIP="ctest selfcheck pytest numba sanitizer fuzz bench" OUT=$OUT bash tools/gpu_check.sh \
    >"$OUT/ab_build.txt" 2>&1 || { tail -20 "$OUT/ab_build.txt"; exit 1; }
fi
# (a warm machine keeps build-gpu from an earlier call: bring it up to this tree first)
cmake --build build-gpu -j 16 >"$OUT/ab_build_new.txt" 2>&1 || { tail -20 "$OUT/ab_build_new.txt"; exit 1; }
rm -rf /tmp/ab_new /tmp/ab_base /tmp/ab_saved
cp -a build-gpu/python /tmp/ab_new
mapfile -t files < <(cd .ab/base && find . -type f | sed 's|^\./||')
for f in "${files[@]}"; do
  mkdir -p "/tmp/ab_saved/$(dirname "$f")" && cp "$f" "/tmp/ab_saved/$f" && cp ".ab/base/$f" "$f"
done
cmake --build build-gpu -j 16 >"$OUT/ab_rebuild_base.txt" 2>&1 || { tail -20 "$OUT/ab_rebuild_base.txt"; exit 1; }
cp -a build-gpu/python /tmp/ab_base
for f in "${files[@]}"; do cp "/tmp/ab_saved/$f" "$f"; done
cmake --build build-gpu -j 16 >"$OUT/ab_rebuild_new.txt" 2>&1 || { tail -20 "$OUT/ab_rebuild_new.txt"; exit 1; }
echo "base: ${files[*]}"

export DRY_ONLY=${DRY_ONLY:-"a.sum() (1024),a+b (1024),ReductionKernel,RawKernel,empty(1024)"}
: >"$OUT/ab_dry.jsonl"
for i in $(seq 1 "$PAIRS"); do
  if [ $((i % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for v in $order; do
    line=$(cd tools/diag && PYTHONPATH=/tmp/ab_$v DRY_JSON=1 DRY_ROUNDS=3 timeout 60 python3 dry.py | tail -n 1)
    echo "{\"pair\": $i, \"build\": \"$v\", \"rows\": $line}" >>"$OUT/ab_dry.jsonl"
  done
done
python3 - "$OUT/ab_dry.jsonl" <<'EOF'
import collections, json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
by = collections.defaultdict(dict)
for r in runs:
    by[r["pair"]][r["build"]] = r["rows"]
ratios, times = collections.defaultdict(list), collections.defaultdict(lambda: collections.defaultdict(list))
for pair in by.values():
    if "base" not in pair or "new" not in pair:
        continue
    for call in pair["new"]:
        b, n = statistics.median(pair["base"][call]), statistics.median(pair["new"][call])
        ratios[call].append(n / b)
        times[call]["base"].append(b)
        times[call]["new"].append(n)
print(f"{'call':40s} {'base ns':>8s} {'new ns':>8s} {'new/base':>9s}  range over {len(by)} pairs")
for call, rs in ratios.items():
    print(f"{call:40s} {statistics.median(times[call]['base']):8.0f} {statistics.median(times[call]['new']):8.0f} "
          f"{statistics.median(rs):9.3f}  [{min(rs):.3f}, {max(rs):.3f}]")
EOF
