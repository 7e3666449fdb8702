#!/usr/bin/env bash
# Installs the executables, man pages, shell completions, systemd units and templates below
# DESTDIR/PREFIX; shared by `make install` and the .deb build.
# Usage: scripts/install-files.sh DESTDIR PREFIX BIN_DIR UNIT_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
dest=$1 prefix=$2 bin=$3 unitdir=$4
executables=$(sed -n 's/^EXECUTABLES *= *//p' Makefile)
binaries=$(sed -n 's/^BINARIES *= *//p' Makefile)

install -d "$dest$prefix/bin" "$dest$prefix/share/man/man1" "$dest$prefix/share/tribeboard-ops" \
    "$dest$prefix/share/bash-completion/completions" "$dest$prefix/share/zsh/vendor-completions" \
    "$dest$prefix/share/fish/vendor_completions.d" "$dest$unitdir"
# Binaries, and links to `tribeboard` for the one-command names (tribeboard-audit runs `audit`).
for e in $executables; do
    case " $binaries " in
        *" $e "*) install -m 0755 "$bin/$e" "$dest$prefix/bin/$e" ;;
        *) ln -sf tribeboard "$dest$prefix/bin/$e" ;;
    esac
done
# Completions for the binaries: `tribeboard <TAB>` completes every subcommand and option. The
# one-command links have none of their own (their generated scripts would register the bare
# subcommand name, `audit`, not `tribeboard-audit`).
for e in $binaries; do
    # bash-completion sources these files: a #! line would only mislead.
    "$bin/$e" --generate-completion-script bash | sed '1{/^#!/d}' > "$dest$prefix/share/bash-completion/completions/$e"
    "$bin/$e" --generate-completion-script zsh > "$dest$prefix/share/zsh/vendor-completions/_$e"
    "$bin/$e" --generate-completion-script fish > "$dest$prefix/share/fish/vendor_completions.d/$e.fish"
done
chmod 0644 "$dest$prefix"/share/bash-completion/completions/* "$dest$prefix"/share/zsh/vendor-completions/* \
    "$dest$prefix"/share/fish/vendor_completions.d/*

# Man pages: swift-argument-parser's generate-manual plugin over the same command definitions as
# --help (debug build: the text does not depend on the configuration, and `make test` built it).
# `tribeboard audit` becomes tribeboard-audit(1), which is also the page of the tribeboard-audit
# executable (the same command); the plugin's pages for the one-command executables carry their
# bare command name (audit.1) and are left out, as are the pages of the generated `help`.
swift package plugin generate-manual --configuration debug --multi-page >/dev/null
for page in .build/plugins/GenerateManual/outputs/*/tribeboard*.1; do
    name=$(basename "$page" .1)
    case "$name" in *.help) continue ;; esac
    # The page's name as man and whatis know it (tribeboard-doctor-family), while the synopsis keeps
    # the command as typed ("tribeboard doctor family"): the first .Nm is renamed, later bare ones
    # get the original back from sed's hold space.
    sed -e '/^\.Dt /{s/^\.Dt //;s/\./-/g;s/^/.Dt /}' -e '/^\.Nm ./{h;s/ /-/g;s/^\.Nm-"\{0,1\}/.Nm /;s/"$//}' -e '/^\.Nm$/g' \
        -e 's/^\.Nd "\(.*\)"$/.Nd \1/' "$page" | gzip -9nc > "$dest$prefix/share/man/man1/${name//./-}.1.gz"
done
chmod 0644 "$dest$prefix"/share/man/man1/*.gz

# The templates name the .deb's /usr/bin; another PREFIX gets copies that name its own bin.
for unit in Templates/systemd/*; do
    sed "s|/usr/bin/tribeboard|$prefix/bin/tribeboard|g" "$unit" > "$dest$unitdir/$(basename "$unit")"
    chmod 0644 "$dest$unitdir/$(basename "$unit")"
done
sed "s|/usr/bin/tribeboard|$prefix/bin/tribeboard|g" Templates/tribeboard-resync.crontab > "$dest$prefix/share/tribeboard-ops/tribeboard-resync.crontab"
install -m 0644 Templates/cloudkit.conf Templates/cloudkit-schema.ckdb Templates/families.csv "$dest$prefix/share/tribeboard-ops/"
chmod 0644 "$dest$prefix/share/tribeboard-ops/tribeboard-resync.crontab"
install -d "$dest$prefix/share/tribeboard-ops/sheets"
install -m 0644 Templates/sheets/* "$dest$prefix/share/tribeboard-ops/sheets/"
