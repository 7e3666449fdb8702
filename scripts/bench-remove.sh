#!/bin/sh
# Removing N families with `remove --from-file` against the emulator: time, peak memory (RSS)
# and CloudKit requests. Usage: scripts/bench-remove.sh [N] [BIN_DIR]
set -eu
N=${1:-10000}
BIN=${2:-.build/debug}
BIN=$(cd "$BIN" && pwd)
WORK=$(mktemp -d)
trap 'kill "$EMU" 2>/dev/null || true; rm -rf "$WORK"' EXIT
cd "$WORK"
openssl ecparam -name prime256v1 -genkey -noout -out key.pem 2>/dev/null && chmod 600 key.pem
openssl ec -in key.pem -pubout -out key.pub.pem 2>/dev/null
PORT=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 20000))
"$BIN/tribeboard-cloudkit-emulator" --port "$PORT" --key bench=key.pub.pem >emu.log 2>&1 & EMU=$!
sleep 1
R="--key-id bench --key-file key.pem --ck-base-url http://127.0.0.1:$PORT"
awk -v n="$N" 'BEGIN { print "external_id,family_name,admin_display_name"; for (i = 1; i <= n; i++) printf "B-%d,Family %d,Admin %d\n", i, i, i }' >in.csv
"$BIN/tribeboard" provision in.csv --store s.sqlite --out out -q
# shellcheck disable=SC2086
"$BIN/tribeboard" resync --store s.sqlite $R -q
sqlite3 s.sqlite "SELECT id FROM families" >ids.txt
# shellcheck disable=SC2086
/usr/bin/time -f "%e s elapsed, %M KB max RSS" "$BIN/tribeboard" remove --from-file ids.txt --apply --store s.sqlite $R --json -q >report.json
jq -c '{asked, removed, unfinished, requests}' report.json
echo "left in the store: $(sqlite3 s.sqlite 'SELECT COUNT(*) FROM families') families, $(sqlite3 s.sqlite 'SELECT COUNT(*) FROM memberships') memberships"
