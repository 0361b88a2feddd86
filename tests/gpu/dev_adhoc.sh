# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed); now: HEAT
# 16384^2 one sweep, barrier, old against new (the one-sweep path without 64-bit divisions), and
# 8 sweeps once more; a --check of both.
set -u
mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v
secs() { sed -n 's/^seconds: //p'; }
for n in 1 8; do
  for r in 1 2 3; do for v in old new; do
    echo "$v $(/tmp/v/$v/peerwave heat --size 16386x16386 --sweeps $n --strategy barrier --backend cuda | secs)"
  done; done | sort | awk -v n=$n '{a[$1] = a[$1] " " $2} END {for (k in a) print "HEAT 16384^2 " n " sweeps barrier " k ":" a[k]}'
done
/tmp/v/new/peerwave heat --size 1000x777 --sweeps 7 --strategy barrier --backend cuda --check | grep check
/tmp/v/new/peerwave heat --size 1000x777 --sweeps 1 --strategy barrier --backend cuda --check | grep check
