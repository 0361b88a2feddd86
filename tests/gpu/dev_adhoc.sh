# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed): FullProc's stencil
# cell in two parts (the old values loaded before the previous step's barrier: issue 32's GS
# square-tile regression), checked against the CPU and timed before / after, with binaries built
# on the development machine, stripped and packed (peerwave.before: d646aca's, FullProc as before):
#   (cd build-gpu/carry && tar cf - peerwave peerwave.before | xz -T4 -3 > bins3.tar.xz)
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins3.tar.xz"])
set -u
tar xJf build-gpu/carry/bins3.tar.xz -C build-gpu/carry && mv build-gpu/carry/peerwave build-gpu/carry/peerwave.before build-gpu/
pw=./build-gpu/peerwave
for app in heat sor; do for ty in f32 f64; do for mode in "--strategy barrier --tile-shape square --tile-h 64 --tile-w 64" \
    "--strategy barrier --tile-shape square --tile-h 32 --tile-w 48" "--layout hybrid" "--layout hybrid --sweeps 5 --tile-h 32 --tile-w 40" \
    "--strategy launch --tile-shape square --tile-h 16 --tile-w 16" "--strategy tasks --layout hybrid"; do
  echo "$app $ty $mode: $(timeout 60 $pw $app --size 1001x777 --type $ty --sweeps 3 $mode --backend cuda --check | grep -E '^check' | tr '\n' ' ')"
done; done; done 2>&1 | sort | uniq -c | sort -rn | head -30
secs() { sed -n 's/^seconds: //p'; }
for app in heat sor; do for b in peerwave.before peerwave; do
  s=$(for r in 1 2 3; do ./build-gpu/$b $app --size 16386x16386 --strategy barrier --tile-shape square --tile-h 64 --tile-w 64 --backend cuda | secs; done | sort -g | sed -n 2p)
  h=$(for r in 1 2 3; do ./build-gpu/$b $app --size 16386x16386 --layout hybrid --backend cuda | secs; done | sort -g | sed -n 2p)
  echo "$app 16384^2 $b: GS square 64 $s s; PW hybrid (FullProc) $h s"
done; done
