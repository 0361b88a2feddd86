#!/usr/bin/env bash
# bench/batch_forms.sh - the GPU database search's cell forms and rows a thread, in one device
# call (batch_sw_proc.cuh, batch_sw.cu's choose_rows): build bench_batch_sw and test_batch, check
# the default form (test_batch --gpu), the issue's searches (10^6 records of 256, of 512 and the
# Swiss-Prot-like mix; five queries 144 .. 5478, every result checked) with the defaults, then each
# query alone under each form (PEERWAVE_BATCH_FORM) and the longest query at each R
# (PEERWAVE_BATCH_ROWS), the other forms under test_batch too, and the SASS of the inner loops.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/batch_forms.sh
set -u
out=${OUT:-/tmp/pw-batch-forms}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
PW_BUILD_TARGETS="${PW_BUILD_TARGETS:-bench_batch_sw test_batch}" pw_begin
[ -x build-gpu/bench_batch_sw ] || { tail -30 "$out/build.log"; exit 1; }
R=${PW_RECORDS:-1000000}
Q=${PW_QUERIES:-144,464,1000,2005,5478}

timeout 120 ./build-gpu/tests/test_batch --gpu > "$out/test_batch_gpu.log" 2>&1
summary "test_batch --gpu (default form): rc=$? $(tail -1 "$out/test_batch_gpu.log")"
grep FAIL "$out/test_batch_gpu.log" | head -8 | tee -a "$out/summary.txt"

for shape in "--length 256" "--length 512" "--mix"; do
  timeout 120 ./build-gpu/bench_batch_sw --backend cuda --records $R $shape --queries $Q --sample 1000 2>&1 |
    tee "$out/gpu_$(echo $shape | tr -d ' -').log" | grep -E "^(search|summary)" | sed "s/^/$shape: /" | tee -a "$out/summary.txt"
done

for form in shared short; do
  for q in ${Q//,/ }; do
    PEERWAVE_BATCH_FORM=$form timeout 60 ./build-gpu/bench_batch_sw --backend cuda --records $R --length 256 \
      --queries $q --sample 100 2>&1 | grep -E "^search" | sed "s/^/form=$form q$q /" | tee -a "$out/summary.txt"
  done
done
for rows in 4 8 16; do
  PEERWAVE_BATCH_ROWS=$rows timeout 60 ./build-gpu/bench_batch_sw --backend cuda --records $R --length 256 \
    --queries 5478 --sample 100 2>&1 | grep -E "^search" | sed "s/^/rows=$rows q5478 /" | tee -a "$out/summary.txt"
done
for form in short; do
  PEERWAVE_BATCH_FORM=$form timeout 120 ./build-gpu/tests/test_batch --gpu > "$out/test_batch_gpu_$form.log" 2>&1
  summary "test_batch --gpu, form $form: rc=$? $(tail -1 "$out/test_batch_gpu_$form.log")"
done
if command -v cuobjdump > /dev/null; then
  nvcc -std=c++17 -O3 -arch=sm_90 -cubin -Iinclude -I. -o "$out/batch_sw.cubin" src/cuda/batch_sw.cu &&
    cuobjdump -sass "$out/batch_sw.cubin" > "$out/batch_sw.sass"
  for k in $(grep -oE "Function : [^ ]*lanes16x2Li16ELi[012][^ ]*" "$out/batch_sw.sass" | awk '{print $3}'); do
    awk -v k="$k" '$0 ~ "Function : "k {on=1; next} /Function :/ {on=0} on' "$out/batch_sw.sass" > "$out/$k.sass"
    summary "$k: $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$out/$k.sass") instructions; $(grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[0-9T] )?[A-Z0-9_.]+' "$out/$k.sass" | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -12 | tr -s ' ' | tr '\n' ',')"
  done
fi
echo "---- summary"
cat "$out/summary.txt"
