#!/usr/bin/env bash
# with_numpy.sh SCRIPT ARGS... - run a Python test with a python3 that has numpy (the one on PATH,
# else Debian's /usr/bin/python3); exit 77 (CTest SKIP) when there is none.
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null && "$py" -c 'import numpy' 2>/dev/null; then exec "$py" "$@"; fi
done
echo "SKIP: no python3 with numpy (apt-get install python3-numpy)"
exit 77
