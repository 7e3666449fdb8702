#!/usr/bin/env bash
# make bench (part 5): `migrate legacy-types --apply` of 100,000 legacy families, each with its
# admin profile and membership (300,000 records), on loopback against the release emulator, a
# tenth of the families re-coded (a current family already holds their code). Prints a Markdown
# row for BENCHMARKS.md, then the emulator's query cost: an `audit --export-remote` paging through
# every Family and legacy record with records/query.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-100000}
WORK=${WORK:-bench-out}/migrate
BIN=${BIN:-.build/release}  # another build to compare: BIN=/path/to/its/release
EMULATOR_BIN=${EMULATOR_BIN:-$BIN}  # another emulator with this client: EMULATOR_BIN=/path/to/its/release
PORT=${PORT:-18799}
ZONE="iCloud.net.dataenvy.TribeBoard/development/public/_defaultZone"
rm -rf "$WORK"
mkdir -p "$WORK"
openssl ecparam -name prime256v1 -genkey -noout -out "$WORK/eckey.pem" && chmod 600 "$WORK/eckey.pem"
openssl ec -in "$WORK/eckey.pem" -pubout -out "$WORK/eckey.pub.pem" 2>/dev/null

echo "setting up $ROWS legacy families in the emulator's data file..." >&2
# One record per line inside the zone object; every tenth family's code is also held by an older
# current family, so the run re-codes it (new code, QR PNG, code_repairs row).
awk -v n="$ROWS" -v zone="$ZONE" 'function id(i, kind) { return sprintf("%08X-0000-4000-%s-%012d", i, kind, i) }
function code(i) { return sprintf("L%06d", i) }
function out(name, text) { printf "%s\"%s\":%s\n", (first ? "" : ","), name, text; first = 0 }
BEGIN { first = 1; printf "{\"nextTag\":1,\"zones\":{\"%s\":{\n", zone
  for (i = 1; i <= n; i++) {
    f = id(i, "8000"); u = id(i, "9000"); m = id(i, "A000")
    out(f, sprintf("{\"recordName\":\"%s\",\"recordType\":\"CKFamily\",\"fields\":{\"name\":{\"value\":\"Family %d\",\"type\":\"STRING\"},\"code\":{\"value\":\"%s\",\"type\":\"STRING\"},\"createdByUserId\":{\"value\":\"%s\",\"type\":\"STRING\"},\"createdAt\":{\"value\":1700000000000,\"type\":\"TIMESTAMP\"}}}", f, i, code(i), u))
    out(u, sprintf("{\"recordName\":\"%s\",\"recordType\":\"CKUserProfile\",\"fields\":{\"displayName\":{\"value\":\"Admin %d\",\"type\":\"STRING\"},\"createdAt\":{\"value\":1700000000000,\"type\":\"TIMESTAMP\"}}}", u, i))
    out(m, sprintf("{\"recordName\":\"%s\",\"recordType\":\"CKMembership\",\"fields\":{\"role\":{\"value\":\"parent_admin\",\"type\":\"STRING\"},\"status\":{\"value\":\"active\",\"type\":\"STRING\"},\"joinedAt\":{\"value\":1700000000000,\"type\":\"TIMESTAMP\"},\"family\":{\"value\":{\"recordName\":\"%s\",\"action\":\"DELETE_SELF\"},\"type\":\"REFERENCE\"},\"user\":{\"value\":{\"recordName\":\"%s\",\"action\":\"DELETE_SELF\"},\"type\":\"REFERENCE\"}}}", m, f, u))
    if (i % 10 == 0) { c = id(i, "B000")
      out(c, sprintf("{\"recordName\":\"%s\",\"recordType\":\"Family\",\"fields\":{\"name\":{\"value\":\"Holder %d\",\"type\":\"STRING\"},\"code\":{\"value\":\"%s\",\"type\":\"STRING\"},\"createdByUserId\":{\"value\":\"%s\",\"type\":\"STRING\"},\"createdAt\":{\"value\":1600000000000,\"type\":\"TIMESTAMP\"}}}", c, i, code(i), u)) } }
  printf "}}}\n" }' > "$WORK/emulator.json"

"$EMULATOR_BIN/tribeboard-cloudkit-emulator" --port "$PORT" --key bench="$WORK/eckey.pub.pem" --data "$WORK/emulator.json" 2> "$WORK/emulator.log" &
emulator=$!
# Waits for it: stopping saves its data file, which takes seconds at 100,000 families, and the
# next run's emulator needs the port.
trap 'kill $emulator 2>/dev/null || true; wait $emulator 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do grep -q listening "$WORK/emulator.log" && break; sleep 0.1; done
sync
loaded_cpu=$(ps -o times= -p "$emulator" | tr -d ' ')  # reading the data file

if [ "${MIGRATE:-1}" = 1 ]; then  # MIGRATE=0: the query pass alone (an older emulator: EMULATOR_BIN=...)
echo "| date | legacy families | records | re-coded | wall | peak RSS | user / sys CPU | emulator CPU | outcome |"
# -v: the run logs the end of each phase; each log line is stamped with the seconds since the start.
# Only provision creates a store: an empty one, as an operator makes it on a new host.
echo family_name | "$BIN/tribeboard" provision - --store "$WORK/store.sqlite" --out "$WORK/empty-out" -q
{ /usr/bin/time -v -o "$WORK/time.txt" "$BIN/tribeboard" migrate legacy-types --store "$WORK/store.sqlite" --apply --out "$WORK/out" -v --json \
    --key-id bench --key-file "$WORK/eckey.pem" --ck-base-url "http://127.0.0.1:$PORT" 2>&1 > "$WORK/report.json" || true; } |
    perl -MTime::HiRes=time -ne 'BEGIN { $start = time } printf "%.1f s %s", time - $start, $_' > "$WORK/phases.txt"
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$WORK/time.txt")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
user=$(awk -F': ' '/User time/ {print $2}' "$WORK/time.txt")
sys=$(awk -F': ' '/System time/ {print $2}' "$WORK/time.txt")
emulator_cpu=$(ps -o times= -p "$emulator" | tr -d ' ')
echo "| $(date -u +%F) | $ROWS | $((ROWS * 3)) | $(jq '.recoded' "$WORK/report.json") | $wall | $((rss_kb / 1024)) MB | ${user} s / ${sys} s | ${emulator_cpu} s (${loaded_cpu} s loading) | $(jq -c '.counts | with_entries(select(.value > 0))' "$WORK/report.json") |"
echo "phases (seconds from the start): $(grep -E 'source read|planned|copied|QR codes|verified' "$WORK/phases.txt" | sed -E 's/ tribeboard: info://; s/ records=[0-9]+//' | paste -sd ',' -)"
else
    printf 'external_id,family_name\n' > "$WORK/empty.csv"  # the audit reads a store: an empty one
    "$BIN/tribeboard" provision "$WORK/empty.csv" --store "$WORK/store.sqlite" --out "$WORK/out" -q
fi

# The query pass: every Family and legacy record (410,000 after migrating 100,000 families, 310,000
# with MIGRATE=0) read back page by page; the emulator's CPU for it alone.
before=$(ps -o times= -p "$emulator" | tr -d ' ')
/usr/bin/time -f '%e s' "$BIN/tribeboard" audit --store "$WORK/store.sqlite" --export-remote "$WORK/remote.jsonl" -q --json \
    --key-id bench --key-file "$WORK/eckey.pem" --ck-base-url "http://127.0.0.1:$PORT" > /dev/null 2> "$WORK/query-time.txt" || true
after=$(ps -o times= -p "$emulator" | tr -d ' ')
echo "query pass: $(wc -l < "$WORK/remote.jsonl" 2>/dev/null || echo no) records read by records/query pages in $(tail -1 "$WORK/query-time.txt"), emulator CPU $((after - before)) s"
