#!/usr/bin/env bash
# doctor on a project whose TARGETS app targets all link one local package of FILES Swift files,
# each of which mentions CloudKit (so each is lexed, not skipped): the shape of a real app in many
# flavours (Provenance: 40 targets, 30 packages). Measures the container section's source reading.
# BIN=path/to/tribeboard (default the release build). Prints a Markdown row for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=${TARGETS:-20}
FILES=${FILES:-2000}
WORK=${WORK:-bench-out}/doctor-linked
BIN=${BIN:-.build/release/tribeboard}
rm -rf "$WORK"
mkdir -p "$WORK/Linked.xcodeproj" "$WORK/App" "$WORK/Shared/Sources/Shared"

cat > "$WORK/App/App.entitlements" <<'PLIST'
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>com.apple.developer.icloud-container-identifiers</key><array><string>iCloud.com.example.linked</string></array>
<key>com.apple.developer.icloud-services</key><array><string>CloudKit</string></array>
<key>aps-environment</key><string>development</string>
</dict></plist>
PLIST
printf '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Shared", products: [.library(name: "Shared", targets: ["Shared"])], targets: [.target(name: "Shared")])\n' \
    > "$WORK/Shared/Package.swift"

echo "generating $FILES package files and $TARGETS app targets..." >&2
for ((f = 1; f <= FILES; f++)); do
    printf 'import CloudKit\n\n/// Uses the CKContainer below.\nenum Store%d {\n    static let container = CKContainer(identifier: Store%d.name%d)\n    static let name%d = "iCloud.com.example.linked"\n}\n' "$f" "$f" "$f" "$f" \
        > "$WORK/Shared/Sources/Shared/Store$f.swift"
done
awk -v targets="$TARGETS" 'function id(kind, n) { return sprintf("%s%021d", kind, n) }
BEGIN {
  print "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 56;\n\tobjects = {"
  printf "\t\t%s = {isa = XCLocalSwiftPackageReference; relativePath = Shared; };\n", id("PK1", 0)
  for (t = 1; t <= targets; t++) {
    printf "\t\t%s = {isa = XCSwiftPackageProductDependency; package = %s; productName = Shared; };\n", id("PD1", t), id("PK1", 0)
    printf "\t\t%s = {isa = PBXSourcesBuildPhase; files = (); };\n", id("SP1", t)
    printf "\t\t%s /* App%d */ = {isa = PBXNativeTarget; buildConfigurationList = %s; buildPhases = (%s); name = App%d; packageProductDependencies = (%s); productType = \"com.apple.product-type.application\"; };\n", id("NT1", t), t, id("CL1", t), id("SP1", t), t, id("PD1", t)
    printf "\t\t%s = {isa = XCConfigurationList; buildConfigurations = (%s, %s); };\n", id("CL1", t), id("BC1", t), id("BC2", t)
    for (c = 1; c <= 2; c++) printf "\t\t%s = {isa = XCBuildConfiguration; buildSettings = {CODE_SIGN_ENTITLEMENTS = App/App.entitlements; PRODUCT_BUNDLE_IDENTIFIER = com.example.linked%d; SDKROOT = iphoneos; }; name = %s; };\n", id("BC" c, t), t, (c == 1 ? "Debug" : "Release")
  }
  printf "\t\t%s = {isa = XCConfigurationList; buildConfigurations = (); };\n", id("CL0", 0)
  printf "\t\t%s = {isa = PBXProject; buildConfigurationList = %s; packageReferences = (%s); targets = (", id("PR1", 0), id("CL0", 0), id("PK1", 0)
  for (t = 1; t <= targets; t++) printf "%s, ", id("NT1", t)
  printf "); };\n\t};\n\trootObject = %s;\n}\n", id("PR1", 0)
}' > "$WORK/Linked.xcodeproj/project.pbxproj"

out=$( { /usr/bin/time -f "%e %M" "$BIN" doctor --store "$WORK/none.sqlite" --project "$WORK" \
          --container iCloud.com.example.linked --json > "$WORK/doctor.json"; } 2>&1 | tail -1 ) || true
read -r wall rss <<< "$out"
judged=$(grep -o '"id" *: *"container.swiftSources"' "$WORK/doctor.json" | wc -l)
echo "| $(date -u +%F) | $TARGETS | $FILES | $judged | ${wall} s | $((rss / 1024)) MB | $(uptime | sed 's/.*average: //') |"
