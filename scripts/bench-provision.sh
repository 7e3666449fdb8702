#!/usr/bin/env bash
# make bench: provision a generated 100,000-row CSV with the release build, then time the obvious
# alternative (a shell loop over the qrencode CLI) on a sample of the same codes.
# Results go to stdout as Markdown rows for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-100000}
CLI_SAMPLE=${CLI_SAMPLE:-5000}
WORK=${WORK:-bench-out}
BIN=${BIN:-.build/release}/tribeboard  # another build to compare: BIN=/path/to/its/release

# ext4 will not reuse an inode freed less than 60 s ago (360 s while its table block is dirty) and
# scans past each one when it creates a file: right after deleting 100,000 PNGs, creating files costs
# several times more. So the previous run's output is moved aside now and deleted after measuring.
OLD=""
if [ -e "$WORK" ]; then
    OLD="$WORK.old.$$"
    mv "$WORK" "$OLD"
fi
trap 'if [ -n "$OLD" ]; then rm -rf "$OLD"; fi' EXIT
mkdir -p "$WORK"

scripts/bench-families-csv.sh "$ROWS" B > "$WORK/families.csv"
echo "generated $WORK/families.csv: $ROWS rows, $(du -h "$WORK/families.csv" | cut -f1)" >&2

/usr/bin/time -v "$BIN" provision "$WORK/families.csv" --store "$WORK/bench.sqlite" --out "$WORK/out" -q --json \
    > "$WORK/summary.json" 2> "$WORK/time.txt"
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$WORK/time.txt")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
user=$(awk -F': ' '/User time/ {print $2}' "$WORK/time.txt")
sys=$(awk -F': ' '/System time/ {print $2}' "$WORK/time.txt")
seconds=$(awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }' <<< "$wall")
created=$(grep -o '"created" : [0-9]*' "$WORK/summary.json" | grep -o '[0-9]*$')
pngs=$(find "$WORK/out/qr" -name '*.png' | wc -l)

# The alternative: one qrencode process per code, same level, size and margin.
sed -n "2,$((CLI_SAMPLE + 1))p" "$WORK/out/manifest.csv" | cut -d, -f5 > "$WORK/codes.txt"
mkdir -p "$WORK/cli"
start=$(date +%s.%N)
i=0
while read -r code; do
    i=$((i + 1))
    qrencode -l M -s 8 -m 4 -o "$WORK/cli/$i.png" "$code"
done < "$WORK/codes.txt"
end=$(date +%s.%N)
cli_ms=$(awk -v s="$start" -v e="$end" -v n="$CLI_SAMPLE" 'BEGIN { printf "%.3f", (e - s) * 1000 / n }')
ours_ms=$(awk -v s="$seconds" -v n="$ROWS" 'BEGIN { printf "%.3f", s * 1000 / n }')

echo "| $(date -u +%F) | $ROWS | $created | $pngs | ${seconds} s | $(awk -v s="$seconds" -v n="$ROWS" 'BEGIN { printf "%.0f", n / s }') | $((rss_kb / 1024)) MB | ${user} s / ${sys} s | ${ours_ms} ms | ${cli_ms} ms | $(awk -v a="$cli_ms" -v b="$ours_ms" 'BEGIN { printf "%.1f", a / b }')x |"
