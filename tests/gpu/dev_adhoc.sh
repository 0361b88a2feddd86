set -u
OUT_ALL=$OUT
PW_COMMIT=$1 bash tests/gpu/session.sh tests > /dev/null 2>&1
head -32 $OUT_ALL/summary.txt
for cfg in "warp 128" "warp 256" "block 128"; do
  set -- $cfg
  echo "== processor $1 h $2"
  PEERWAVE_LINEAR_PROCESSOR=$1 timeout 150 ./build-gpu/bench_suite --only SW --runs 5 --tile-h $2 --small 2>&1 | grep -E "65536" | head -6
  PEERWAVE_LINEAR_PROCESSOR=$1 timeout 150 ./build-gpu/bench_suite --only DTW --runs 5 --tile-h $2 --small 2>&1 | grep -E "65536" | head -6
done
