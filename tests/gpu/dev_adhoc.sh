# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed).  NEXT SESSION'S
# FIRST CALL (2 GPUs: nvidia-h200-x2; session 12's calls, 2026-11-29, are in git log of this file):
#   direct  test_dist --gpu with a rank a GPU, in one process (direct hand-overs and through the
#           host): the first-row wait moved into launch.cu (pw_gpu_band_before_launch, cbfd33e),
#           not yet run on a GPU
#   numpy   tests/test_numpy.py with PW_BACKEND=cuda: inthist's shared bin rule in the GPU's bin
#           kernel (a391d87) against numpy.histogram, heat/sor's refusals, every app against numpy
#   edges   bench/variants/stencil_band_edges.patch (edges/: test_dist, bench_dist built with it):
#           its test_dist --gpu on 2 GPUs, then HEAT 32768^2 8 sweeps on 2 GPUs, tree (new/bench_dist)
#           and variant alternating
#   nccl    mpirun -np 2 test_dist --mpi --gpu --nccl with PEERWAVE_DEBUG_LINK / _NCCL, every line
#           stamped: which case stops after the lazy-loading fix, and each thread's wait channel
#           after PW_WAIT seconds (default 150)
# Binaries built on the development machine (build-gpu at HEAD), stripped and packed, < 64 MiB:
#   mkdir -p /tmp/carry/y/new && strip -o /tmp/carry/y/new/test_dist build-gpu/tests/test_dist &&
#     strip -o /tmp/carry/y/new/peerwave build-gpu/peerwave && strip -o /tmp/carry/y/new/bench_dist build-gpu/bench_dist &&
#     (edges/: the same two test_dist, bench_dist from build-gpu with the patch applied, then reverted) &&
#     (cd /tmp/carry/y && tar cf - new | xz -T2 -3 > /work/main/build-gpu/carry/bins.tar.xz)
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins.tar.xz"], kind="nvidia-h200-x2")
# Logs come back as one archive ($OUT/logs.tgz: the device tool returns only a few files).
set -u
out=/tmp/pw-adhoc; mkdir -p "$out"
mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v
export PEERWAVE_CACHE=/tmp/pw-cell-cache PEERWAVE_WISDOM=/tmp/pw-wisdom.tsv
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
stage() { [[ " ${PW_STAGES:-direct numpy edges nccl} " == *" $1 "* ]]; }
say() { echo "$*" | tee -a $out/summary.txt; }
stamp() { perl -MTime::HiRes=time -ne 'BEGIN { $| = 1; $t0 = time } printf "%8.3f %s", time - $t0, $_'; }
n=/tmp/v/new

if stage direct; then
  CUDA_VISIBLE_DEVICES=0,1 PW_TEST_GPUS=2 timeout 240 $n/test_dist --gpu > $out/test_dist_gpu.log 2>&1
  say "test_dist --gpu, a rank a GPU: rc=$? $(tail -1 $out/test_dist_gpu.log)"; grep FAIL $out/test_dist_gpu.log | head -5
fi

if stage numpy; then
  PW_BACKEND=cuda timeout 240 python3 tests/test_numpy.py $n/peerwave > $out/test_numpy_cuda.log 2>&1
  say "test_numpy, --backend cuda: rc=$? $(tail -1 $out/test_numpy_cuda.log)"; grep FAIL $out/test_numpy_cuda.log | head -5
fi

if stage edges && [ -x /tmp/v/edges/test_dist ]; then
  CUDA_VISIBLE_DEVICES=0,1 PW_TEST_GPUS=2 timeout 240 /tmp/v/edges/test_dist --gpu > $out/test_dist_gpu_edges.log 2>&1
  say "edges: test_dist --gpu, a rank a GPU: rc=$? $(tail -1 $out/test_dist_gpu_edges.log)"; grep FAIL $out/test_dist_gpu_edges.log | head -5
  for round in 1 2; do for v in new edges; do
    timeout 200 /tmp/v/$v/bench_dist --gpus 2 --ranks 2 --only heat --grid 32768 > $out/dist_heat_${v}_$round.log 2>&1
    say "HEAT 32768^2 8 sweeps on 2 GPUs, $v round $round: rc=$? $(tail -1 $out/dist_heat_${v}_$round.log)"
  done; done
fi

if stage nccl; then
  (CUDA_VISIBLE_DEVICES=0,1 PW_TEST_GPUS=2 PEERWAVE_DEBUG_LINK=1 PEERWAVE_DEBUG_NCCL=1 timeout 200 \
     mpirun -np 2 stdbuf -oL -eL $n/test_dist --mpi --gpu --nccl 2>&1; echo "rc=$?") | grep --line-buffered -v "NCCL INFO" | stamp > $out/nccl.log &
  job=$!
  sleep ${PW_WAIT:-150}
  {
    for p in $(pgrep -f -- "test_dist --mpi --gpu --nccl" | grep -v mpirun); do
      echo "== process $p: $(tr '\0' ' ' < /proc/$p/cmdline)"
      for t in /proc/$p/task/*; do echo "$(basename $t) $(cat $t/comm) $(cat $t/wchan) $(cut -d' ' -f3 $t/stat)"; done
    done
    nvidia-smi
  } > $out/stacks.txt 2>&1
  wait $job
  say "nccl: $(grep -E 'passed|rc=' $out/nccl.log | tail -2 | tr '\n' ' ')"
  grep -E "FAIL|a band of columns|kernel is loaded|engine stopped" $out/nccl.log | tail -12 | tee -a $out/summary.txt
fi
tar czf ${OUT:-/tmp}/logs.tgz -C $out .
echo "==== summary"; cat $out/summary.txt
