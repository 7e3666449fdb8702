#!/usr/bin/env bash
# Writes the sheets benchmarks' roster to stdout: $1 families whose names cycle through eight
# scripts (Latin with diacritics, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai, CJK), each
# with an admin: the roster BENCHMARKS.md's sheets numbers have used since 2026-11-23.
set -euo pipefail
awk -v count="$1" 'BEGIN {
  split("Famille Lefèvre|Οικογένεια Παπαδοπούλου|Семья Иванова|عائلة الحسيني|משפחת כהן|शर्मा परिवार|ครอบครัวสมชาย|山田家", names, "|")
  print "external_id,family_name,admin_display_name"
  for (i = 1; i <= count; i++) printf "B%d,%s %d,Admin %d\n", i, names[(i - 1) % 8 + 1], i, i
}'
