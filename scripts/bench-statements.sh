#!/usr/bin/env bash
# make bench: what BoundStatement (SQLite's C API on GRDB's cached statements) earns over GRDB's
# own statement API on the provision path. The same 100,000-row provision runs with each, twice,
# alternately, output on tmpfs so the file system weighs less; TRIBEBOARD_BENCH_GRDB_STATEMENTS=1
# switches the store writer's statements to GRDB's `execute(arguments:)` / `Row.fetchOne`.
# Results go to stdout as Markdown rows for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-100000}
BIN=$PWD/.build/release/tribeboard
WORK=$(mktemp -d /dev/shm/tb-statements.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

scripts/bench-families-csv.sh "$ROWS" S > "$WORK/families.csv"

run() {  # $1: label, $2: value of TRIBEBOARD_BENCH_GRDB_STATEMENTS
    local dir="$WORK/run-$1-$RANDOM"
    mkdir "$dir"
    TRIBEBOARD_BENCH_GRDB_STATEMENTS=$2 /usr/bin/time -f "%e %U %S %M" "$BIN" provision "$WORK/families.csv" \
        --store "$dir/s.sqlite" --out "$dir/out" -q 2> "$dir/time.txt"
    read -r wall user sys rss < <(tail -n 1 "$dir/time.txt")
    echo "| $(date -u +%F) | $1 | $ROWS | ${wall} s | ${user} s / ${sys} s | $((rss / 1024)) MB |"
    rm -rf "$dir"
}

for round in 1 2; do
    run "BoundStatement (C API)" 0
    run "GRDB statements" 1
done
