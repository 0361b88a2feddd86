#!/usr/bin/env bash
# tests/gpu/multi.sh - one wavefront over several GPUs of one host (issue 29) and the batch engines
# over several GPUs (issue 30), in stages (PW_STAGES, default "tests tests-all bench largest huge
# genomes mpi nccl batch"; mpi runs with genomes); PW_BUILD_TARGETS narrows the build; needs a
# machine with 2 or more GPUs (nvidia-h100-x2, -x4, nvidia-h200-x2, -x4).  Logs under $OUT as one
# archive, a summary last.  The whole list takes longer than one device call (600 s): split it,
# e.g. "tests", then "tests-all bench", then "huge genomes mpi" on the same warm machine.
#   tests    bench/peer_hop.cu (one hand-over's latency between GPU 0 and 1 over NVLink, and bulk
#            peer copies) and bench/nccl_hop.cu (NCCL's), then test_dist --gpu with rank k on GPU k mod G (PW_TEST_GPUS): every
#            app's bands handed over between GPUs (direct peer stores and through the host) against
#            the CPU engines, for G = 2; while those run, the single-GPU checks of
#            PW_ONE_GPU_STAGES (bench/sw_lanes.sh's stages, e.g. "tests"; default none) on the last GPU
#   tests-all  test_dist --gpu with the ranks on all the GPUs (where there are more than 2)
#   bench    bench_dist --gpus G (rank k on GPU k) against one GPU, G = 2 and all: SW at
#            PW_DIST_SW (default 262144), HEAT f32 (8 pipelined sweeps) and SAT u8 -> i64 at
#            PW_DIST_GRID (default 32768), SAT f32 at PW_DIST_BIG (default 65536); kernel times,
#            median of 3, every result checked against the one-GPU run
#   largest  the issue's sizes for SAT f32 and HEAT f32 (8 pipelined sweeps): the largest grid that
#            fits one GPU (SAT 8 bytes a pixel there, HEAT 4) and the benchmark's host (bench/dist.c:
#            SAT 12 bytes a pixel, HEAT 16: a grid a rank), 2 GPUs against one, checked; one run each
#            (PW_LARGEST_RUNS, up to 3: the inputs and checks of 16e9 cells take a while)
#   huge     SAT u8 -> i64 on a grid 10% larger than one GPU's memory (9 bytes a pixel; PW_DIST_HUGE
#            sets the side) in bands over all the GPUs, checked exactly on its own (no one-GPU run)
#   genomes  whole M. leprae vs M. tuberculosis (carry .bench-data), 1/-3/5/2, on 1, 2 and all
#            GPUs with `peerwave sw --gpus G`: score, end cell and time; and one GPU at the bands'
#            tile width (128) beside the model's
#   mpi      the same pair with `mpirun -np G peerwave sw --backend cuda --mpi` (a process a GPU,
#            bands handed over through the host), G = 2 and all, and with --nccl (chunks over NCCL)
#   nccl     test_dist --mpi --gpu under mpirun -np 2, a GPU a process: every app's bands against
#            the CPU engines with the chunks through the hosts, then over NCCL (--nccl)
#   batch    test_batch --gpu and test_queue --gpu with every GPU visible: sw --db searches under
#            HDSS over GPUs 0 and 1 (a session and a worker a GPU) and the job queue over every GPU
#            (a device queue a GPU), every result against the textbook references; then
#            bench_job_queue on one GPU and on all (targets: test_batch test_queue bench_job_queue)
#   PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/multi.sh
set -u
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/pw-multi}
mkdir -p "$out"
. tests/gpu/device_lib.sh
stage() { [[ " ${PW_STAGES:-tests tests-all bench largest huge genomes mpi nccl batch} " == *" $1 "* ]]; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
pw_begin
summary "$gpus GPUs: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
nvidia-smi topo -m > "$out/topo.txt" 2>&1

# test_dist --gpu with rank k on GPU k mod $1 (GPUs 0 .. $1 - 1)
dist_tests() {
  CUDA_VISIBLE_DEVICES=$(seq -s, 0 $(($1 - 1))) PW_TEST_GPUS=$1 timeout 200 stdbuf -oL ./build-gpu/tests/test_dist --gpu \
    > "$out/test_dist_gpus$1.log" 2>&1
  summary "test_dist --gpu, ranks on $1 GPUs: rc=$? $(tail -1 "$out/test_dist_gpus$1.log")"
  grep FAIL "$out/test_dist_gpus$1.log" | head -6 | tee -a "$out/summary.txt"
}
# bench/sw_lanes.sh's stages PW_ONE_GPU_STAGES on the last GPU
one_gpu_checks() {
  PW_NO_BUILD=1 CUDA_VISIBLE_DEVICES=$((gpus - 1)) OUT="$out/one_gpu" PW_STAGES="${PW_ONE_GPU_STAGES}" PW_TEST_SHAPES=${PW_TEST_SHAPES:-40} \
    bash bench/sw_lanes.sh > "$out/one_gpu.log" 2>&1
  summary "one GPU (GPU $((gpus - 1))): $(sed -n '/==== summary/,$p' "$out/one_gpu.log" | tail -n +3 | tr '\n' '|')"
}

if stage nccl; then
  for mode in "" --nccl; do
    f="$out/test_dist_mpi_gpu${mode:+_nccl}.log"
    CUDA_VISIBLE_DEVICES=0,1 PW_TEST_GPUS=2 timeout ${PW_NCCL_LIMIT:-240} mpirun -np 2 ./build-gpu/tests/test_dist --mpi --gpu $mode > "$f" 2>&1
    summary "mpirun -np 2 test_dist --mpi --gpu $mode: rc=$? $(grep -E 'passed|SKIP' "$f" | tail -1)"
    grep -E "FAIL|NCCL WARN" "$f" | head -6 | tee -a "$out/summary.txt"
  done
fi

if stage batch; then
  for t in test_batch test_queue; do
    timeout 240 ./build-gpu/tests/$t --gpu > "$out/${t}_gpus.log" 2>&1
    summary "$t --gpu, $gpus GPUs visible: rc=$? $(tail -1 "$out/${t}_gpus.log")"
    grep -E "FAIL|device queue" "$out/${t}_gpus.log" | head -6 | tee -a "$out/summary.txt"
  done
  # the queue's mixed job set on one GPU and on all (every result checked against direct runs)
  for g in 1 $gpus; do
    timeout 200 ./build-gpu/bench_job_queue --orders ${PW_QUEUE_ORDERS:-5} --no-cpu-check --gpus $g > "$out/bench_job_queue_gpus$g.log" 2>&1
    summary "bench_job_queue --gpus $g: rc=$? $(grep -E '^summary' "$out/bench_job_queue_gpus$g.log" | cut -c1-200)"
    grep -A$((${PW_QUEUE_ORDERS:-5} + 1)) "^order " "$out/bench_job_queue_gpus$g.log" | tee -a "$out/summary.txt"
  done
fi

if stage tests; then
  # (with 3 or more GPUs the single-GPU checks run beside the 2-GPU tests, on a GPU of their own)
  [ -n "${PW_ONE_GPU_STAGES:-}" ] && [ $gpus -ge 3 ] && { one_gpu_checks & one_gpu=$!; }
  if [ -z "${PW_SKIP_HOPS:-}" ]; then # (PW_SKIP_HOPS=1: measured already, the tests only)
  nvcc -O3 -arch=sm_90 -std=c++17 -o build-gpu/peer_hop bench/peer_hop.cu > "$out/peer_hop.log" 2>&1 &&
    CUDA_VISIBLE_DEVICES=0,1 timeout 60 ./build-gpu/peer_hop 20000 >> "$out/peer_hop.log" 2>&1
  summary "peer_hop: rc=$?"
  tail -11 "$out/peer_hop.log" | tee -a "$out/summary.txt"
  # NCCL's send/recv hop beside it, and whether NCCL progresses beside a kernel holding the SMs
  # (bench/nccl_hop.cu: the CMake target where NCCL was found)
  if [ -x build-gpu/nccl_hop ]; then
    CUDA_VISIBLE_DEVICES=0,1 timeout 120 ./build-gpu/nccl_hop 2000 > "$out/nccl_hop.log" 2>&1
    summary "nccl_hop: rc=$?"
    tail -13 "$out/nccl_hop.log" | tee -a "$out/summary.txt"
  else
    summary "nccl_hop: not built (CMake found no NCCL)"
  fi
  fi
  dist_tests 2
  [ -n "${one_gpu:-}" ] && wait $one_gpu
  [ -n "${PW_ONE_GPU_STAGES:-}" ] && [ $gpus -lt 3 ] && one_gpu_checks
fi
stage tests-all && [ $gpus -gt 2 ] && dist_tests $gpus

if stage bench; then
  for g in 2 $gpus; do
    timeout 280 ./build-gpu/bench_dist --gpus $g --ranks $g --sw ${PW_DIST_SW:-262144} --grid ${PW_DIST_GRID:-32768} \
      > "$out/bench_dist_gpus$g.log" 2>&1
    summary "bench_dist --gpus $g: rc=$?"
    tail -3 "$out/bench_dist_gpus$g.log" | tee -a "$out/summary.txt"
    timeout 280 ./build-gpu/bench_dist --gpus $g --ranks $g --grid ${PW_DIST_BIG:-65536} --sat-f32 1 --only sat \
      > "$out/bench_dist_satf32_gpus$g.log" 2>&1
    summary "bench_dist --gpus $g SAT f32: rc=$? $(tail -1 "$out/bench_dist_satf32_gpus$g.log")"
    [ $g = $gpus ] && break
  done
fi

if stage largest; then
  pw_largest_sides
  timeout 280 ./build-gpu/bench_dist --gpus 2 --ranks 2 --grid $sat_side --sat-f32 1 --only sat --runs ${PW_LARGEST_RUNS:-1} > "$out/bench_dist_largest_sat.log" 2>&1
  summary "SAT f32 ${sat_side}^2, 2 GPUs against one: rc=$? $(tail -1 "$out/bench_dist_largest_sat.log")"
  timeout 280 ./build-gpu/bench_dist --gpus 2 --ranks 2 --grid $heat_side --only heat --runs ${PW_LARGEST_RUNS:-1} > "$out/bench_dist_largest_heat.log" 2>&1
  summary "HEAT f32 ${heat_side}^2 8 sweeps, 2 GPUs against one: rc=$? $(tail -1 "$out/bench_dist_largest_heat.log")"
fi

if stage huge; then
  mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
  side=${PW_DIST_HUGE:-$(awk -v m="$mib" 'BEGIN { printf "%d", int(sqrt(1.1 * m * 1048576 / 9) / 1024) * 1024 }')}
  timeout 400 ./build-gpu/bench_dist --gpus $gpus --ranks $gpus --grid $side --only sat --no-reference 1 \
    > "$out/bench_dist_huge.log" 2>&1
  rc=$?
  summary "SAT u8 -> i64 ${side}^2 ($(awk -v n=$side 'BEGIN { printf "%.0f", 9 * n * n / 1e9 }') GB; one GPU has $mib MiB) on $gpus GPUs: rc=$rc $(tail -1 "$out/bench_dist_huge.log")"
fi

if stage genomes && [ -f .bench-data/kmer_test_data.tar.gz ]; then
  genomes=$(mktemp -d)
  tar xzf .bench-data/kmer_test_data.tar.gz -C "$genomes" GCF_000195855.1_ASM19585v1_genomic.fna GCF_000195955.2_ASM19595v2_genomic.fna
  g1=$genomes/GCF_000195855.1_ASM19585v1_genomic.fna g2=$genomes/GCF_000195955.2_ASM19595v2_genomic.fna
  # (PW_GENOMES_EXTRA, option sets separated by ';', e.g. "--tile-h 64;--bands-per-gpu 4": every
  # count run again with each set as well; one GPU not with --bands-per-gpu)
  IFS=';' read -r -a extras <<< "${PW_GENOMES_EXTRA:-}"
  for extra in "" "${extras[@]}"; do
  for g in 1 2 $gpus; do
    [ $g = 1 ] && [[ "$extra" == *bands-per-gpu* ]] && continue
    f="$out/genomes_gpus$g${extra:+_$(echo $extra | tr -c 'a-z0-9\n' _)}.txt"
    t0=$(date +%s%N)
    PEERWAVE_DEBUG_BANDS=1 timeout 120 ./build-gpu/peerwave sw --backend cuda $([ $g -gt 1 ] && echo --gpus $g) $extra \
      --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 "$g1" "$g2" > "$f" 2>&1
    rc=$?
    grep "peerwave band" "$f" | tee -a "$out/summary.txt"
    summary "genomes on $g GPU(s) $extra: rc=$rc wall $(awk -v a=$t0 -v b=$(date +%s%N) 'BEGIN { printf "%.2f", (b - a) / 1e9 }')s $(grep -E '^(score|end_a|end_b|seconds|gcups|lane_bits|tile_w|tile_h|tile_w_source):' "$f" | tr '\n' ' ')"
    [ $g = $gpus ] && break
  done
  done
  # one GPU at a fixed width (PW_GENOMES_W128=1; before 2e4c7eb the bands ran at w = 128, h = 64)
  if [ -n "${PW_GENOMES_W128:-}" ]; then
    f="$out/genomes_gpus1_w128.txt"
    timeout 120 ./build-gpu/peerwave sw --backend cuda --tile-w 128 --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 "$g1" "$g2" > "$f" 2>&1
    summary "genomes on 1 GPU, --tile-w 128: rc=$? $(grep -E '^(score|end_a|end_b|seconds|tile_w):' "$f" | tr '\n' ' ')"
  fi
  if stage mpi && command -v mpirun > /dev/null; then
    for g in 2 $gpus; do
      for mode in "" --nccl; do
        f="$out/genomes_mpi$g${mode:+_nccl}.txt"
        t0=$(date +%s%N)
        timeout 150 mpirun -np $g ./build-gpu/peerwave sw --backend cuda --mpi $mode \
          --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 "$g1" "$g2" > "$f" 2>&1
        rc=$?
        summary "genomes, mpirun -np $g --mpi $mode: rc=$rc wall $(awk -v a=$t0 -v b=$(date +%s%N) 'BEGIN { printf "%.2f", (b - a) / 1e9 }')s $(grep -E '^(score|end_a|end_b|seconds|tile_w|tile_h|gcups):' "$f" | tr '\n' ' ')"
      done
      [ $g = $gpus ] && break
    done
  fi
  rm -rf "$genomes"
fi
# (the device tool brings back a few files: the logs as one archive, the summary beside it)
(cd "$out" && tar czf logs.tgz --exclude=./logs.tgz --exclude=./summary.txt . && find . -mindepth 1 ! -path ./logs.tgz ! -path ./summary.txt -delete)
echo "==== summary"
cat "$out/summary.txt"
