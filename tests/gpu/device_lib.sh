# tests/gpu/device_lib.sh - what the device scripts (tests/gpu/run.sh, bench/run.sh,
# bench/stencil.sh) share; sourced from the repository root.

# "commit C on GPU-NAME": the tree travels without .git, so PW_COMMIT names the commit.
pw_device_header() {
  echo "commit ${PW_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
}

# The device scripts' summary: `summary LINE` prints LINE and appends it to $out/summary.txt ($out
# is the calling script's log folder); pw_begin starts that file with the header, builds build-gpu
# (log: $out/build.log) and says how the build went.
summary() { echo "$*" | tee -a "$out/summary.txt"; }
pw_summary_start() { # a fresh summary, headed by the commit and GPU (the scripts that build nothing)
  : > "$out/summary.txt"
  summary "$(pw_device_header)"
}
pw_begin() {
  pw_summary_start
  # (PW_NO_BUILD=1: a caller that built build-gpu already and runs its programs meanwhile)
  if [ -n "${PW_NO_BUILD:-}" ]; then summary "build: (the caller's)"; return; fi
  pw_build_gpu "$out/build.log"
  summary "build: $([ $? = 0 ] && echo ok || echo FAILED)"
}

# Configure and build build-gpu for sm_90 only (the device machines are H100/H200; the portable
# PTX target costs build time there), always incrementally (a warm machine keeps an older build);
# the log to $1; PW_BUILD_TARGETS (e.g. "peerwave_cli test_dist") builds only those.  Exit status:
# the build's.
pw_build_gpu() {
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DPEERWAVE_CUDA=ON -DPEERWAVE_CUDA_ARCHITECTURES=90-real > "$1" 2>&1 &&
    cmake --build build-gpu -j "$(nproc)" ${PW_BUILD_TARGETS:+--target $PW_BUILD_TARGETS} >> "$1" 2>&1
}

# compute-sanitizer with each tool named after $1 (a log folder) over PW_TEST_SHAPES small
# test_gpu shapes; one line a tool.
pw_sanitize() {
  local dir=$1 tool; shift
  for tool in "$@"; do
    # racecheck does not follow bar.arrive hand-overs (bench/racecheck_probe.cu): PW_TEST_RACECHECK
    # keeps the HEAT/SOR warp processor, whose warps use them, out of its run
    PW_TEST_RACECHECK=$([ $tool = racecheck ] && echo 1) \
    PW_GPU_SMALL=1 PW_TEST_SHAPES=${PW_SANITIZER_SHAPES:-40} timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 \
      ./build-gpu/tests/test_gpu > "$dir/sanitizer_$tool.log" 2>&1
    echo "compute-sanitizer $tool: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$dir/sanitizer_$tool.log" | tail -2 | tr '\n' ' ')"
  done
}

# The quick GPU check of a processor change: test_gpu over PW_TEST_SHAPES random shapes (every
# engine against the CPU reference), then memcheck, racecheck and synccheck; lines to stdout,
# logs to the folder $1.
pw_quick_tests() {
  local dir=$1
  PW_TEST_SHAPES=${PW_TEST_SHAPES:-150} timeout 200 ./build-gpu/tests/test_gpu > "$dir/test_gpu.log" 2>&1
  echo "test_gpu: rc=$? $(tail -1 "$dir/test_gpu.log")"
  grep FAIL "$dir/test_gpu.log" | head -10
  pw_sanitize "$dir" memcheck racecheck synccheck
}

# One bench_suite measurement (CUDA events, median of 5, every result checked), its table rows
# (and its "# ..." lines: where the time went) labelled and appended to the file $1 and the summary:  pw_suite FILE LABEL "ENV=..." ARGS...
pw_suite() {
  local file=$1 label=$2 env=$3; shift 3
  env $env ./build-gpu/bench_suite --runs 5 "$@" 2>&1 | grep -E "^(SAT|INTHIST|HEAT|SOR|SW|DTW|#) " |
    sed "s/^/$label /" | tee -a "$file" >> "$out/summary.txt"
}

# A random DNA FASTA record of $1 letters (seed $2) to stdout.
pw_seq_file() {
  awk -v n="$1" -v s="$2" 'BEGIN { srand(s); print ">s" s; for (i = 0; i < n; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }'
}

# The median over 3 runs of the "seconds:" a peerwave command prints (kernel time):
#   pw_median_seconds [ENV=... ...] ./build-gpu/peerwave APP ARGS...
pw_median_seconds() {
  for r in 1 2 3; do env "$@" | sed -n 's/^seconds: //p'; done | sort -g | sed -n 2p
}

# The whole-genome pair (M. leprae, M. tuberculosis: Debian's kmer-examples test data, kept in the
# ignored .bench-data, which the device call must carry) unpacked into the folder $1; sets g1, g2.
# Exit status 1 where .bench-data does not have it.
pw_genomes() {
  [ -f .bench-data/kmer_test_data.tar.gz ] || return 1
  tar xzf .bench-data/kmer_test_data.tar.gz -C "$1" GCF_000195855.1_ASM19585v1_genomic.fna GCF_000195955.2_ASM19595v2_genomic.fna &&
    g1=$1/GCF_000195855.1_ASM19585v1_genomic.fna g2=$1/GCF_000195955.2_ASM19595v2_genomic.fna
}

# The largest grids of multi.sh's stage `largest` into sat_side and heat_side: side^2 x B bytes
# within 85% of one GPU (SAT f32 8 bytes a pixel there, HEAT 4) and side^2 x H bytes within 80% of
# the host (bench/dist.c: SAT 12, HEAT 16), a multiple of 1024.
pw_largest_sides() {
  local mib host_kib
  mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
  host_kib=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
  side() { awk -v m="$mib" -v h="$host_kib" -v b="$1" -v hb="$2" 'BEGIN { g = sqrt(0.85 * m * 1048576 / b);
           c = sqrt(0.8 * h * 1024 / hb); s = g < c ? g : c; printf "%d", int(s / 1024) * 1024 }'; }
  sat_side=$(side 8 12) heat_side=$(side 4 16)
}

# The warp-rows bench (bench/sw_warp_rows.cu) built once per "R:BLOCKS" of $configs (rows a
# thread : blocks an SM), in parallel, as $bin/swr_R_BLOCKS, each build's log in $out/build_R_BLOCKS.log.
pw_build_warp_rows_configs() {
  local c r b
  for c in $configs; do
    r=${c%:*} b=${c#*:}
    nvcc -O3 -arch=sm_90 -std=c++17 -Ibench -DPW_R=$r -DPW_SWR_BLOCKS_PER_SM=$b -Xptxas -v -o "$bin/swr_${r}_$b" \
      bench/sw_warp_rows.cu > "$out/build_${r}_$b.log" 2>&1 &
  done
  wait
}
