#!/usr/bin/env bash
# Checks a built .deb as an installer would see it: every executable runs `--version` from the
# extracted tree, every executable has its man page and bash/zsh/fish completions, the systemd
# units and templates are there, and Depends names the package of every library ldd reports.
# Usage: scripts/check-deb.sh PACKAGE.deb
set -euo pipefail
deb=$1
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
makefile="$(dirname "$0")/../Makefile"
executables=$(sed -n 's/^EXECUTABLES *= *//p' "$makefile")
binaries=$(sed -n 's/^BINARIES *= *//p' "$makefile")
version=$(dpkg-deb -f "$deb" Version)
depends=$(dpkg-deb -f "$deb" Depends)
failures=0
fail() { echo "check-deb: $*" >&2; failures=$((failures + 1)); }
need() { [ -s "$root$1" ] || fail "missing or empty: $1"; }

# The packages Depends names and, recursively, theirs (as installed here): a library that comes in
# through libcurl4's own dependencies is covered by libcurl4.
closure() {
    local queue seen="" p deps
    queue=$(tr ',|' '\n\n' <<<"$depends" | sed 's/(.*)//; s/ //g' | grep -v '^$')
    while [ -n "$queue" ]; do
        p=$(head -n 1 <<<"$queue"); queue=$(tail -n +2 <<<"$queue")
        case " $seen " in *" $p "*) continue ;; esac
        seen="$seen $p"
        deps=$(dpkg-query -W -f='${Depends}, ${Pre-Depends}' "$p" 2>/dev/null || true)
        queue=$(printf '%s\n%s' "$queue" "$(tr ',|' '\n\n' <<<"$deps" | sed 's/(.*)//; s/:any//; s/ //g' | grep -v '^$')")
    done
    echo "$seen"
}
covered=" $(closure) "

for e in $executables; do
    out=$("$root/usr/bin/$e" --version 2>&1) || fail "$e --version exited $?"
    case "$out" in "$version ("*) ;; *) fail "$e --version says '$out', the package is $version" ;; esac
    need "/usr/share/man/man1/$e.1.gz"
done
for e in $binaries; do
    need "/usr/share/bash-completion/completions/$e"
    need "/usr/share/zsh/vendor-completions/_$e"
    need "/usr/share/fish/vendor_completions.d/$e.fish"
    # Every library the binary loads (ldd: direct and indirect) comes from a package Depends covers.
    while read -r lib; do
        pkg=$(dpkg -S "$lib" 2>/dev/null | head -n 1 | cut -d: -f1) || true
        [ -n "$pkg" ] || pkg=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | head -n 1 | cut -d: -f1) || true
        [ -n "$pkg" ] || { fail "$e links $lib, which no Debian package owns"; continue; }
        case "$covered" in *" $pkg "*) ;; *) fail "$e links $lib from $pkg, which Depends does not cover: $depends" ;; esac
    done < <(ldd "$root/usr/bin/$e" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}')
done
for e in $executables; do
    case " $binaries " in *" $e "*) ;; *) [ "$(readlink "$root/usr/bin/$e")" = tribeboard ] || fail "/usr/bin/$e is not a link to tribeboard" ;; esac
done
for sub in provision resync audit doctor doctor-family migrate migrate-legacy-types migrate-container sheets; do need "/usr/share/man/man1/tribeboard-$sub.1.gz"; done
for f in /lib/systemd/system/tribeboard-resync.service /lib/systemd/system/tribeboard-resync.timer \
         /usr/share/tribeboard-ops/cloudkit.conf /usr/share/tribeboard-ops/cloudkit-schema.ckdb \
         /usr/share/tribeboard-ops/families.csv /usr/share/tribeboard-ops/tribeboard-resync.crontab \
         /usr/share/doc/tribeboard-ops/copyright /usr/share/doc/tribeboard-ops/changelog.gz; do need "$f"; done
grep -q '^ExecStart=/usr/bin/tribeboard ' "$root/lib/systemd/system/tribeboard-resync.service" \
    || fail "the service does not start /usr/bin/tribeboard"
if [ "$failures" -gt 0 ]; then echo "check-deb: $failures problem(s) in $deb" >&2; exit 1; fi
echo "check-deb: $deb ($version) is complete; Depends: $depends"
