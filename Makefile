# TribeBoard Ops. `make demo` sets everything up on a fresh Debian machine; `make test` runs the tests.
SWIFT   ?= swift
PREFIX  ?= /usr/local
DEMO    ?= demo-out
# Build and run: libsqlite3 (through GRDB), libqrencode, libpng, pkg-config to find them.
# libssl-dev: CloudKit request signing (libcrypto).
# Tests: zbar-tools (zbarimg, an independent QR reader), openssl (an independent signature
# verifier). Bench: qrencode (the CLI baseline), time.
APT_PACKAGES = libsqlite3-dev libqrencode-dev libpng-dev libssl-dev libsimdjson-dev pkg-config zbar-tools qrencode openssl time sqlite3 jq
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo)
EXECUTABLES = tribeboard tribeboard-provision tribeboard-resync tribeboard-audit tribeboard-doctor tribeboard-cloudkit-emulator

.PHONY: deps build release test demo bench install clean

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

# Serial: the end-to-end suites start CPU-heavy processes and an in-process CloudKit emulator;
# in parallel on 2 cores they starve each other into timeouts.
test: build
	$(SWIFT) test --no-parallel

demo: build
	@install -d -m 0700 $(DEMO)
	$(SWIFT) run -q tribeboard provision Templates/families.csv --store $(DEMO)/tribeboard.sqlite --out $(DEMO)
	@echo "QR codes: $(DEMO)/qr   manifest: $(DEMO)/manifest.csv   store: $(DEMO)/tribeboard.sqlite"

bench: release
	scripts/bench-provision.sh
	scripts/bench-resync.sh
	scripts/bench-audit.sh
	scripts/bench-doctor.sh

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	for e in $(EXECUTABLES); do install -m 0755 .build/release/$$e $(DESTDIR)$(PREFIX)/bin/; done

clean:
	rm -rf .build $(DEMO) bench-out
