#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
"$ncu" --version | tail -1
for b in gpu_sweeps_old gpu_sweeps; do
  timeout 200 "$here/run.sh" "$ncu" --section WarpStateStats --section SourceCounters --kernel-name regex:sweep_peerwave \
    --launch-skip 4 --launch-count 1 -f -o "$out/$b" "$here/bin/$b" --size 2048 --sweeps 1 --widths 32 --rounds 1 --json /tmp/x.json > "$out/$b.log" 2>&1
  echo "$b ncu exit $?"; tail -3 "$out/$b.log"
  "$ncu" --import "$out/$b.ncu-rep" --page source --csv --print-source sass > "$out/$b-sass.csv" 2> "$out/$b-sass.err"
  echo "source page exit $? $(wc -l < "$out/$b-sass.csv") lines"; head -c 600 "$out/$b-sass.err"
  "$ncu" --import "$out/$b.ncu-rep" --page details > "$out/$b-details.txt" 2>&1
  grep -E "Stall|Warp Cycles|Issued|Eligible" "$out/$b-details.txt" | head -20
done
