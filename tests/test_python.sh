#!/usr/bin/env bash
# test_python.sh BUILD_DIR SOURCE_DIR - the Python module as a user gets it: a virtual environment
# (seeing Debian's numpy and pytest), `pip install .` from the source tree offline (--no-index: no
# package index is used or needed; the wheel holds this build's libpeerwave.so.0), then
# python/tests under pytest, from outside the source tree so that the installed module is the one
# imported.  SKIP (77) without python3-numpy, python3-pytest or python3-venv.
set -u
build=$(cd "$1" && pwd); src=$(cd "$2" && pwd)
# A python3 with numpy and pytest; one that also has PyTorch first (the GPU tests use it).
py=
for want in torch ""; do
  for p in python3 /usr/bin/python3; do
    command -v "$p" >/dev/null && "$p" -c "import numpy, pytest${want:+, $want}" 2>/dev/null && { py=$p; break 2; }
  done
done
[ -n "$py" ] || { echo "SKIP: needs python3 with numpy and pytest (apt-get install python3-numpy python3-pytest python3-venv)"; exit 77; }
[ -f "$build/libpeerwave.so.0" ] || { echo "FAIL: $build/libpeerwave.so.0 was not built"; exit 1; }
log="$build/python-install.log"
export PEERWAVE_PREBUILT_LIB="$build/libpeerwave.so.0"
if "$py" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)'; then
  # already a virtual environment (PyTorch's, on the GPU machines): install next to it, not over it
  where="$build/python-target"; rm -rf "$where"
  "$py" -m pip install --no-index --no-cache-dir --no-deps --target "$where" "$src" > "$log" 2>&1 ||
    { echo "FAIL: pip install . (log: $log)"; tail -20 "$log"; exit 1; }
  export PYTHONPATH="$where"; run_py=$py
else
  # Debian's python3 is externally managed: a virtual environment that sees its numpy and pytest
  "$py" -c 'import venv, ensurepip' 2>/dev/null || { echo "SKIP: needs python3-venv"; exit 77; }
  where="$build/python-venv"; rm -rf "$where"
  "$py" -m venv --system-site-packages "$where" || exit 1
  "$where/bin/pip" install --no-index --no-cache-dir "$src" > "$log" 2>&1 ||
    { echo "FAIL: pip install . (log: $log)"; tail -20 "$log"; exit 1; }
  run_py="$where/bin/python"
fi
cd "$build" || exit 1
installed=$("$run_py" -c 'import peerwave, os; print(os.path.dirname(peerwave.__file__))')
case "$installed" in "$where"/*) ;; *) echo "FAIL: imported peerwave from $installed, not the installed one"; exit 1;; esac
PEERWAVE_CACHE="$build/cell-cache-python" exec "$run_py" -m pytest -q -p no:cacheprovider "$src/python/tests"
