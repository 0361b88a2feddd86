# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed).  Session 12
# (2026-11-29), on 2 H200s (nvidia-h200-x2), in stages (PW_STAGES, default all):
#   seen    issue 29: bench/variants/swr_multi_seen.patch against the tree, the genome pair on
#           2 GPUs (peerwave sw --gpus 2) in alternating rounds, one GPU once; the variant's
#           test_sw_rows over GPUs 0 and 1
#   nccl    issue 29: mpirun -np 2 test_dist --mpi --gpu --nccl (the HEAT/SOR case that stopped at
#           1e7d730; the host bounce for device chunks since untested) with tests/gpu/nccl_debug.sh
#   dist    issue 29: bench_dist --gpus 2, HEAT (8 sweeps) and SAT u8 at 32768^2, SAT f32 at 65536^2
#   single  one GPU: test_gpu (the tasks schedule's pipelined sweeps, first GPU run) beside
#           test_cells --gpu heat,3d,plane on the other GPU; test_batch --gpu (the pairs macro);
#           HEAT 16384^2 1 and 8 sweeps on barrier and tasks
#   fmod    issue 24: bench/variants/fmodf_early_out.patch against the tree, the demonstrator and
#           LU-like cells at 512^3 and 1024^3, alternating, separate cell caches
# Binaries built on the development machine, stripped and packed (new = build-gpu at HEAD, seen and
# fmod = build-gpu's peerwave with the patch applied and reverted after), at most 64 MiB a call:
#   (cd /tmp/carry/x && tar cf - new/peerwave ... | xz -T2 -3 > /work/main/build-gpu/carry/bins.tar.xz)
#   run(command="PW_STAGES=... bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins.tar.xz", ".bench-data"])
set -u
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v
[ -d /work/main/examples ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; } # test_cells finds the examples there
export PEERWAVE_CACHE=/tmp/pw-cell-cache PEERWAVE_WISDOM=/tmp/pw-wisdom.tsv
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
stage() { [[ " ${PW_STAGES:-seen nccl dist single fmod} " == *" $1 "* ]]; }
n=/tmp/v/new
say() { echo "$*" | tee -a $out/summary.txt; }
secs() { sed -n 's/^seconds: //p'; }

if stage seen; then
  g=$(mktemp -d)
  tar xzf .bench-data/kmer_test_data.tar.gz -C $g GCF_000195855.1_ASM19585v1_genomic.fna GCF_000195955.2_ASM19595v2_genomic.fna
  sw() { timeout 60 "$@" --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 $g/GCF_000195855.1_ASM19585v1_genomic.fna $g/GCF_000195955.2_ASM19595v2_genomic.fna; }
  sw $n/peerwave sw --backend cuda > $out/genomes_1gpu.txt 2>&1
  say "genomes 1 GPU: $(grep -E '^(score|end_a|end_b|seconds):' $out/genomes_1gpu.txt | tr '\n' ' ')"
  for r in 1 2 3; do for v in new seen; do
    t0=$(date +%s%N)
    sw /tmp/v/$v/peerwave sw --backend cuda --gpus 2 > $out/genomes_2gpus_${v}_$r.txt 2>&1
    say "genomes 2 GPUs $v round $r: rc=$? wall $(( ($(date +%s%N) - t0) / 1000000 )) ms $(grep -E '^(score|end_a|end_b|seconds):' $out/genomes_2gpus_${v}_$r.txt | tr '\n' ' ')"
  done; done
  PW_SW_ROWS_GPUS=0,1 timeout 150 /tmp/v/seen/test_sw_rows > $out/test_sw_rows_seen.log 2>&1
  say "seen test_sw_rows GPUs 0,1: rc=$? $(tail -1 $out/test_sw_rows_seen.log)"; grep FAIL $out/test_sw_rows_seen.log | head -5
fi

if stage nccl; then
  OUT=$out/nccl TEST_DIST=$n/test_dist PW_LIMIT=100 PW_WAIT=60 bash tests/gpu/nccl_debug.sh > $out/nccl_debug.txt 2>&1
  say "nccl test_dist --mpi --gpu --nccl: $(grep -E 'passed|rc=' $out/nccl_debug.txt | tail -2 | tr '\n' ' ')"
  grep -E "FAIL|peerwave link" $out/nccl_debug.txt | head -8 | tee -a $out/summary.txt
fi

if stage dist; then
  timeout 200 $n/bench_dist --gpus 2 --ranks 2 --only heat --grid 32768 > $out/dist_heat.log 2>&1
  say "bench_dist --gpus 2 heat 32768: rc=$? $(tail -1 $out/dist_heat.log)"
  timeout 200 $n/bench_dist --gpus 2 --ranks 2 --only sat --grid 65536 --sat-f32 1 > $out/dist_satf32.log 2>&1
  say "bench_dist --gpus 2 sat f32 65536: rc=$? $(tail -1 $out/dist_satf32.log)"
fi

if stage single; then
  CUDA_VISIBLE_DEVICES=1 PW_TEST_ONLY=heat,3d,plane timeout 200 $n/test_cells --gpu > $out/test_cells.log 2>&1 &
  cells=$!
  CUDA_VISIBLE_DEVICES=0 timeout 240 $n/test_gpu > $out/test_gpu.log 2>&1; say "test_gpu: rc=$? $(tail -1 $out/test_gpu.log)"; grep FAIL $out/test_gpu.log | head -5
  wait $cells; say "test_cells --gpu (heat, 3d, plane): rc=$? $(tail -1 $out/test_cells.log)"; grep FAIL $out/test_cells.log | head -5
  [ -x $n/test_batch ] && { CUDA_VISIBLE_DEVICES=0 timeout 120 $n/test_batch --gpu > $out/test_batch.log 2>&1; say "test_batch --gpu: rc=$? $(tail -1 $out/test_batch.log)"; grep FAIL $out/test_batch.log | head -5; }
  for strategy in barrier tasks; do for sweeps in 1 8; do
    say "HEAT 16384^2 $sweeps sweeps $strategy: $(for r in 1 2 3 4 5; do CUDA_VISIBLE_DEVICES=0 $n/peerwave heat --size 16386x16386 --sweeps $sweeps --strategy $strategy --backend cuda | secs; done | tr '\n' ' ')"
  done; done
fi

if stage fmod; then # (session 11's form: a grid made once by the LU-like cell, then each cell on it)
  t=$(mktemp -d)
  lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
  for size in 512 1024; do
    CUDA_VISIBLE_DEVICES=0 PEERWAVE_CACHE=/tmp/pw-cache-new timeout 100 $n/peerwave run examples/cells/lu_like.c --size ${size}x${size}x${size} $lu --backend cuda -o $t/g.npy > /dev/null 2>&1
    for r in 1 2; do for v in new fmod; do
      export PEERWAVE_CACHE=/tmp/pw-cache-$v
      d=$(for k in 1 2 3 4; do CUDA_VISIBLE_DEVICES=0 timeout 60 /tmp/v/$v/peerwave run examples/cells/demonstrator3d.c --grid $t/g.npy --param modulus=7 --backend cuda | secs; done | sort -g | sed -n 2p)
      l=$(for k in 1 2 3 4; do CUDA_VISIBLE_DEVICES=0 timeout 60 /tmp/v/$v/peerwave run examples/cells/lu_like.c --grid $t/g.npy ${lu/iterations=1/iterations=10} --backend cuda | secs; done | sort -g | sed -n 2p)
      say "${size}^3 $v round $r: demonstrator $d s, lu_like 10 rounds $l s"
    done; done
    rm -f $t/g.npy
  done
  unset PEERWAVE_CACHE
fi
echo "==== summary"; cat $out/summary.txt
