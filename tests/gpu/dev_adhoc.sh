# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed); now: which of
# d3858d8 (pw_fmodf by the quotient on the GPU) and 982ea4f (Warp3Proc's copy_slice in one loop)
# made the LU-like 3-D sweep slower (7.14 -> 7.87 ms at 512^3, session 10).  Three peerwave
# binaries built here and packed: A the tree, B with the GPU's pw_fmodf the library's fmodf,
# C with copy_slice's two loops back; each with its own cell cache (the key does not see headers).
set -u
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v
t=$(mktemp -d)
secs() { sed -n 's/^seconds: //p'; }
median3() { sort -g | sed -n 2p; }
lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
for n in 512 1024; do
  PEERWAVE_CACHE=/tmp/cA timeout 100 /tmp/v/A/peerwave run examples/cells/lu_like.c --size ${n}x${n}x${n} $lu --backend cuda -o $t/g.npy > /dev/null 2>&1
  for v in A B C; do
    export PEERWAVE_CACHE=/tmp/c$v
    d=$(for r in 1 2 3 4; do timeout 60 /tmp/v/$v/peerwave run examples/cells/demonstrator3d.c --grid $t/g.npy --param modulus=7 --backend cuda | secs; done | sort -g | sed -n 2p)
    l=$(for r in 1 2 3 4; do timeout 60 /tmp/v/$v/peerwave run examples/cells/lu_like.c --grid $t/g.npy ${lu/iterations=1/iterations=10} --backend cuda | secs; done | sort -g | sed -n 2p)
    echo "${n}^3 $v: demonstrator $d s, lu_like 10 rounds $l s"
  done
  rm -f $t/g.npy
done
rm -rf $t
