#!/usr/bin/env bash
# make bench (part 2): flush 100,000 pending records to the CloudKit emulator on loopback and
# report the time, the requests made and records per second as a Markdown row for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-100000}
WORK=${WORK:-bench-out}/resync
BIN=${BIN:-.build/release}  # another build to compare: BIN=/path/to/its/release
EMULATOR_BIN=${EMULATOR_BIN:-$BIN}  # another emulator with this client: EMULATOR_BIN=/path/to/its/release
PORT=${PORT:-18787}

OLD=""
if [ -e "$WORK" ]; then OLD="$WORK.old.$$"; mv "$WORK" "$OLD"; fi
trap 'if [ -n "$OLD" ]; then rm -rf "$OLD"; fi; if [ -n "${EMULATOR:-}" ]; then kill "$EMULATOR" 2>/dev/null || true; fi' EXIT
mkdir -p "$WORK"

# 100,000 families without admins: 100,000 records, each a family whose code was never checked remotely.
awk -v rows="$ROWS" 'BEGIN { print "external_id,family_name"; for (i = 1; i <= rows; i++) printf "R%07d,Family %c%c%c\n", i, 65 + i % 26, 65 + int(i / 26) % 26, 65 + int(i / 676) % 26 }' > "$WORK/families.csv"
"$BIN/tribeboard" provision "$WORK/families.csv" --store "$WORK/store.sqlite" --out "$WORK/out" -q

openssl ecparam -name prime256v1 -genkey -noout -out "$WORK/key.pem" 2>/dev/null
chmod 600 "$WORK/key.pem"
openssl ec -in "$WORK/key.pem" -pubout -out "$WORK/key.pub.pem" 2>/dev/null
"$EMULATOR_BIN/tribeboard-cloudkit-emulator" --port "$PORT" --key bench="$WORK/key.pub.pem" 2> "$WORK/emulator.log" &
EMULATOR=$!
sleep 1

/usr/bin/time -v "$BIN/tribeboard" resync ${RESYNC_ARGS:-} --store "$WORK/store.sqlite" --key-id bench --key-file "$WORK/key.pem" \
    --ck-base-url "http://127.0.0.1:$PORT" --json > "$WORK/summary.json" 2> "$WORK/time.txt"
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$WORK/time.txt")
seconds=$(awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }' <<< "$wall")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
synced=$(grep -o '"synced" : [0-9]*' "$WORK/summary.json" | grep -o '[0-9]*$')
requests=$(grep -o '"requests" : [0-9]*' "$WORK/summary.json" | grep -o '[0-9]*$')
claimed=$(grep -o '"codesClaimed" : [0-9]*' "$WORK/summary.json" | grep -o '[0-9]*$' || echo 0)
modify=$(( (synced + 199) / 200 ))
claims=$(( (claimed + 199) / 200 ))
echo "| $(date -u +%F) | $ROWS | $synced | ${seconds} s | $(awk -v s="$seconds" -v n="$synced" 'BEGIN { printf "%.0f", n / s }') | $requests ($modify records/modify, $claims code claims, $((requests - modify - claims)) code checks) | $((rss_kb / 1024)) MB |"
