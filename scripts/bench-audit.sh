#!/usr/bin/env bash
# make bench (part 3): audit 1,000,000 local families against a 1,000,000-record remote snapshot
# (every local family's CloudKit copy) plus planted duplicates, then the obvious alternative
# (sqlite3 export + jq + sort | uniq -d). Prints Markdown rows for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
PLANT=${PLANT:-100}
WORK=${WORK:-bench-out}/audit
BIN=${BIN:-.build/release}  # another build to compare: BIN=/path/to/its/release
rm -rf "$WORK"
mkdir -p "$WORK"

# Codes: a bijection of the counter onto 32^6 = 2^30 (odd multiplier), in the generated alphabet,
# so generated codes never collide by accident and every duplicate below is one we planted.
CODE_AWK='function code(i,   v, s, k) { v = (i * 2654435761) % 1073741824; s = "";
  for (k = 0; k < 6; k++) { s = s substr("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", v % 32 + 1, 1); v = int(v / 32) } return s }
function id(i, kind) { return sprintf("%08X-0000-4000-%s-%012d", i, kind, i) }'

echo "setting up $ROWS families (store and snapshot)..." >&2
printf 'external_id,family_name\n' > "$WORK/empty.csv"
"$BIN/tribeboard" provision "$WORK/empty.csv" --store "$WORK/store.sqlite" --out "$WORK/out" -q
# sqlite3's .import takes a new table's first line as its header.
printf 'id,name,code,created_by_user_id,created_at,needs_sync\n' > "$WORK/families.csv"
printf 'id,display_name,created_at,needs_sync\n' > "$WORK/profiles.csv"
printf 'id,family_id,user_id,role,status,joined_at,needs_sync\n' > "$WORK/memberships.csv"
awk "$CODE_AWK"' BEGIN { for (i = 1; i <= '"$ROWS"'; i++) {
    printf "%s,Family %d,%s,%s,2026-11-01T00:00:00.000Z,0\n", id(i, "8000"), i, code(i), id(i, "9000") >> "'"$WORK"'/families.csv";
    printf "%s,Admin %d,2026-11-01T00:00:00.000Z,0\n", id(i, "9000"), i >> "'"$WORK"'/profiles.csv";
    printf "%s,%s,%s,parent_admin,active,2026-11-01T00:00:00.000Z,0\n", id(i, "A000"), id(i, "8000"), id(i, "9000") >> "'"$WORK"'/memberships.csv" } }'
sqlite3 "$WORK/store.sqlite" <<SQL
.mode csv
.import --csv $WORK/families.csv families_import
.import --csv $WORK/profiles.csv profiles_import
.import --csv $WORK/memberships.csv memberships_import
INSERT INTO families (id, name, code, created_by_user_id, created_at, needs_sync) SELECT * FROM families_import;
INSERT INTO user_profiles (id, display_name, created_at, needs_sync) SELECT * FROM profiles_import;
INSERT INTO memberships (id, family_id, user_id, role, status, joined_at, needs_sync) SELECT * FROM memberships_import;
DROP TABLE families_import; DROP TABLE profiles_import; DROP TABLE memberships_import;
SQL

# The snapshot: every local family's copy, then $PLANT of each planted kind, spread through the file:
# a different CloudKit family with a local family's code, two CloudKit families sharing a new code,
# and a CloudKit family with a local code in lower case (a case-only twin, also a format error).
awk "$CODE_AWK"' BEGIN { n = '"$ROWS"'; p = '"$PLANT"'; step = int(n / p);
  for (i = 1; i <= n; i++) {
    printf "{\"fields\":{\"code\":{\"type\":\"STRING\",\"value\":\"%s\"},\"createdAt\":{\"type\":\"TIMESTAMP\",\"value\":1761955200000},\"createdByUserId\":{\"type\":\"STRING\",\"value\":\"%s\"},\"name\":{\"type\":\"STRING\",\"value\":\"Family %d\"}},\"recordName\":\"%s\",\"recordType\":\"Family\"}\n", code(i), id(i, "9000"), i, id(i, "8000")
    if (i % step == 0 && i / step <= p) { k = i / step
      printf "{\"fields\":{\"code\":{\"type\":\"STRING\",\"value\":\"%s\"},\"name\":{\"type\":\"STRING\",\"value\":\"Planted LR %d\"}},\"recordName\":\"%s\",\"recordType\":\"Family\"}\n", code(k * 7), k, id(k, "B000")
      for (t = 0; t < 2; t++) printf "{\"fields\":{\"code\":{\"type\":\"STRING\",\"value\":\"%s\"},\"name\":{\"type\":\"STRING\",\"value\":\"Planted RR %d\"}},\"recordName\":\"%s\",\"recordType\":\"Family\"}\n", code(n + k), k, id(k * 2 + t, "C000")
      printf "{\"fields\":{\"code\":{\"type\":\"STRING\",\"value\":\"%s\"},\"name\":{\"type\":\"STRING\",\"value\":\"Planted twin %d\"}},\"recordName\":\"%s\",\"recordType\":\"Family\"}\n", tolower(code(int(n / 2) + k)), k, id(k, "D000") } } }' > "$WORK/remote.jsonl"
sync

echo "| date | local families | snapshot records | tool | wall | peak RSS | found |"
/usr/bin/time -v "$BIN/tribeboard" audit --store "$WORK/store.sqlite" --remote-snapshot "$WORK/remote.jsonl" --json --all \
    > "$WORK/report.json" 2> "$WORK/time.txt" || true
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$WORK/time.txt")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
found=$(jq -c '.counts' "$WORK/report.json")
echo "| $(date -u +%F) | $ROWS | $(wc -l < "$WORK/remote.jsonl") | tribeboard audit | $wall | $((rss_kb / 1024)) MB | $found |"

# The obvious alternative: ids and codes from both sides, synced copies (same id, same code)
# removed, codes upper-cased, duplicates counted. It finds duplicates only: no format check, no
# families, no repair.
/usr/bin/time -v bash -c "{ sqlite3 -separator ' ' '$WORK/store.sqlite' 'SELECT id, code FROM families';
    jq -r 'select(.recordType == \"Family\" or .recordType == \"CKFamily\") | .recordName + \" \" + .fields.code.value' '$WORK/remote.jsonl'; } \
    | LC_ALL=C sort -u | awk '{ print toupper(\$2) }' | LC_ALL=C sort | uniq -d | wc -l" > "$WORK/baseline.txt" 2> "$WORK/baseline-time.txt"
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$WORK/baseline-time.txt")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/baseline-time.txt")
echo "| $(date -u +%F) | $ROWS | $(wc -l < "$WORK/remote.jsonl") | sqlite3 + jq + sort \| uniq -d | $wall | $((rss_kb / 1024)) MB (largest process) | $(tr -d ' ' < "$WORK/baseline.txt") duplicated codes |"
