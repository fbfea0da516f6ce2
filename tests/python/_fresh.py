"""A snippet run in a fresh interpreter, for what only a new process shows: import order, first use from threads."""
import subprocess
import sys


def run_fresh(code, timeout=120):
    """Run `code` with ``python -c`` and fail the test with its stderr unless it exits 0."""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stderr
