#!/usr/bin/env bash
# make bench (part 4): doctor on a generated 10 MB project.pbxproj (TARGETS app-extension targets,
# FILES Swift files each in a group, a Sources phase and file references, two configurations a
# target), then the obvious alternative (grep for the two settings). Prints a Markdown row for
# BENCHMARKS.md. The Swift files do not exist: this measures reading the project, not the sources.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=${TARGETS:-40}
FILES=${FILES:-24000}
WORK=${WORK:-bench-out}/doctor
BIN=${BIN:-.build/release}  # another build to compare: BIN=/path/to/its/release
rm -rf "$WORK"
mkdir -p "$WORK/Big.xcodeproj" "$WORK/App"

cat > "$WORK/App/App.entitlements" <<'PLIST'
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>com.apple.developer.icloud-container-identifiers</key><array><string>iCloud.$(CFBundleIdentifier)</string></array>
<key>com.apple.developer.icloud-services</key><array><string>CloudKit</string></array>
<key>aps-environment</key><string>development</string>
</dict></plist>
PLIST

echo "generating a project with $TARGETS targets and $FILES files..." >&2
awk -v targets="$TARGETS" -v files="$FILES" 'function id(kind, n) { return sprintf("%s%021d", kind, n) }
BEGIN {
  print "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 56;\n\tobjects = {"
  per = int(files / targets)
  for (f = 1; f <= files; f++) {
    printf "\t\t%s /* File%d.swift in Sources */ = {isa = PBXBuildFile; fileRef = %s /* File%d.swift */; };\n", id("BF1", f), f, id("FR1", f), f
    printf "\t\t%s /* File%d.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = File%d.swift; sourceTree = \"<group>\"; };\n", id("FR1", f), f, f
  }
  printf "\t\t%s = {isa = PBXGroup; children = (\n", id("GR1", 0)
  for (t = 1; t <= targets; t++) printf "\t\t\t\t%s,\n", id("GR1", t)
  print "\t\t\t); sourceTree = \"<group>\"; };"
  for (t = 1; t <= targets; t++) {
    printf "\t\t%s /* Module%d */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n", id("GR1", t), t
    for (f = (t - 1) * per + 1; f <= t * per; f++) printf "\t\t\t\t%s /* File%d.swift */,\n", id("FR1", f), f
    printf "\t\t\t);\n\t\t\tpath = Module%d;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n", t
    printf "\t\t%s /* Sources */ = {\n\t\t\tisa = PBXSourcesBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n\t\t\tfiles = (\n", id("SP1", t)
    for (f = (t - 1) * per + 1; f <= t * per; f++) printf "\t\t\t\t%s /* File%d.swift in Sources */,\n", id("BF1", f), f
    print "\t\t\t);\n\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t};"
    for (c = 1; c <= 2; c++) {
      printf "\t\t%s /* %s */ = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n", id("BC" c, t), (c == 1 ? "Debug" : "Release")
      printf "\t\t\t\tCODE_SIGN_ENTITLEMENTS = App/App.entitlements;\n\t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = \"com.example.app.$(TARGET_NAME:rfc1034identifier)\";\n"
      printf "\t\t\t\t\"OTHER_SWIFT_FLAGS[config=Debug]\" = \"$(inherited) -DDEBUG\";\n\t\t\t\tSDKROOT = iphoneos;\n"
      printf "\t\t\t};\n\t\t\tname = %s;\n\t\t};\n", (c == 1 ? "Debug" : "Release")
    }
    printf "\t\t%s = {isa = XCConfigurationList; buildConfigurations = (%s, %s, ); defaultConfigurationName = Release; };\n", id("CL1", t), id("BC1", t), id("BC2", t)
    printf "\t\t%s /* Extension%d */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = %s;\n\t\t\tbuildPhases = (%s, );\n", id("NT1", t), t, id("CL1", t), id("SP1", t)
    printf "\t\t\tname = \"Extension %d\";\n\t\t\tproductType = \"com.apple.product-type.app-extension\";\n\t\t};\n", t
  }
  printf "\t\t%s = {isa = XCConfigurationList; buildConfigurations = (); };\n", id("CL0", 0)
  printf "\t\t%s = {isa = PBXProject; buildConfigurationList = %s; mainGroup = %s; targets = (", id("PR0", 0), id("CL0", 0), id("GR1", 0)
  for (t = 1; t <= targets; t++) printf "%s, ", id("NT1", t)
  print "); };\n\t};\n\trootObject = " id("PR0", 0) ";\n}"
}' > "$WORK/Big.xcodeproj/project.pbxproj"
size=$(stat -c %s "$WORK/Big.xcodeproj/project.pbxproj")

/usr/bin/time -v "$BIN/tribeboard" doctor --store "$WORK/none.sqlite" --project "$WORK" --json > "$WORK/report.json" 2> "$WORK/time.txt" || true
judged=$(grep -o '"target" : "Extension [0-9]*"' "$WORK/report.json" | sort -u | wc -l)
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$WORK/time.txt")
rss=$(awk -F': ' '/Maximum resident/ { printf "%d MB", $2 / 1024 }' "$WORK/time.txt")
start=$(date +%s.%N)
grep -c -E 'PRODUCT_BUNDLE_IDENTIFIER|CODE_SIGN_ENTITLEMENTS' "$WORK/Big.xcodeproj/project.pbxproj" > /dev/null
grep_wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - s }')
echo "| $(date -u +%F) | $((size / 1000000)).$(( (size % 1000000) / 100000 )) MB | $TARGETS | $FILES | $judged | $wall | $rss | ${grep_wall} s |"
