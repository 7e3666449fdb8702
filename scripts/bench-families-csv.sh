#!/usr/bin/env bash
# Writes the benchmarks' families CSV to stdout: $1 rows with external ids $2 + number, a family
# name, an admin display name, and one row in three with an admin Apple user id hash.
set -euo pipefail
awk -v rows="$1" -v prefix="$2" 'BEGIN {
    print "external_id,family_name,admin_display_name,admin_apple_user_id_hash"
    for (i = 1; i <= rows; i++) {
        hash = (i % 3 == 0) ? sprintf("%064x", i) : ""
        printf "%s%07d,Family %c%c%c,Admin %d,%s\n", prefix, i, 65 + i % 26, 65 + int(i / 26) % 26, 65 + int(i / 676) % 26, i, hash
    }
}'
