#!/usr/bin/env bash
# tests/gpu/nccl_debug.sh - where a run of GPU bands over NCCL (pw_comm_use_nccl) stops: test_dist
# --mpi --gpu --nccl under mpirun -np 2 (a GPU a rank) with NCCL's and our own debug lines, and
# after PW_WAIT seconds (default 30) every thread's kernel wait channel and, where gdb is, its
# stack; nvidia-smi beside.  TEST_DIST: the binary (a carried build/tests/test_dist, or build-gpu's).
set -u
out=${OUT:-/tmp/pw-nccl-debug}
mkdir -p "$out"
bin=${TEST_DIST:-build/tests/test_dist}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_DEBUG=${NCCL_DEBUG:-INFO} PEERWAVE_DEBUG_NCCL=1 PEERWAVE_DEBUG_LINK=1
CUDA_VISIBLE_DEVICES=0,1 PW_TEST_GPUS=2 timeout ${PW_LIMIT:-90} mpirun -np 2 "$bin" --mpi --gpu --nccl > "$out/run.log" 2>&1 &
job=$!
sleep ${PW_WAIT:-30}
{
  nvidia-smi
  for p in $(pgrep -f -- "--mpi --gpu --nccl" | grep -v "^$job\$"); do
    echo "== process $p: $(tr '\0' ' ' < /proc/$p/cmdline)"
    for t in /proc/$p/task/*; do echo "$(basename $t) $(cat $t/comm) $(cat $t/wchan)"; done
    command -v gdb > /dev/null && timeout 30 gdb -p $p -batch -ex "thread apply all bt 12" 2>&1 | grep -E "^#|^Thread" | head -120
  done
} > "$out/stacks.txt" 2>&1
wait $job
echo "rc=$?" >> "$out/run.log"
grep -E "peerwave (nccl|link)|passed|FAIL|WARN|rc=" "$out/run.log" | tail -60
