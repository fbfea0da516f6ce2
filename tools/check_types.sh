#!/usr/bin/env bash
# Type check (CI, seconds): mypy over the examples and tests/typing/usage.py must pass (config: pyproject.toml's
# [tool.mypy]), and every line marked `# E` in tests/typing/fail/mistakes.py, and no other, must be an error, so that
# the check is known to catch misspelt names and wrong argument counts.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
"$PY" -m mypy
out=$("$PY" -m mypy tests/typing/fail/mistakes.py 2>&1 || true)
"$PY" - "$out" <<'PY'
import re, sys
path = "tests/typing/fail/mistakes.py"
want = {i for i, line in enumerate(open(path), 1) if line.rstrip().endswith("# E")}
got = {int(m) for m in re.findall(rf"^{re.escape(path)}:(\d+): error", sys.argv[1], re.M)}
if want != got:
    print(sys.argv[1])
    sys.exit(f"check_types: {path}: expected errors on lines {sorted(want)}; mypy reported {sorted(got)}")
print(f"check_types: mypy catches all {len(want)} planted mistakes")
PY
