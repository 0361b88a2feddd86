# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed; earlier calls are
# in git log of this file).  Session 13 (2026-11-29) ran it five times on 2 GPUs (nvidia-h200-x2).
# Session 14 (2026-11-30) ran it three times on 2 GPUs: call 1 the header of session 13
# (PW_STAGES="gpu numpy dist largest": all passed, SAT f32 largest 1.69x, HEAT 1.82x), calls 2-3
# PW_STAGES="split largest" (bench_dist --weights: uneven splits slower; docs/PERFORMANCE.md).
# Session 15 (2026-11-30): call 1 ran tests/gpu/sw_rows.sh (PW_ENGINES=auto, built on the device)
# with test_gpu and test_dist --gpu at 4f322e1: all passed (the feed's first library run).  Call 2:
#   PW_BUILD=1 PW_STAGES="blocks heat32k ab" bash tests/gpu/dev_adhoc.sh   (2 GPUs, carry .bench-data)
# (ab: unroll 8 won, 5.72 s; blocks: fewer blocks slower; heat32k 1.455x.)  Then the unroll in the
# library (5f76fcf: sw_rows.sh passed, genomes 5.72 / 5.82 s, 2 GPUs 3.25 s) and test_sw_rows 339/339.
# Session 16 (2026-11-30, 2 H200s): call 1 PW_STAGES="ab gpu batch dist" at 490f6b3 (swr_lds128 lost,
# test_gpu 701/701, test_batch --gpu 6424/6424, test_dist --gpu 12/12), call 2 the swr32_unroll8 A/B
# (won: 8.03 s), call 3 PW_STAGES="nvrtc swrows gpu cells" at 8ee1a49 (all passed; it ran past 600 s
# with PW_CELLS_ONLY=linear,types,heat: give types its own call).
# Call 4 (4ac90fd): PW_LENGTHS=--skewed bash bench/hdss.sh -- HDSS 0.87x the GPU alone (mended since in
# 1d78cb4: the CPU group takes the queue's back; simulated only).
# Session 17 (2026-11-30, one H200): bench/hdss.sh --skewed and --mix at be4eb93 and at 3d4f8a0 (HDSS
# mix 1.021x the GPU alone), test_batch --gpu 11186/11186, one run under PEERWAVE_DEBUG_BATCH_GPU=1.  A
# test_gpu build did not finish in 330 s + 95 s (linear_apps.cu alone takes minutes: give a build of
# test_gpu 450 s), so pw_options.inthist_closed (d73fef2) has not run on a GPU yet.
# Session 18 (2026-11-30, one H200, binaries built here and carried: build-gpu/carry/bins.tar.xz):
# test_gpu 721/721 (inthist_closed), test_batch --gpu, test_numpy cuda 128/128; stage underfill
# (launch rounds: 4000 items 62.9 ms against 3000's 39.9); two queries in flight (4f27be9) and
# min_items (9561d01): skewed HDSS 1.047-1.067x the GPU alone; stage pairs (bench_batch_pairs).
# Session 19 (2026-11-30, one H200, binaries carried): call 1 the header of session 18 (34bcee7's
# slots verified: test_batch --gpu, test_progress --gpu + memcheck, HDSS skewed once); then the GPU
# pairs in 16-bit lanes and their pipeline, each step with PW_STAGES="batch progress pairsmem pairs"
# PW_BATCH_GPU=0 PW_PAIRS_ONLY=sw PW_PAIRS_LANES="16 32" PW_PAIRS_DEBUG=1 PW_PAIRS_SPECS="64:1:1:1000000
# 120:1:1:500000 256:1:1:200000 1000:1:1:20000 1000:1:1:20000:0:1 1000:1:1:20000:1:0" (all passed at
# f5c3fdb's code; memcheck with PW_PAIRSMEM_LENGTH=2400 too), and "gpu" and "swrows" with
# PW_SWROWS_GPUS=0 (test_gpu 721/721, test_sw_rows 340/340 after pw_allow_dynamic_smem moved).
# Last call, on 2 H200s (nvidia-h200-x2): PW_STAGES=batch, then PW_STAGES=pairs PW_PAIRS_GPUS=1 and 2
# (pairs over several GPUs, 157307d: test_batch --gpu 12176/12176, 1.12-1.25x on 2 GPUs).
# Session 27 (2026-12-02, one H200): PW_STAGES=cmpbins with build-gpu/cmp.tar.xz holding dcad950's and
# 7dbb29e's bench_suite (cmp/bench_suite_base, cmp/bench_suite_now) and carry/bins.tar.xz this tree's:
#   PW_CMPBINS="SOR,HEAT:16384:PW+HT,PW+FHT,GS+HT" (3 rounds), "SAT,INTHIST:16384:... SW,DTW:65536:..."
#   (2 rounds; SAT/INTHIST's 280 s cut round 2), "SOR,HEAT:32768:PW+HT,PW+FHT" (2 rounds, 500 s);
# then PW_BINS=build-gpu/carry2/bins.tar.xz PW_STAGES="dist" PW_DIST_GPUS=0 PW_DIST_NGPUS=1 and
# PW_STAGES="gpu cells" PW_GPU_GPU=0 PW_CELLS_GPU=0 (one GPU: bands share it): all passed.
# Session 28 (2026-12-02, one H200): PW_STAGES="dist demo3d" PW_DIST_GPUS=0 PW_DIST_NGPUS=1 (grid3 GPU
# bands: grids equal, cells count wrong; fixed), PW_STAGES="dist gpu cells" (test_gpu 721/721,
# test_cells 423/423), then PW_STAGES="dist demo3d" with PW_DEMO3D_BINS="/tmp/v/new/peerwave
# /tmp/v/cmp/peerwave_head" PW_DEMO3D_ROUNDS=7 (47ae5c7's peerwave as cmp/ in the carried tarball):
# test_dist --gpu 12/12, demonstrator level with 47ae5c7.
# Session 29 (2026-12-02, one H200): PW_STAGES="cells sweeps3d dist" PW_CELLS_ONLY="3d,4x8x1x1,2x4x3x5x8,
# 4x8x4x4x0x2,2x4x2x3x0x4,1x2x4x4x0x2" (the 3-D processor's pipelined sweeps: 201/201, 1.88x at 512^3 x8),
# then the same with the review fixes (292/292) and two mutant test_cells carried as mut/ (no waits: 32 failures).
# NEXT CALLS: the H100 before/after suite of issue 32 when an H100 is lent; on 2 GPUs, SAT f32's
# band kernels without their spills (0c9e86d): PW_STAGES="dist largest".
# Stages:
#   gpu      test_gpu on GPU PW_GPU_GPU (default 0), in the background (PW_TEST_SHAPES)
#   cells    test_cells --gpu on GPU 1 (PW_CELLS_ONLY sections)
#   nvrtc    test_nvrtc (every processor through NVRTC: CI runs it too)
#   swrows   test_sw_rows (forced engine, random shapes, 2 GPUs) and the genomes in 32-bit lanes and by default
#   batch    test_batch --gpu on GPU PW_BATCH_GPU (default 1), beside test_gpu
#   numpy    tests/test_numpy.py with PW_BACKEND=cuda (GPU PW_NUMPY_GPU, default 1)
#   npver    tests/gpu/numpy_edges_probe.py (this numpy's default-range f32 edges), test_numpy on the CPU
#   demo3d   seed 004's demonstrator on the 3-D processor at PW_DEMO3D_SIZES (512 1024)^3, median of 3
#   sweeps3d the demonstrator and lu_like.c with their sweeps pipelined in one launch against a sweep a
#            launch (PEERWAVE_PIPELINE_SWEEPS=0) at PW_SWEEPS3D_SIZES (128 256 512)^3, 1 and 8 sweeps
#   heat     HEAT 16384^2 one sweep and 8 sweeps on one GPU (bench_suite, median of 5)
#   cpusweeps  bench/cells_cpu_sweeps.sh with new/peerwave: user cells' sweeps on the CPU engines,
#            pipelined against a sweep a run (PEERWAVE_PIPELINE_SWEEPS=0)
#   gpusweeps  the same for the 2-D cells on the GPU (PW_GPUSWEEPS_SIZES, "4096 8192")
#   dist     test_dist --gpu on 2 GPUs
#   split    bench_dist --weights (PW_SPLIT_WEIGHTS): SAT f32 PW_SPLIT_SAT^2 and SW PW_SPLIT_SW on 2 GPUs
#   blocks   SAT f32 rows in flight: bench_dist --gpus 2 --blocks B (PW_BLOCKS, "0 66 99"; 0 = all) at
#            PW_BLOCKS_SIDE (65536)^2, and the largest grid with PW_BLOCKS_LARGEST (66)
#   heat32k  HEAT f32 32768^2 8 sweeps on 2 GPUs against one (bench_dist, median of 3)
#   ab       the warp-rows variants of bench/variants/README.md on GPU 0 (bench/sw_warp_rows_ab.sh)
#   underfill  one launch a query over N records of one length (PW_UNDERFILL LENGTH:RECORDS words,
#            PW_UNDERFILL_QUERIES) under PEERWAVE_DEBUG_BATCH_GPU: each launch's kernel time
#   hdss     bench/hdss.sh on the carried bench_batch_sw (PW_HDSS_LENGTHS, PW_HDSS_RUNS)
#   progress test_progress --gpu, then under compute-sanitizer memcheck
#   pairsmem bench_batch_pairs (3001 mixed pairs up to 700, DNA and protein) under memcheck
#   pairs    bench_batch_pairs (PW_PAIRS_SPECS LENGTH:QUERIES:SERIES:PAIRS; PW_PAIRS_DEBUG=1: where
#            the pairs' time goes)
#   orient   test_orient --gpu (GPU PW_BATCH_GPU);  align: test_align --gpu
#   cmpbins  bench/compare_bins.sh: every cmp/bench_suite_NAME of build-gpu/cmp.tar.xz (carry it; the
#            first in name order is the baseline) and new/bench_suite: PW_CMPBINS specs
#            "APPS:SIZE[:METHODS] ..." (SOR,HEAT:16384), PW_CMPBINS_ROUNDS rounds (3), at most
#            PW_CMPBINS_S seconds a spec (400)
#   compare  bench/compare.sh: build-gpu/cmp.tar.xz's cmp/bench_suite_base (carry it too) against
#            new/bench_suite, median of 5 a side, app by app (PW_COMPARE "APPS:SIZE ...")
#   largest  the largest grids that fit one GPU: SAT f32 and HEAT 8 sweeps (PW_LARGEST_APPS), 2 GPUs
#            against one (multi.sh's stage `largest`, one run each after a warm-up)
# Binaries built here (build-gpu at HEAD; tests/gpu/pack_bins.sh), stripped, packed into build-gpu/carry/bins.tar.xz
# (new/: test_gpu test_cells peerwave bench_suite bench_dist test_dist, those the stages use):
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins.tar.xz"], kind="nvidia-h200-x2")
# Logs come back under $OUT/adhoc (even when the call runs out of time: do not pipe it through tail).
set -u
# (logs straight under $OUT: a call cut by its time limit still brings back what it wrote)
out=${OUT:-/tmp/pw-adhoc}/adhoc; mkdir -p "$out"
stage() { [[ " ${PW_STAGES:-gpu cells numpy npver heat dist largest} " == *" $1 "* ]]; }
say() { echo "$*" | tee -a $out/summary.txt; }
n=/tmp/v/new
# (the 3-D stages: lu_like.c's parameters, one iteration; the median of a file of numbers)
lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
med() { sort -g $1 | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
if stage ab; then # (first, on GPU 0, while the build below keeps the CPUs busy; its summary comes later)
  (CUDA_VISIBLE_DEVICES=0 OUT=$out/ab PW_AB_SHAPES=${PW_AB_SHAPES:-40} PW_AB_ROUNDS=2 \
    PW_AB_VARIANTS="${PW_AB_VARIANTS:-L=bench/variants/swr_lds128.patch}" \
    timeout 300 bash bench/sw_warp_rows_ab.sh > $out/ab.log 2>&1; echo $? > $out/ab.rc) &
  ab_job=$!
fi
if [ -n "${PW_BUILD:-}" ]; then # (build here instead of carrying binaries: PW_BUILD=1)
  . tests/gpu/device_lib.sh
  PW_BUILD_TARGETS=${PW_BUILD_TARGETS:-"peerwave_cli bench_dist"} pw_build_gpu $out/build.log ||
    { echo "build FAILED"; tail -30 $out/build.log; exit 1; }
  mkdir -p $n && for b in peerwave bench_dist bench_suite bench_batch_pairs; do ln -sf $PWD/build-gpu/$b $n/; done
  for b in test_gpu test_dist test_cells test_batch test_nvrtc test_sw_rows test_progress test_orient test_align; do ln -sf $PWD/build-gpu/tests/$b $n/; done
else
  mkdir -p /tmp/v && tar xJf ${PW_BINS:-build-gpu/carry/bins.tar.xz} -C /tmp/v
  # (shared libraries the device lacks, libparasail for bench_batch_sw, travel beside the binaries)
  export LD_LIBRARY_PATH=$n${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
export PEERWAVE_CACHE=/tmp/pw-cell-cache PEERWAVE_WISDOM=/tmp/pw-wisdom.tsv

if stage ab; then wait $ab_job; say "warp-rows A/B: rc=$(cat $out/ab.rc)"; tee -a $out/summary.txt < $out/ab/summary.txt; fi
if stage nvrtc; then
  timeout 200 $n/test_nvrtc > $out/test_nvrtc.log 2>&1; say "test_nvrtc: rc=$? $(tail -1 $out/test_nvrtc.log)"
fi
if stage swrows; then # (the warp-rows engine forced on random shapes, over GPUs 0 and 1 too; the genomes in 32-bit lanes)
  PW_SW_ROWS_GPUS=${PW_SWROWS_GPUS:-0,1} PW_SW_ROWS_LARGE=1 timeout 300 $n/test_sw_rows > $out/test_sw_rows.log 2>&1
  say "test_sw_rows: rc=$? $(tail -2 $out/test_sw_rows.log | tr '\n' ' ')"; grep FAIL $out/test_sw_rows.log | head -5
  . tests/gpu/device_lib.sh
  mkdir -p /tmp/pw-genomes
  if pw_genomes /tmp/pw-genomes; then
    for e in rows32 auto; do
      PEERWAVE_SW_ENGINE=${e/auto/} timeout 100 $n/peerwave sw --backend cuda --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 "$g1" "$g2" > $out/genomes_$e.txt 2>&1
      say "genomes 1/-3/5/2 $e: rc=$? $(grep -E '^(score|end_a|end_b|seconds|lane_bits):' $out/genomes_$e.txt | tr '\n' ' ')"
    done
  fi
fi
if stage gpu; then # (in the background on GPU 0 while GPU 1 runs the cells and numpy)
  (CUDA_VISIBLE_DEVICES=${PW_GPU_GPU:-0} PW_TEST_SHAPES=${PW_TEST_SHAPES:-100} timeout 400 $n/test_gpu > $out/test_gpu.log 2>&1; echo "rc=$?" >> $out/test_gpu.log) &
  gpu_job=$!
fi
if stage cells; then
  CUDA_VISIBLE_DEVICES=${PW_CELLS_GPU:-1} PW_TEST_ONLY=${PW_CELLS_ONLY:-linear,heat,3d,plane} timeout ${PW_CELLS_S:-240} $n/test_cells --gpu > $out/test_cells_gpu.log 2>&1
  say "test_cells --gpu: rc=$? $(tail -1 $out/test_cells_gpu.log)"; grep FAIL $out/test_cells_gpu.log | head -5
fi
if stage batch; then # (GPU 1, beside test_gpu on GPU 0: the searches, the DTW overflow path)
  CUDA_VISIBLE_DEVICES=${PW_BATCH_GPU:-1} timeout 240 $n/test_batch --gpu > $out/test_batch_gpu.log 2>&1
  say "test_batch --gpu: rc=$? $(tail -1 $out/test_batch_gpu.log)"; grep FAIL $out/test_batch_gpu.log | head -5 | cut -c1-300
fi
if stage progress; then # (the hooks and the cancel flag on the GPU, batch searches among them; then under memcheck)
  CUDA_VISIBLE_DEVICES=${PW_BATCH_GPU:-1} timeout 200 $n/test_progress --gpu > $out/test_progress_gpu.log 2>&1
  say "test_progress --gpu: rc=$? $(tail -1 $out/test_progress_gpu.log)"; grep FAIL $out/test_progress_gpu.log | head -5 | cut -c1-300
  CUDA_VISIBLE_DEVICES=${PW_BATCH_GPU:-1} timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 $n/test_progress --gpu > $out/memcheck_progress.log 2>&1
  say "memcheck test_progress --gpu: rc=$? $(grep -E 'ERROR SUMMARY|passed' $out/memcheck_progress.log | tail -2 | tr '\n' ' ')"
fi
if stage numpy; then # (GPU 1, or GPU 0 with PW_NUMPY_GPU=0)
  CUDA_VISIBLE_DEVICES=${PW_NUMPY_GPU:-1} PW_BACKEND=cuda timeout 200 python3 tests/test_numpy.py $n/peerwave > $out/test_numpy_cuda.log 2>&1
  say "test_numpy, --backend cuda: rc=$? $(tail -1 $out/test_numpy_cuda.log)"; grep FAIL $out/test_numpy_cuda.log | head -3 | cut -c1-300
fi
if stage npver; then
  python3 tests/gpu/numpy_edges_probe.py 2>&1 | tee -a $out/summary.txt
  PW_BACKEND=cpu timeout 100 python3 tests/test_numpy.py $n/peerwave > $out/test_numpy_cpu.log 2>&1
  say "test_numpy, --backend cpu: rc=$? $(tail -1 $out/test_numpy_cpu.log)"
fi
if stage gpu; then
  wait $gpu_job
  say "test_gpu: $(tail -2 $out/test_gpu.log | tr '\n' ' ')"; grep -E "FAIL" $out/test_gpu.log | head -6 | cut -c1-400 | tee -a $out/summary.txt
  grep -E "^inthist:" $out/test_gpu.log | tee -a $out/summary.txt
fi
if stage orient; then # (SW/DTW pairs run the shorter side down the rows; the auto backend's rule)
  CUDA_VISIBLE_DEVICES=${PW_BATCH_GPU:-1} timeout 200 $n/test_orient --gpu > $out/test_orient_gpu.log 2>&1
  say "test_orient --gpu: rc=$? $(tail -1 $out/test_orient_gpu.log)"; grep FAIL $out/test_orient_gpu.log | head -5 | cut -c1-300
fi
if stage align; then # (full alignments on the GPU: tracebacks against the CPU's)
  CUDA_VISIBLE_DEVICES=${PW_BATCH_GPU:-1} timeout 200 $n/test_align --gpu > $out/test_align_gpu.log 2>&1
  say "test_align --gpu: rc=$? $(tail -1 $out/test_align_gpu.log)"; grep FAIL $out/test_align_gpu.log | head -5 | cut -c1-300
fi
if stage compare; then # (issue 32's before/after: build-gpu/cmp.tar.xz's baseline bench_suite, carried, against new/'s)
  mkdir -p /tmp/v && tar xJf build-gpu/cmp.tar.xz -C /tmp/v
  for spec in ${PW_COMPARE:-"SAT,INTHIST,HEAT,SOR:16384"}; do
    OUT=$out/compare PW_BASE_BIN=/tmp/v/cmp/bench_suite_base PW_NEW_BIN=$n/bench_suite timeout ${PW_COMPARE_S:-280} \
      bash bench/compare.sh ${PW_COMPARE_BASE:-dcad950} --size ${spec#*:} --only ${spec%%:*} > $out/compare_${spec%%[:,]*}.log 2>&1
    say "compare ${spec}: rc=$?"; grep "new/base" $out/compare/compare_summary.txt >> $out/summary.txt
    mv $out/compare/compare_summary.txt $out/compare_${spec%%[:,]*}_summary.txt
  done
fi
if stage cmpbins; then # (several bench_suite binaries, alternating rounds: build-gpu/cmp.tar.xz's cmp/bench_suite_NAME, the first in name order the baseline, and new/'s)
  mkdir -p /tmp/v && { [ -d /tmp/v/cmp ] || tar xJf build-gpu/cmp.tar.xz -C /tmp/v; }
  bins=""; for b in /tmp/v/cmp/bench_suite_*; do [ -x "$b" ] && bins="$bins ${b##*/bench_suite_}=$b"; done
  [ -n "$bins" ] || say "compare_bins: no cmp/bench_suite_NAME in build-gpu/cmp.tar.xz (only new/ is compared with itself)"
  for spec in ${PW_CMPBINS:-"SOR,HEAT:16384"}; do
    set -- ${spec//:/ }
    [ $# -ge 2 ] || { say "compare_bins: spec $spec is not APPS:SIZE[:METHODS]"; continue; }
    d=$out/cmpbins_${1%%,*}_$2
    OUT=$d PW_BINS="${bins# } new=$n/bench_suite" timeout ${PW_CMPBINS_S:-400} \
      bash bench/compare_bins.sh ${PW_CMPBINS_ROUNDS:-3} --runs 5 --only $1 --size $2 ${3:+--method $3} > $d.log 2>&1
    say "compare_bins $spec: rc=$?"
    # (a call cut by its time limit leaves no table: make it from the rounds it finished)
    [ -f $d/compare_bins.txt ] || OUT=$d bash bench/compare_bins.sh --table $d/lines.txt > /dev/null 2>&1
    cat $d/compare_bins.txt >> $out/summary.txt
    gzip -f $d/lines.txt # (compare_bins.sh --table reads it gzipped too)
  done
fi
if stage underfill; then # (issue 30's question: do a GPU block's long records lose to underfill?)
  # one launch a query over N records of one length, N from a full GPU down to HDSS's block sizes;
  # PEERWAVE_DEBUG_BATCH_GPU prints each launch's kernel time (stderr)
  for spec in ${PW_UNDERFILL:-4000:20000 4000:8000 4000:4000 4000:2000 40:980000 40:200000 40:50000}; do
    set -- ${spec/:/ }
    PEERWAVE_DEBUG_BATCH_GPU=1 timeout 120 $n/bench_batch_sw --backend cuda --length $1 --records $2 --queries ${PW_UNDERFILL_QUERIES:-5478} --sample 50 > $out/underfill_$1_$2.log 2>&1
    say "length $1 x $2 records, queries ${PW_UNDERFILL_QUERIES:-5478}: rc=$? $(grep -E '^search' $out/underfill_$1_$2.log | head -1 | cut -c1-90)"
    grep -E 'kernel and copy' $out/underfill_$1_$2.log | sed -E 's/.*query ([0-9]+): ([0-9]+) items, kernel and copy ([0-9.]+) ms.*/  q\1 \2 items \3 ms/' | tr '\n' ' ' | tee -a $out/summary.txt; echo | tee -a $out/summary.txt
  done
fi
if stage hdss; then # (bench/hdss.sh on the carried bench_batch_sw: the rules since 3d4f8a0)
  for lengths in ${PW_HDSS_LENGTHS:---skewed --mix}; do
    OUT=$out/hdss$lengths PW_BENCH_BIN=$n/bench_batch_sw PW_LENGTHS=$lengths PW_HDSS_RUNS=${PW_HDSS_RUNS:-2} timeout 280 bash bench/hdss.sh > $out/hdss$lengths.log 2>&1
    say "bench/hdss.sh $lengths: rc=$?"; grep -E "^run" $out/hdss$lengths.log | tee -a $out/summary.txt
  done
fi
if stage pairs; then # (the GPU engines for many DTW series and many SW pairs, against the CPU backend)
  # spec LENGTH:QUERIES:SERIES:PAIRS[:PROTEIN:MIXED]; each in the lanes of PW_PAIRS_LANES ("16 32":
  # the default kernels, then PEERWAVE_PAIRS_LANES=32); PW_PAIRS_ONLY=sw|dtw
  for spec in ${PW_PAIRS_SPECS:-256:1000:5000:200000 1000:200:2000:20000}; do
    set -- ${spec//:/ }
    for lanes in ${PW_PAIRS_LANES:-16}; do
      log=$out/pairs_$1_${5:-0}${6:-0}_$lanes.log
      PEERWAVE_PAIRS_LANES=$([ $lanes = 32 ] && echo 32) PEERWAVE_DEBUG_BATCH_GPU=${PW_PAIRS_DEBUG:-} timeout 240 $n/bench_batch_pairs --backend cuda --series-length $1 --pair-length $1 --queries $2 --db $3 --pairs $4 \
        --runs 3 --sample 20 --protein ${5:-0} --mixed ${6:-0} ${PW_PAIRS_ONLY:+--only $PW_PAIRS_ONLY} ${PW_PAIRS_GPUS:+--gpus $PW_PAIRS_GPUS} > $log 2>&1
      say "bench_batch_pairs $spec lanes $lanes: rc=$?"; grep -E "^(DTW|SW)" $log | tee -a $out/summary.txt
      grep -E "^pairs gpu|^SW pairs: GPU" $log | tail -6 | tee -a $out/summary.txt
    done
  done
fi
if stage pairsmem; then # (the pairs kernels and pipeline under compute-sanitizer memcheck: mixed lengths, segments)
  for protein in 0 1; do
    compute-sanitizer --tool memcheck $n/bench_batch_pairs --backend cuda --only sw --pairs ${PW_PAIRSMEM_PAIRS:-3001} --pair-length ${PW_PAIRSMEM_LENGTH:-700} --mixed 1 \
      --protein $protein --runs 1 > $out/pairsmem_$protein.log 2>&1
    say "memcheck bench_batch_pairs protein $protein: rc=$? $(grep -E '^SW pairs' $out/pairsmem_$protein.log | grep -o 'check [a-zA-Z]*') $(grep -E 'ERROR SUMMARY' $out/pairsmem_$protein.log)"
  done
fi
if stage demo3d; then # (seed 004's demonstrator on the 3-D processor: kernel seconds, median of
  # PW_DEMO3D_ROUNDS (5) rounds, each binary of PW_DEMO3D_BINS (new/peerwave) in turn; the grids
  # compared between binaries, each with its own cell cache; bench/cells3d.sh's run without its build)
  t3=$(mktemp -d)
  bins3=${PW_DEMO3D_BINS:-$n/peerwave}
  for s3 in ${PW_DEMO3D_SIZES:-512 1024}; do
    timeout 200 $n/peerwave run examples/cells/lu_like.c --size ${s3}x${s3}x${s3} $lu --backend cuda -o $t3/g.npy > /dev/null 2>&1
    for r in $(seq ${PW_DEMO3D_ROUNDS:-5}); do
      for b in $bins3; do
        PEERWAVE_CACHE=/tmp/pw-cache-$(basename $b) timeout 100 $b run examples/cells/demonstrator3d.c --grid $t3/g.npy --param modulus=7 --backend cuda -o $t3/out.npy | sed -n 's/^seconds: //p' >> $t3/$(basename $b).s
        [ -f $t3/first.npy ] || cp $t3/out.npy $t3/first.npy
        cmp -s $t3/out.npy $t3/first.npy || say "demonstrator ${s3}^3: $b's grid DIFFERS"
      done
    done
    for b in $bins3; do
      secs3=$(med $t3/$(basename $b).s)
      say "demonstrator ${s3}^3 $b: $secs3 s ($(awk -v s=$secs3 -v n=$s3 'BEGIN { if (s > 0) printf "%.1f Gpoints/s", n * n * n / s / 1e9 }'), median of $(wc -l < $t3/$(basename $b).s))"
      rm -f $t3/$(basename $b).s
    done
    rm -f $t3/first.npy
  done
  rm -rf $t3
fi
if stage sweeps3d; then # (the 3-D processor's sweeps pipelined in one launch against a sweep a launch,
  # PEERWAVE_PIPELINE_SWEEPS=0, the same binary: kernel seconds, median of PW_SWEEPS3D_ROUNDS (5),
  # the two in turn, grids compared; sizes PW_SWEEPS3D_SIZES, sweeps PW_SWEEPS3D_SWEEPS)
  t3=$(mktemp -d)
  for s3 in ${PW_SWEEPS3D_SIZES:-128 256 512}; do
    timeout 200 $n/peerwave run examples/cells/lu_like.c --size ${s3}x${s3}x${s3} $lu --backend cuda -o $t3/g.npy > /dev/null 2>&1
    for sw3 in ${PW_SWEEPS3D_SWEEPS:-1 8}; do
      for cell3 in demonstrator3d lu_like; do
        args3="--param modulus=7"; [ $cell3 = lu_like ] && args3="$lu"
        for r in $(seq ${PW_SWEEPS3D_ROUNDS:-5}); do
          for mode in 1 0; do
            PEERWAVE_PIPELINE_SWEEPS=$mode timeout 100 $n/peerwave run examples/cells/$cell3.c --grid $t3/g.npy $args3 --sweeps $sw3 --backend cuda -o $t3/out$mode.npy | sed -n 's/^seconds: //p' >> $t3/m$mode.s
          done
          cmp -s $t3/out1.npy $t3/out0.npy || say "$cell3 ${s3}^3 x$sw3: pipelined grid DIFFERS from a sweep a launch"
        done
        p3=$(med $t3/m1.s); o3=$(med $t3/m0.s)
        say "$cell3 ${s3}^3 x$sw3 sweeps: pipelined $p3 s, a sweep a launch $o3 s ($(awk -v a=$o3 -v b=$p3 'BEGIN { if (b > 0) printf "%.2fx", a / b }'); $(awk -v s=$p3 -v n=$s3 -v k=$sw3 'BEGIN { if (s > 0) printf "%.1f Gpoints/s", n * n * n * k / s / 1e9 }'))"
        rm -f $t3/m1.s $t3/m0.s
      done
    done
  done
  rm -rf $t3
fi
if stage cpusweeps; then # (user cells' sweeps on the CPU engines, pipelined against a sweep a run: all the CPUs)
  PW_BIN=$n/peerwave OUT=$out timeout ${PW_CPUSWEEPS_S:-300} bash bench/cells_cpu_sweeps.sh > $out/cells_cpu_sweeps.log 2>&1
  say "cells_cpu_sweeps: rc=$?"; cat $out/cells_cpu_sweeps.txt >> $out/summary.txt
fi
if stage gpusweeps; then # (the same 2-D cells on the GPU: FullProc's sweeps pipelined by their reads, against a launch a sweep)
  PW_BACKEND=cuda PW_CPU_2D_SIZES="${PW_GPUSWEEPS_SIZES:-4096 8192}" PW_BIN=$n/peerwave OUT=$out/gpu timeout ${PW_GPUSWEEPS_S:-240} \
    bash bench/cells_cpu_sweeps.sh > $out/cells_gpu_sweeps.log 2>&1
  say "cells_gpu_sweeps: rc=$?"; cat $out/gpu/cells_cpu_sweeps.txt >> $out/summary.txt
fi
if stage heat; then
  for sweeps in 1 8; do
    CUDA_VISIBLE_DEVICES=0 timeout 120 $n/bench_suite --runs 5 --only HEAT --size 16384 --sweeps $sweeps 2>&1 | grep -E "^(HEAT|#) " | sed "s/^/sweeps $sweeps: /" | tee -a $out/summary.txt
  done
fi
if stage dist; then # (test_dist, then the largest grids: stage largest)
  CUDA_VISIBLE_DEVICES=${PW_DIST_GPUS:-0,1} PW_TEST_GPUS=${PW_DIST_NGPUS:-2} timeout 200 $n/test_dist --gpu > $out/test_dist_gpu.log 2>&1
  say "test_dist --gpu, a rank a GPU: rc=$? $(tail -1 $out/test_dist_gpu.log)"; grep FAIL $out/test_dist_gpu.log | head -5
fi
if stage split; then # (uneven splits, bench_dist --weights: does a wider first band take the start lag?)
  for w in ${PW_SPLIT_WEIGHTS:-1,1 1.15,1 1.3,1}; do
    timeout 120 $n/bench_dist --gpus 2 --ranks 2 --grid ${PW_SPLIT_SAT:-65536} --sat-f32 1 --only sat --runs 1 --weights $w > $out/split_sat_$w.log 2>&1
    say "split $w: SAT f32 ${PW_SPLIT_SAT:-65536}^2: rc=$? $(tail -1 $out/split_sat_$w.log)"
    timeout 120 $n/bench_dist --gpus 2 --ranks 2 --sw ${PW_SPLIT_SW:-262144} --only sw --runs 3 --weights $w > $out/split_sw_$w.log 2>&1
    say "split $w: SW ${PW_SPLIT_SW:-262144}^2: rc=$? $(tail -1 $out/split_sw_$w.log)"
  done
fi
if stage blocks; then
  . tests/gpu/device_lib.sh; pw_largest_sides
  for b in ${PW_BLOCKS:-0 66 99}; do
    timeout 150 $n/bench_dist --gpus 2 --ranks 2 --grid ${PW_BLOCKS_SIDE:-65536} --sat-f32 1 --only sat --runs 3 --blocks $b > $out/blocks_$b.log 2>&1
    say "SAT f32 ${PW_BLOCKS_SIDE:-65536}^2, --blocks $b: rc=$? $(tail -1 $out/blocks_$b.log)"
  done
  timeout 200 $n/bench_dist --gpus 2 --ranks 2 --grid $sat_side --sat-f32 1 --only sat --runs 1 --blocks ${PW_BLOCKS_LARGEST:-66} > $out/blocks_largest.log 2>&1
  say "SAT f32 ${sat_side}^2, --blocks ${PW_BLOCKS_LARGEST:-66}: rc=$? $(tail -1 $out/blocks_largest.log)"
fi
if stage heat32k; then
  timeout 150 $n/bench_dist --gpus 2 --ranks 2 --grid 32768 --only heat --runs 3 > $out/heat32k.log 2>&1
  say "HEAT f32 32768^2 8 sweeps, 2 GPUs against one: rc=$? $(tail -1 $out/heat32k.log)"
fi
if stage largest; then
  . tests/gpu/device_lib.sh
  pw_largest_sides
  want() { [[ " ${PW_LARGEST_APPS:-sat heat} " == *" $1 "* ]]; }
  if want sat; then
    timeout ${PW_LARGEST_SAT_S:-200} $n/bench_dist --gpus 2 --ranks 2 --grid $sat_side --sat-f32 1 --only sat --runs 1 ${PW_LARGEST_WEIGHTS:+--weights $PW_LARGEST_WEIGHTS} > $out/largest_sat.log 2>&1
    say "SAT f32 ${sat_side}^2, 2 GPUs against one: rc=$? $(tail -1 $out/largest_sat.log)"
  fi
  if want heat; then
    timeout ${PW_LARGEST_HEAT_S:-200} $n/bench_dist --gpus 2 --ranks 2 --grid $heat_side --only heat --runs 1 > $out/largest_heat.log 2>&1
    say "HEAT f32 ${heat_side}^2 8 sweeps, 2 GPUs against one: rc=$? $(tail -1 $out/largest_heat.log)"
  fi
fi
echo "==== summary"; cat $out/summary.txt
