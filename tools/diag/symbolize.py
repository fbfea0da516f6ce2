"""Symbolise the samples of cpu_profile.py (written on the GPU machine) against unstripped local builds.

Usage: python symbolize.py samples_X.txt [object=path ...]; by default libcuarray and the extension map
to build-dev/python/cuarray/ (see README.md). Prints the self profile (innermost frame: function and
line, inlined frames resolved) and the inclusive profile of this project's functions (a sample counts
once for every function of libcuarray or the extension on its stack), which attributes the driver's and
libc's samples to the calls that led there."""
import collections
import gzip
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOCAL = {
    "libcuarray.so.0": "build-dev/python/cuarray/libcuarray.so.0.1.0",
    "libcuarray.so.0.1.0": "build-dev/python/cuarray/libcuarray.so.0.1.0",
    "_core.cpython-312-x86_64-linux-gnu.so": "build-dev/python/cuarray/_core.cpython-312-x86_64-linux-gnu.so",
}
OURS = set(LOCAL)


def resolve(base, offsets):
    """{offset: [(function, file:line), ...] innermost inline frame first} for one object."""
    path = LOCAL.get(base)
    if path is None:
        return {}
    path = path if os.path.isabs(path) else os.path.join(ROOT, path)
    offs = sorted(offsets)
    r = subprocess.run(["addr2line", "-f", "-C", "-i", "-a", "-e", path] + offs, capture_output=True, text=True)
    out, cur = {}, None
    lines = r.stdout.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("0x"):
            cur = offs[len(out)]
            out[cur] = []
            i += 1
        else:
            loc = lines[i + 1] if i + 1 < len(lines) else "?"
            out[cur].append((lines[i], loc.split("/")[-1].split(" ")[0]))
            i += 2
    return out


def main():
    path = sys.argv[1]
    for arg in sys.argv[2:]:
        k, v = arg.split("=", 1)
        LOCAL[k] = v
        OURS.add(k)
    samples = []
    for line in (gzip.open(path, "rt") if path.endswith(".gz") else open(path)):
        frames = [f.split() for f in line.strip().split(" | ") if f.strip()]
        samples.append([(os.path.basename(f[0]), f[1], f[2] if len(f) > 2 else "?") for f in frames])
    by_obj = collections.defaultdict(set)
    for s in samples:
        for base, off, _ in s:
            by_obj[base].add(off)
    names = {base: resolve(base, offs) for base, offs in by_obj.items()}

    def frames_of(base, off, sym):
        chain = names.get(base, {}).get(off)
        return chain if chain else [(sym, "?")]

    total = len(samples)
    self_fn, self_line, incl = collections.Counter(), collections.Counter(), collections.Counter()
    by_lib = collections.Counter()
    for s in samples:
        if not s:
            continue
        base, off, sym = s[0]
        by_lib[base] += 1
        chain = frames_of(base, off, sym)
        self_fn[(base, chain[-1][0][:100])] += 1
        self_line[(base, chain[0][0][:70], chain[0][1])] += 1
        seen = set()
        for b, o, sy in s:
            if b not in OURS:
                continue
            for fn, _ in frames_of(b, o, sy):
                seen.add((b, fn[:100]))
        for key in seen:
            incl[key] += 1
    print(f"{total} samples; by object: " + ", ".join(f"{b} {100 * k / total:.1f}%" for b, k in by_lib.most_common(8)))
    print("== self, by function (outermost inlined frame)")
    for (b, f), k in self_fn.most_common(30):
        print(f"{100 * k / total:6.2f}%  {b[:14]:14s} {f}")
    print("== self, by line (innermost frame)")
    for (b, f, loc), k in self_line.most_common(30):
        print(f"{100 * k / total:6.2f}%  {b[:14]:14s} {loc:30s} {f}")
    print("== inclusive, this project's functions")
    for (b, f), k in incl.most_common(45):
        print(f"{100 * k / total:6.2f}%  {b[:14]:14s} {f}")


if __name__ == "__main__":
    main()
