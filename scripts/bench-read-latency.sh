#!/usr/bin/env bash
# make bench (part 2c): the commands that read whole record types, at several round-trip latencies
# (the emulator's `--faults latency=Nms`), with this build and, side by side, another (BASE_BIN,
# e.g. main's release build), both against this build's emulator:
#   audit          the live audit of FAMILIES families (+ planted duplicates another writer made)
#   migrate        `migrate legacy-types` (a plan) of FAMILIES legacy families, profiles, memberships
#   migrate claims `migrate claims` (a plan) of FAMILIES families
# One Markdown row per command, latency and build: wall, peak RSS, and the floor of asking one
# request after another (requests x latency: pages of 200 records, and claims' lookups), which a
# one-query reader cannot beat; beside them the CPU seconds (user + system) of the command and of the emulator during the
# command, and the load average (1 minute) before and after it: on a shared machine a wall time
# above the floor is round trips only when the CPU seconds are well below it.
# MEMORY=1: the live audit alone, once, at 0 ms, of MEMORY_FAMILIES families (peak RSS).
set -euo pipefail
cd "$(dirname "$0")/.."
FAMILIES=${FAMILIES:-20000}
LATENCIES=${LATENCIES:-"0 50 150 300"}
COMMANDS=${COMMANDS:-"audit migrate claims"}
WORK=${WORK:-bench-out}/read-latency
BIN=${BIN:-.build/release}
BASE_BIN=${BASE_BIN:-}  # the build to compare with (empty: this build only)
EMULATOR_BIN=${EMULATOR_BIN:-$BIN}
PORT=${PORT:-18809}
PLANT=${PLANT:-50}
ZONE="iCloud.net.dataenvy.TribeBoard/development/public/_defaultZone"
if [ "${MEMORY:-0}" = 1 ]; then FAMILIES=${MEMORY_FAMILIES:-1000000}; LATENCIES=0; COMMANDS=audit; BASE_BIN=""; fi

rm -rf "$WORK"
mkdir -p "$WORK"
EMULATOR=""
trap 'if [ -n "$EMULATOR" ]; then kill "$EMULATOR" 2>/dev/null || true; fi' EXIT
openssl ecparam -name prime256v1 -genkey -noout -out "$WORK/key.pem" 2>/dev/null
chmod 600 "$WORK/key.pem"
openssl ec -in "$WORK/key.pem" -pubout -out "$WORK/key.pub.pem" 2>/dev/null
printf 'external_id,family_name\n' > "$WORK/empty.csv"
# An empty store for each build, made by it: an older build refuses a newer store's schema.
store() { echo "$WORK/store-$(echo "$1" | tr -c 'A-Za-z0-9\n' '_').sqlite"; }
for build in "$BIN" $BASE_BIN; do
    "$build/tribeboard" provision "$WORK/empty.csv" --store "$(store "$build")" --out "$WORK/out" -q
done

# Codes: a bijection of the counter onto 32^6 (odd multiplier), in the generated alphabet, so
# every duplicate is a planted one. Current families (kind 8000) and, for migrate, legacy ones
# with their admin's profile and membership. Planted by another writer (an app user): PLANT pairs
# sharing a code, and PLANT lower-case twins of an existing code.
# The legacy file (3 records a family) only when migrate runs: at a million families it is 1.2 GB.
case " $COMMANDS " in *" migrate "*) LEGACY=1 ;; *) LEGACY=0 ;; esac
awk -v n="$FAMILIES" -v p="$PLANT" -v zone="$ZONE" -v withLegacy="$LEGACY" -v work="$WORK" '
function code(i,   v, s, k) { v = (i * 2654435761) % 1073741824; s = "";
  for (k = 0; k < 6; k++) { s = s substr("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", v % 32 + 1, 1); v = int(v / 32) } return s }
function id(i, kind) { return sprintf("%08X-0000-4000-%s-%012d", i, kind, i) }
function family(file, name, type, c, label, user, by) {
  printf "%s\"%s\":{\"recordName\":\"%s\",\"recordType\":\"%s\",\"fields\":{\"name\":{\"value\":\"%s\",\"type\":\"STRING\"},\"code\":{\"value\":\"%s\",\"type\":\"STRING\"},\"createdByUserId\":{\"value\":\"%s\",\"type\":\"STRING\"},\"createdAt\":{\"value\":1700000000000,\"type\":\"TIMESTAMP\"}}%s}\n", (first[file] ? "" : ","), name, name, type, label, c, user, by > file; first[file] = 0 }
function out(file, name, text) { printf "%s\"%s\":%s\n", (first[file] ? "" : ","), name, text > file; first[file] = 0 }
BEGIN { current = work "/current.json"; legacy = work "/legacy.json"
  first[current] = 1; first[legacy] = 1
  printf "{\"nextTag\":1,\"zones\":{\"%s\":{\n", zone > current; printf "{\"nextTag\":1,\"zones\":{\"%s\":{\n", zone > legacy
  other = ",\"created\":{\"timestamp\":1700000000000,\"userRecordName\":\"_app_user_1\"}"
  for (i = 1; i <= n; i++) {
    family(current, id(i, "8000"), "Family", code(i), "Family " i, id(i, "9000"), "")
    if (!withLegacy) continue
    family(legacy, id(i, "8000"), "CKFamily", code(i), "Family " i, id(i, "9000"), "")
    out(legacy, id(i, "9000"), sprintf("{\"recordName\":\"%s\",\"recordType\":\"CKUserProfile\",\"fields\":{\"displayName\":{\"value\":\"Admin %d\",\"type\":\"STRING\"},\"createdAt\":{\"value\":1700000000000,\"type\":\"TIMESTAMP\"}}}", id(i, "9000"), i))
    out(legacy, id(i, "A000"), sprintf("{\"recordName\":\"%s\",\"recordType\":\"CKMembership\",\"fields\":{\"role\":{\"value\":\"parent_admin\",\"type\":\"STRING\"},\"status\":{\"value\":\"active\",\"type\":\"STRING\"},\"joinedAt\":{\"value\":1700000000000,\"type\":\"TIMESTAMP\"},\"family\":{\"value\":{\"recordName\":\"%s\",\"action\":\"DELETE_SELF\"},\"type\":\"REFERENCE\"},\"user\":{\"value\":{\"recordName\":\"%s\",\"action\":\"DELETE_SELF\"},\"type\":\"REFERENCE\"}}}", id(i, "A000"), id(i, "8000"), id(i, "9000")))
  }
  for (k = 1; k <= p && k <= n; k++) {
    family(current, id(k, "B000"), "Family", code(n + k), "Pair " k, id(k, "9000"), other)
    family(current, id(k, "C000"), "Family", code(n + k), "Pair " k, id(k, "9000"), other)
    family(current, id(k, "D000"), "Family", tolower(code(k)), "Twin " k, id(k, "9000"), other)
  }
  printf "}}}\n" > current; printf "}}}\n" > legacy }'

start_emulator() {  # data file, latency
    cp "$1" "$WORK/emulator.json"
    "$EMULATOR_BIN/tribeboard-cloudkit-emulator" --port "$PORT" --key bench="$WORK/key.pub.pem" --data "$WORK/emulator.json" \
        --faults "latency=${2}ms" 2> "$WORK/emulator.log" &
    EMULATOR=$!
    # A million families take the emulator minutes to load on a loaded machine: wait while it runs.
    while kill -0 "$EMULATOR" 2>/dev/null; do grep -q listening "$WORK/emulator.log" && return; sleep 0.2; done
    echo "the emulator stopped before listening: $(cat "$WORK/emulator.log")" >&2
    exit 1
}

stop_emulator() {
    kill "$EMULATOR" 2>/dev/null || true
    wait "$EMULATOR" 2>/dev/null || true
    EMULATOR=""
}

remote=(--key-id bench --key-file "$WORK/key.pem" --ck-base-url "http://127.0.0.1:$PORT")
pages() { echo $(( ($1 + 199) / 200 )); }
# A process's CPU seconds so far (user + system, from /proc), and the 1-minute load average.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat"; }
load_now() { cut -d' ' -f1 /proc/loadavg; }
# What one request at a time must ask: audit Family (+ the 3 legacy types, 1 page each); migrate
# the 3 legacy types, the destination's Family (1 page) and its plan's lookup of the copies' names
# at the destination (a request per 200 records); claims Family and a claim lookup per 200 codes
# (the planted pairs add 50 codes; the twins normalise to codes already counted).
current_records=$((FAMILIES + 3 * PLANT))
echo "| command | latency | build | wall | peak RSS | requests one at a time x latency | wall / floor | CPU: command, emulator | load | found |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for latency in $LATENCIES; do
    for command in $COMMANDS; do
        for build in "$BIN" $BASE_BIN; do
            case $command in
                audit) data=current.json; floor_pages=$(( $(pages "$current_records") + 3 ))
                       args=(audit --store "$(store "$build")" --json -q) ;;
                migrate) data=legacy.json; floor_pages=$(( 3 * $(pages "$FAMILIES") + 1 + $(pages $((3 * FAMILIES))) ))
                         args=(migrate legacy-types --store "$(store "$build")" --out "$WORK/out" --json -q) ;;
                claims) data=current.json; floor_pages=$(( $(pages "$current_records") + $(pages $((FAMILIES + PLANT))) ))
                        args=(migrate claims --json -q) ;;
            esac
            start_emulator "$WORK/$data" "$latency"
            emulator_before=$(cpu_seconds "$EMULATOR"); load_before=$(load_now)
            nice -n 10 /usr/bin/time -v -o "$WORK/time.txt" "$build/tribeboard" "${args[@]}" "${remote[@]}" > "$WORK/report.json" 2> "$WORK/stderr.txt" || true
            emulator_cpu=$(awk -v a="$emulator_before" -v b="$(cpu_seconds "$EMULATOR")" 'BEGIN { printf "%.1f", b - a }')
            load="$load_before-$(load_now)"
            stop_emulator
            wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$WORK/time.txt")
            rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
            case $command in
                audit) found=$(jq -c '{read: .scanned.remoteRecords.Family, counts}' "$WORK/report.json" 2>/dev/null || echo "no report") ;;
                migrate) found=$(jq -c '.counts | with_entries(select(.value > 0))' "$WORK/report.json" 2>/dev/null || echo "no report") ;;
                claims) found=$(jq -c '{familiesRead, codes, duplicates: (.duplicates | length), withoutCode: (.withoutCode | length), toClaim}' "$WORK/report.json" 2>/dev/null || echo "no report") ;;
            esac
            user=$(awk -F': ' '/User time/ {print $2}' "$WORK/time.txt")
            system=$(awk -F': ' '/System time/ {print $2}' "$WORK/time.txt")
            awk -v c="$command" -v l="$latency" -v b="$build" -v w="$wall" -v r="$rss_kb" -v p="$floor_pages" -v f="$found" \
                -v u="$user" -v y="$system" -v e="$emulator_cpu" -v a="$load" 'BEGIN {
                n = split(w, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]
                floor = p * l / 1000
                printf "| %s | %d ms | %s | %.1f s | %d MB | %d x %d ms = %.1f s | %s | %.1f s, %s s | %s | `%s` |\n", c, l, b, s, r / 1024,
                    p, l, floor, (floor > 0 ? sprintf("%.2f", s / floor) : "-"), u + y, e, a, f }'
        done
    done
done
