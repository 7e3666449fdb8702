#!/usr/bin/env bash
# Builds tribeboard-ops_VERSION_amd64.deb from a static-runtime release build, with man pages
# generated from the argument-parser definitions, shell completions, systemd units and templates.
# Usage: scripts/build-deb.sh [OUTPUT_DIR]   (no network: packages come from the mirrored copies)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.}
version=$(tr -d ' \t\r\n' < VERSION)
scratch=.build-release   # --static-swift-stdlib rebuilds everything: its own scratch folder
binaries=$(sed -n 's/^BINARIES *= *//p' Makefile)

for b in $binaries; do swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$b"; done
bin=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
scripts/install-files.sh "$root" /usr "$bin" /lib/systemd/system
for e in $binaries; do strip --strip-unneeded "$root/usr/bin/$e"; done

# The changelog (a native package: changelog.gz) and the machine-readable copyright.
install -d "$root/usr/share/doc/tribeboard-ops"
install -m 0644 packaging/copyright "$root/usr/share/doc/tribeboard-ops/copyright"
gzip -9nc packaging/changelog > "$root/usr/share/doc/tribeboard-ops/changelog.gz"
chmod 0644 "$root/usr/share/doc/tribeboard-ops/changelog.gz"

# Depends: what the binaries link, as dpkg-shlibdeps finds it (it wants a debian/control).
shlib=$(mktemp -d)
mkdir -p "$shlib/debian"
printf 'Source: tribeboard-ops\n\nPackage: tribeboard-ops\nArchitecture: amd64\n' > "$shlib/debian/control"
paths=$(for e in $binaries; do printf '%s ' "$root/usr/bin/$e"; done)
depends=$(cd "$shlib" && dpkg-shlibdeps -O $paths 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$shlib"
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Fonts are opened at run time, not linked: `tribeboard sheets` draws with Noto (every script the
# app accepts, CJK included) and the code in DejaVu Sans Mono.
depends="$depends, adduser, fonts-noto-core, fonts-noto-cjk, fonts-dejavu-core"

install -d "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@DEPENDS@/$depends/" -e "s/@INSTALLED_SIZE@/$size/" \
    packaging/control.in > "$root/DEBIAN/control"
install -m 0755 packaging/postinst packaging/postrm "$root/DEBIAN/"
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums" "$root/DEBIAN/control"

deb="$out/tribeboard-ops_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
