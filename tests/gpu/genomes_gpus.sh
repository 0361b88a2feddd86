#!/usr/bin/env bash
# tests/gpu/genomes_gpus.sh - whole M. leprae vs M. tuberculosis (1/-3/5/2) on one GPU and on all
# of the machine's GPUs, every multi-GPU path once (issue 29): --gpus G (the warp-rows engine's
# rounds dealt over the GPUs), mpirun -np G --mpi --backend cuda through the host and with
# --nccl, and the user-written SW-Gotoh cell (examples/cells/sw_gotoh.c) on 1 and G GPUs.  Every
# run's score and end cell must equal the one-GPU run's.  Binaries built here and carried
# (tests/gpu/pack_bins.sh peerwave_cli), the genomes carried too:
#   run(command="mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v && bash tests/gpu/genomes_gpus.sh",
#       carry=["build-gpu/carry/bins.tar.xz", ".bench-data"], kind="nvidia-h200-x2")
# (.bench-data/kmer_test_data.tar.gz: /usr/share/doc/kmer-examples/test_data.tar.gz, Debian's
# kmer-examples.)  PW_SKIP_CELL=1 leaves the user cell out (~16 s on one H200).
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-/tmp/v/new}
out=${OUT:-/tmp/genomes_gpus}/genomes_gpus
mkdir -p "$out"
export LD_LIBRARY_PATH=$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
. tests/gpu/device_lib.sh
pw_summary_start
G=$(nvidia-smi -L | wc -l)
pw=$BIN/peerwave
work=$(mktemp -d)
tar xzf .bench-data/kmer_test_data.tar.gz -C "$work" GCF_000195855.1_ASM19585v1_genomic.fna GCF_000195955.2_ASM19595v2_genomic.fna || exit 1
g1=$work/GCF_000195855.1_ASM19585v1_genomic.fna g2=$work/GCF_000195955.2_ASM19595v2_genomic.fna
scores=(--match 1 --mismatch -3 --gap-open 5 --gap-extend 2)
fail=0
ref=""
one() { # label, file, then the command
  local label=$1 f=$2; shift 2
  timeout 200 "$@" > "$f" 2>&1
  local rc=$? got
  got=$(grep -E '^(score|end_a|end_b|best|best_i|best_j|best_h):' "$f" | awk '{print $2}' | tr '\n' ' ')
  [ -z "$ref" ] && ref=$got
  local same=yes
  [ $rc = 0 ] && [ "$got" = "$ref" ] || { same=no; fail=1; }
  summary "$label: rc $rc, result ${got:-none} (equal to one GPU's: $same), seconds $(awk '$1 == "seconds:" {print $2}' "$f")"
}
one "sw, 1 GPU" "$out/sw1.txt" "$pw" sw --backend cuda "${scores[@]}" "$g1" "$g2"
one "sw --gpus $G" "$out/swg.txt" "$pw" sw --backend cuda --gpus "$G" "${scores[@]}" "$g1" "$g2"
one "mpirun -np $G sw --mpi (through the hosts)" "$out/swm.txt" mpirun -np "$G" "$pw" sw --backend cuda --mpi "${scores[@]}" "$g1" "$g2"
one "mpirun -np $G sw --mpi --nccl" "$out/swn.txt" mpirun -np "$G" "$pw" sw --backend cuda --mpi --nccl "${scores[@]}" "$g1" "$g2"
if [ -z "${PW_SKIP_CELL:-}" ]; then
  ref=""
  cell=(examples/cells/sw_gotoh.c --input a="$g1" --input b="$g2" --param match=1 --param mismatch=-3 --param open=5 --param extend=2)
  one "user cell sw_gotoh, 1 GPU" "$out/cell1.txt" "$pw" run "${cell[@]}" --backend cuda
  one "user cell sw_gotoh --gpus $G" "$out/cellg.txt" "$pw" run "${cell[@]}" --gpus "$G"
fi
rm -rf "$work"
summary "genomes on GPUs: $([ $fail = 0 ] && echo PASSED || echo FAILED)"
exit $fail
