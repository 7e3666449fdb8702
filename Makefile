# TribeBoard Ops. `make demo` sets everything up on a fresh Debian machine; `make test` runs the tests.
SWIFT   ?= swift
PREFIX  ?= /usr/local
DEMO    ?= demo-out
# Build and run: libsqlite3 (through GRDB), libqrencode, libpng, pkg-config to find them.
# libssl-dev: CloudKit request signing (libcrypto).
# Tests: zbar-tools (zbarimg, an independent QR reader), openssl (an independent signature
# verifier), python3 (the independent CloudKit stand-in, Tests/StandIn: standard library only). Bench: qrencode (the CLI baseline), time.
# Packaging: dpkg-dev (dpkg-shlibdeps derives Depends), adduser (the package creates its user),
# libcurl4-openssl-dev (a static FoundationNetworking links -lcurl).
# Sheets: libcairo2-dev (PDF), libpango1.0-dev (text layout, with harfbuzz and fribidi), fonts
# (fonts-noto-core: Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai; fonts-noto-cjk:
# Han, kana and Hangul; fonts-dejavu-core: the code's face), poppler-utils (tests read PDFs back). librsvg2-dev: SVG logos.
APT_PACKAGES = python3 dpkg-dev adduser libcurl4-openssl-dev libsqlite3-dev libqrencode-dev libpng-dev libssl-dev libsimdjson-dev pkg-config zbar-tools qrencode openssl time sqlite3 jq libcairo2-dev libpango1.0-dev fonts-noto-core fonts-noto-cjk fonts-dejavu-core poppler-utils librsvg2-dev
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo)
# Installed as binaries; every other executable is installed as a link to `tribeboard`, which runs
# the subcommand its name ends with (a static binary carries the Swift runtime: about 65 MB each).
BINARIES = tribeboard tribeboard-cloudkit-emulator
EXECUTABLES = tribeboard tribeboard-provision tribeboard-resync tribeboard-audit tribeboard-doctor tribeboard-migrate tribeboard-sheets tribeboard-cloudkit-emulator

.PHONY: deps build release test demo bench install uninstall deb deb-check clean

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	else echo "Debian packages present"; fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Unit suites in parallel (about 13 s instead of 30 s on 2 cores); the end-to-end suites serially:
# they start CPU-heavy processes, and in parallel on 2 cores they starve each other into timeouts.
test: build
	$(SWIFT) test --parallel --skip TribeBoardEndToEndTests
	$(SWIFT) test --no-parallel --filter TribeBoardEndToEndTests
	cd Packages/TribeBoardJoinKit && $(SWIFT) test

demo: build
	@install -d -m 0700 $(DEMO)
	$(SWIFT) run -q tribeboard provision Templates/families.csv --store $(DEMO)/tribeboard.sqlite --out $(DEMO)
	@echo "QR codes: $(DEMO)/qr   manifest: $(DEMO)/manifest.csv   store: $(DEMO)/tribeboard.sqlite"

bench: release
	scripts/bench-provision.sh
	scripts/bench-statements.sh
	scripts/bench-resync.sh
	scripts/bench-resync-latency.sh
	scripts/bench-read-latency.sh
	scripts/bench-audit.sh
	scripts/bench-doctor.sh
	scripts/bench-doctor-linked.sh
	scripts/bench-migrate.sh
	scripts/bench-sheets.sh

# Executables, man pages, completions, systemd units (in PREFIX/lib/systemd/system) and templates.
install: release build
	scripts/install-files.sh "$(DESTDIR)" "$(PREFIX)" "$$($(SWIFT) build -c release --show-bin-path)" "$(PREFIX)/lib/systemd/system"

uninstall:
	rm -f $(foreach e,$(EXECUTABLES),$(DESTDIR)$(PREFIX)/bin/$(e) $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$(e) $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_$(e) $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$(e).fish)
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/tribeboard*.1.gz $(DESTDIR)$(PREFIX)/lib/systemd/system/tribeboard-resync.*
	rm -rf $(DESTDIR)$(PREFIX)/share/tribeboard-ops

# tribeboard-ops_VERSION_amd64.deb: static Swift runtime, Depends derived by dpkg-shlibdeps.
deb: build
	scripts/build-deb.sh .

deb-check: deb
	scripts/check-deb.sh tribeboard-ops_$$(tr -d ' \n' < VERSION)_amd64.deb

clean:
	rm -rf .build .build-release $(DEMO) bench-out tribeboard-ops_*.deb
