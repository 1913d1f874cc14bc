# calc: the release build, and installing it with its man page and shell completions.
#
#   make                      fully static release build (.build/release/calc): the Swift runtime,
#                             readline, tinfo and glibc linked in (not Foundation); no dynamic loader
#   sudo make install         install what `make` built under PREFIX (default /usr/local)
#   sudo make uninstall       remove exactly the files `make install` installs
#
# DESTDIR is put before every installed path (for packaging). CALC_BINARY installs a calc built
# elsewhere instead of .build/release/calc (Tests/CalcCLITests/InstallTests.swift uses it).

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

SWIFT ?= swift
INSTALL ?= install
STRIP ?= strip
RELEASE_BINARY := .build/release/calc
CALC_BINARY ?= $(RELEASE_BINARY)

.PHONY: all build install uninstall

all: build

# A fully static executable starts far sooner than a dynamic one: the dynamic linker's
# relocations and symbol lookups for libstdc++, libreadline and libc were three quarters of a
# start; it takes 1.0-1.6x bc's time, depending on the machine's cost of a page fault
# (Documentation/Performance.md). readline and tinfo come from their static libraries
# (libreadline-dev, libncurses-dev). Static glibc warns that getpwnam/getpwuid need glibc's NSS
# libraries at run time: calc itself reads $$HOME (Documentation/Install.md).
#
# lld puts the functions a start runs and the data it touches (Scripts/startup-order.txt, written
# by Scripts/startup-order.sh) together at the start of .text, .data.rel.ro, .data, .rodata and
# .bss, so that a start faults in a few neighbouring pages instead of pages spread over the whole
# binary. -function-sections gives each of calc's functions a section of its own (swiftc gives
# one only to public ones), which is what lld moves: `calc -k 12+3=` peaks at about 2.6 MB
# (4.4 MB with a stale order; Documentation/Performance.md, "Start-up memory toward 1.25× bc").
#
# -disable-concrete-type-metadata-mangled-name-accessors: a concrete type's metadata (an array
# of calc's own type, an optional) is got through an accessor function, not by the runtime
# demangling its mangled name at first use: `calc -k 12+3=` runs 232,940 instructions instead of
# 324,418 and peaks at 2,128 KB instead of 2,256; an everyday line runs the same instructions
# (Documentation/Performance.md, "Start-up, session 13").
#
# --wrap=sysconf: libdispatch's constructor counts the processors at every start; glibc reads
# /sys twice for that, Sources/CArguments/processors.c asks sched_getaffinity (about 20 µs).
STATIC_FLAGS := -Xswiftc -static-executable -Xlinker -ltinfo -Xswiftc -use-ld=lld \
  -Xlinker --symbol-ordering-file=$(CURDIR)/Scripts/startup-order.txt \
  -Xlinker --no-warn-symbol-ordering -Xswiftc -Xfrontend -Xswiftc -function-sections \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xlinker --wrap=sysconf

# Always asks SwiftPM, which rebuilds only what changed.
build:
	$(SWIFT) build -c release $(STATIC_FLAGS) --product calc

# `make install` alone builds the binary if there is none; after changing the sources, run
# `make` first (so that `sudo make install` does not build as root).
$(RELEASE_BINARY):
	$(SWIFT) build -c release $(STATIC_FLAGS) --product calc

install: $(CALC_BINARY)
	$(INSTALL) -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(BASHCOMPDIR)' \
	  '$(DESTDIR)$(ZSHCOMPDIR)' '$(DESTDIR)$(FISHCOMPDIR)'
	$(INSTALL) -m 755 '$(CALC_BINARY)' '$(DESTDIR)$(BINDIR)/calc'
	$(STRIP) '$(DESTDIR)$(BINDIR)/calc'
	$(INSTALL) -m 644 Documentation/calc.1 '$(DESTDIR)$(MANDIR)/man1/calc.1'
	'$(DESTDIR)$(BINDIR)/calc' --generate-completion-script bash > '$(DESTDIR)$(BASHCOMPDIR)/calc'
	'$(DESTDIR)$(BINDIR)/calc' --generate-completion-script zsh > '$(DESTDIR)$(ZSHCOMPDIR)/_calc'
	'$(DESTDIR)$(BINDIR)/calc' --generate-completion-script fish > '$(DESTDIR)$(FISHCOMPDIR)/calc.fish'
	chmod 644 '$(DESTDIR)$(BASHCOMPDIR)/calc' '$(DESTDIR)$(ZSHCOMPDIR)/_calc' \
	  '$(DESTDIR)$(FISHCOMPDIR)/calc.fish'

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/calc' '$(DESTDIR)$(MANDIR)/man1/calc.1' \
	  '$(DESTDIR)$(BASHCOMPDIR)/calc' '$(DESTDIR)$(ZSHCOMPDIR)/_calc' \
	  '$(DESTDIR)$(FISHCOMPDIR)/calc.fish'
