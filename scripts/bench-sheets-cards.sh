#!/usr/bin/env bash
# The 10,000-card goal alone (under 10 s, release build): `tribeboard sheets` as cards on COUNT
# families twice, once with short names in eight scripts (bench-sheets-roster.sh: the numbers
# BENCHMARKS.md has kept since 2026-11-23) and once with names as long as the app allows (family
# names of 50 characters, admins of 30, in ten scripts), which takes taller cards and smaller
# type. Then `sheets --verify` of the short-name PDF on a tenth of the families (poppler and zbar
# read every card back). Prints Markdown rows with wall time, CPU time (user + system: wall time
# means little on a shared machine), peak memory and the load average when the run began.
#   swift build -c release --product tribeboard && scripts/bench-sheets-cards.sh
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-10000}
WORK=${WORK:-bench-out}/sheets-cards
BIN=${BIN:-.build/release}
rm -rf "$WORK"
mkdir -p "$WORK"
scripts/bench-sheets-roster.sh "$COUNT" > "$WORK/short.csv"
# Names of 50 and 30 characters: words of each script repeated up to the app's limits.
python3 - "$COUNT" > "$WORK/long.csv" <<'PY'
import sys
words = [["María", "José", "Rodríguez", "de", "Mendoza", "Łukasiewicz"], ["Nguyễn", "Phúc", "Vĩnh", "Thụy", "Bảo", "Đại"],
         ["Константинопольский-Преображенский", "Александра"], ["Παπαδοπούλου", "Αλεξανδροπούλου"],
         ["عبد", "الرحمن", "بن", "محمد", "القحطاني"], ["אליעזר", "רוזנבלום", "שטרנברג"], ["रामचन्द्र", "विश्वनाथन", "सुब्रह्मण्यम"],
         ["ศรีสุวรรณ", "วงศ์สวัสดิ์", "ณ", "อยุธยา"], ["欧阳", "诸葛", "司马", "慕容"], ["남궁", "선우", "황보", "제갈"]]
def name(ws, length, offset):
    out, i = "", offset
    while len(out) < length:
        out += ("" if not out else " ") + ws[i % len(ws)]
        i += 1
    return out[:length].strip()
print("external_id,family_name,admin_display_name")
for i in range(int(sys.argv[1])):
    print(f'L{i},"{name(words[i % 10], 50, i // 10)}","{name(words[(i + 3) % 10], 30, i)}"')
PY
head -n $((COUNT / 10 + 1)) "$WORK/short.csv" > "$WORK/tenth.csv"
echo "provisioning $COUNT + $COUNT + $((COUNT / 10)) families (not timed)..." >&2
for set in short long tenth; do
    "$BIN/tribeboard" provision "$WORK/$set.csv" --store "$WORK/$set.sqlite" --out "$WORK/$set-out" -q
done

echo "| date | run | wall | CPU (user + sys) | peak RSS | pages | load |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
measure() {  # label, pdf, then the command
    local label=$1 pdf=$2; shift 2
    local load
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%e %U %S %M' -o "$WORK/time" "$@" >/dev/null
    read -r seconds user sys kb < "$WORK/time"
    pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f s (%s + %s)", u + s, u, s }')
    echo "| $(date -u +%F) | $label | $seconds s | $cpu | $((kb / 1024)) MB | $pages | $load |"
}
for run in 1 2; do
    measure "sheets --out (cards), $COUNT short names, run $run" "$WORK/short.pdf" \
        "$BIN/tribeboard" sheets --store "$WORK/short.sqlite" --out "$WORK/short.pdf" -q
done
measure "sheets --out (cards), $COUNT names as long as the app allows" "$WORK/long.pdf" \
    "$BIN/tribeboard" sheets --store "$WORK/long.sqlite" --out "$WORK/long.pdf" -q
"$BIN/tribeboard" sheets --store "$WORK/tenth.sqlite" --out "$WORK/tenth.pdf" -q
measure "sheets --verify, $((COUNT / 10)) cards" "$WORK/tenth.pdf" \
    "$BIN/tribeboard" sheets --store "$WORK/tenth.sqlite" --verify "$WORK/tenth.pdf" -q
