#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Where a kernel's time goes: gpu_kernel_probe under the variants PROBE_ONLY
# names (PROBE_ROUNDS rounds), then, for each NCU_VARIANTS entry (a probe
# filter and a kernel-name regex, "filter=regex;..."), one launch under Nsight
# Compute: bytes to and from device memory, L2 hits, occupancy, issue and
# stall reasons. Logs in $OUT, a table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
table=""
add() { table+="$1"$'\n'; echo "$1"; }
if [ -n "${PROBE_ONLY:-}" ]; then
  TRAPEZE_PROBE_ONLY="$PROBE_ONLY" TRAPEZE_PROBE_ROUNDS=${PROBE_ROUNDS:-5} timeout "${PROBE_TIMEOUT:-200}" \
    "$here/run.sh" gpu_kernel_probe > "$out/probe.txt" 2>&1; add "gpu_kernel_probe: exit $?"
  table+="$(grep -E '^(stencil|jacobi3d|kernels alone|vector-plane)' "$out/probe.txt")"$'\n'
fi
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,\
sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
lts__t_bytes.sum,l1tex__t_bytes.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,\
launch__registers_per_thread,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,\
smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active
IFS=';' read -ra entries <<< "${NCU_VARIANTS:-}"
i=0
for entry in "${entries[@]}"; do
  [ -n "$entry" ] || continue
  i=$((i + 1))
  filter=${entry%%=*} regex=${entry#*=}
  TRAPEZE_PROBE_ONLY="$filter" TRAPEZE_PROBE_ROUNDS=1 timeout 120 "$ncu" --metrics "$metrics" -k "regex:$regex" \
    --launch-count 1 "$here/run.sh" gpu_kernel_probe > "$out/ncu$i.txt" 2>&1
  add "ncu $i ($filter): exit $?"
  table+="$(grep -E '^  [a-z_]+__|launch__' "$out/ncu$i.txt" | sed 's/^ */  /')"$'\n'
done
echo "== table"; printf '%s' "$table"
