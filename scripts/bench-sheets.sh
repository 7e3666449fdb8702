#!/usr/bin/env bash
# make bench (part 5): `tribeboard sheets` on COUNT families (names in eight scripts, every one
# with an admin), as cards, as letters and as letters with an SVG logo, with the peak memory of a
# tenth of the run beside it (memory should not grow with the count); then the obvious
# alternative: the QR PNGs provision wrote, put into one PDF by img2pdf (bench only, not in APT_PACKAGES: skipped when missing; it
# makes pages of bare QR images, with no names, codes or wording). Prints Markdown rows.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-10000}
WORK=${WORK:-bench-out}/sheets
BIN=${BIN:-.build/release}
rm -rf "$WORK"
mkdir -p "$WORK"
scripts/bench-sheets-roster.sh "$COUNT" > "$WORK/families.csv"
head -n $((COUNT / 10 + 1)) "$WORK/families.csv" > "$WORK/tenth.csv"
echo "provisioning $COUNT families (not timed)..." >&2
"$BIN/tribeboard" provision "$WORK/families.csv" --store "$WORK/store.sqlite" --out "$WORK/out" -q

measure() {  # label, then the command; prints "label|seconds|peak KB"
    local label=$1; shift
    /usr/bin/time -f '%e %M' -o "$WORK/time" "$@" >/dev/null
    read -r seconds kb < "$WORK/time"
    echo "$label|$seconds|$kb"
}
rows=()
for layout in cards letters; do
    rows+=("$(measure "tribeboard sheets --layout $layout, $COUNT families" "$BIN/tribeboard" sheets --store "$WORK/store.sqlite" \
        --out "$WORK/$layout.pdf" --layout "$layout" -q)")
done
# Letters with the example SVG logo: the logo is drawn once into the PDF and shared by every page.
printf 'organisation: Bench\nlogo: %s/Templates/sheets/logo.svg\n---\nHello {family_name}, your code is {code}.\n' "$PWD" > "$WORK/svg.txt"
rows+=("$(measure "tribeboard sheets --layout letters with an SVG logo, $COUNT families" "$BIN/tribeboard" sheets --store "$WORK/store.sqlite" \
    --out "$WORK/svg.pdf" --layout letters --template "$WORK/svg.txt" -q)")
rows+=("$(measure "tribeboard sheets --manifest (cards), $COUNT families" "$BIN/tribeboard" sheets --manifest "$WORK/out/manifest.csv" \
    --store "$WORK/store.sqlite" --out "$WORK/manifest.pdf" -q)")
"$BIN/tribeboard" provision "$WORK/tenth.csv" --store "$WORK/tenth.sqlite" --out "$WORK/tenth-out" -q
rows+=("$(measure "tribeboard sheets --layout cards, $((COUNT / 10)) families" "$BIN/tribeboard" sheets --store "$WORK/tenth.sqlite" \
    --out "$WORK/tenth.pdf" -q)")
if command -v img2pdf >/dev/null; then
    find "$WORK/out/qr" -name '*.png' | sort > "$WORK/pngs"
    rows+=("$(measure "img2pdf of provision's $COUNT QR PNGs (alternative)" sh -c "xargs img2pdf -o '$WORK/img2pdf.pdf' < '$WORK/pngs'")")
else
    echo "img2pdf is not installed: the alternative is skipped (apt-get install img2pdf)" >&2
fi

echo "| date | run | wall | peak RSS | PDF size | pages |"
echo "| --- | --- | --- | --- | --- | --- |"
for row in "${rows[@]}"; do
    IFS='|' read -r label seconds kb <<< "$row"
    case "$label" in
        *"SVG logo"*) pdf="$WORK/svg.pdf" ;; *letters*) pdf="$WORK/letters.pdf" ;; *manifest*) pdf="$WORK/manifest.pdf" ;; *img2pdf*) pdf="$WORK/img2pdf.pdf" ;;
        *"$((COUNT / 10)) families"*) pdf="$WORK/tenth.pdf" ;; *) pdf="$WORK/cards.pdf" ;;
    esac
    pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')
    echo "| $(date -u +%F) | $label | $seconds s | $((kb / 1024)) MB | $(($(stat -c %s "$pdf") / 1024 / 1024)) MB | $pages |"
done
