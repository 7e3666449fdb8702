#!/usr/bin/env bash
# make bench (part 2b): resync of FAMILIES families (3 records each: family, admin, membership) to
# the emulator at several round-trip latencies. Prints one Markdown row per latency: wall time,
# requests, and the sequential floor (requests x latency) a one-request-at-a-time client cannot beat.
set -euo pipefail
cd "$(dirname "$0")/.."
FAMILIES=${FAMILIES:-20000}
LATENCIES=${LATENCIES:-"0 50 150 300"}
WORK=${WORK:-bench-out}/resync-latency
BIN=${BIN:-.build/release}  # another build to compare: BIN=/path/to/its/release
PORT=${PORT:-18789}

rm -rf "$WORK"
mkdir -p "$WORK"
trap 'if [ -n "${EMULATOR:-}" ]; then kill "$EMULATOR" 2>/dev/null || true; fi' EXIT
# Every family with an active admin (an Apple user id hash: an admin invited without one stays local
# until they join, and is not uploaded): a family, a profile and a membership to upload.
awk -v rows="$FAMILIES" 'BEGIN { print "external_id,family_name,admin_display_name,admin_apple_user_id_hash"; for (i = 1; i <= rows; i++) printf "L%07d,Family %c%c%c,Admin %d,%064x\n", i, 65 + i % 26, 65 + int(i / 26) % 26, 65 + int(i / 676) % 26, i, i }' > "$WORK/families.csv"
"$BIN/tribeboard" provision "$WORK/families.csv" --store "$WORK/provisioned.sqlite" --out "$WORK/out" -q
openssl ecparam -name prime256v1 -genkey -noout -out "$WORK/key.pem" 2>/dev/null
chmod 600 "$WORK/key.pem"
openssl ec -in "$WORK/key.pem" -pubout -out "$WORK/key.pub.pem" 2>/dev/null

for latency in $LATENCIES; do
    cp "$WORK/provisioned.sqlite" "$WORK/store.sqlite"
    rm -f "$WORK/store.sqlite-wal" "$WORK/store.sqlite-shm"
    "$BIN/tribeboard-cloudkit-emulator" --port "$PORT" --key bench="$WORK/key.pub.pem" --faults "latency=${latency}ms" 2> "$WORK/emulator.log" &
    EMULATOR=$!
    sleep 1
    start=$(date +%s.%N)
    "$BIN/tribeboard" resync --store "$WORK/store.sqlite" --key-id bench --key-file "$WORK/key.pem" \
        --ck-base-url "http://127.0.0.1:$PORT" --json > "$WORK/summary.json" || true
    end=$(date +%s.%N)
    kill "$EMULATOR" 2>/dev/null || true
    wait "$EMULATOR" 2>/dev/null || true
    EMULATOR=""
    synced=$(grep -o '"synced" : [0-9]*' "$WORK/summary.json" | grep -o '[0-9]*$')
    requests=$(grep -o '"requests" : [0-9]*' "$WORK/summary.json" | grep -o '[0-9]*$')
    awk -v l="$latency" -v s="$start" -v e="$end" -v r="$requests" -v n="$synced" -v f="$FAMILIES" 'BEGIN {
        wall = e - s; floor = r * l / 1000
        printf "| %d ms | %d families (%d records) | %.1f s | %d | %.1f s | %s |\n", l, f, n, wall, r, floor, (floor > 0 ? sprintf("%.0f %%", 100 * wall / floor) : "-") }'
done
