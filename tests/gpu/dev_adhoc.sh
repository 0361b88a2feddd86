# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed); now: the GPU
# barrier schedule's pipelined sweeps (1ef...: first GPU run) -- `--check` against the CPU over
# shapes, sweeps, tiles, HEAT and SOR, f32 and f64, and the user heat cell; then HEAT 16384^2,
# 8 sweeps, barrier: new (build-gpu/peerwave) against the tree before (old/peerwave, carried).
set -u
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v
new=/tmp/v/new/peerwave old=/tmp/v/old/peerwave
export PEERWAVE_CACHE=/tmp/pw-cell-cache
ok=0 bad=0
check() { if timeout 30 "$@" > $out/last.log 2>&1 && grep -q "check: ok" $out/last.log; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD: $*"; tail -3 $out/last.log; fi; }
for size in 301x203 1000x777 97x2003 2x500 640x64; do
  for sweeps in 1 2 5 12; do
    check $new heat --size $size --sweeps $sweeps --strategy barrier --backend cuda --check
    check $new sor --size $size --sweeps $sweeps --strategy barrier --backend cuda --check --type f64
    check $new heat --size $size --sweeps $sweeps --strategy barrier --backend cuda --check --tile-h 32 --tile-w 7
  done
done
for sweeps in 1 3 8; do
  check $new run examples/cells/heat.c --size 500x433 --sweeps $sweeps --strategy barrier --backend cuda --check
  check $new run examples/cells/heat_grid.c --size 433x500 --sweeps $sweeps --strategy barrier --backend cuda --check
done
echo "checks: $ok ok, $bad bad"
secs() { sed -n 's/^seconds: //p'; }
for r in 1 2 3; do for v in old new; do
  echo "$v $(/tmp/v/$v/peerwave heat --size 16386x16386 --sweeps 8 --strategy barrier --backend cuda | secs)"
done; done | sort | awk '{a[$1] = a[$1] " " $2} END {for (k in a) print "HEAT 16384^2 8 sweeps barrier " k ":" a[k]}'
for v in old new; do echo "HEAT 16384^2 1 sweep barrier $v: $(/tmp/v/$v/peerwave heat --size 16386x16386 --sweeps 1 --strategy barrier --backend cuda | secs)"; done
