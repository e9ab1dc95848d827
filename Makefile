# makruktb — see README.md.
GO          ?= go
PIECES      ?= 4
TABLES      ?= data
THREADS     ?= 2
DTB         ?= thai,cambodian
GENFLAGS    ?=
BIN         := build/makruktb

.PHONY: all build lib ctest bench-lib tables verify test test-long race loadtest lint fmt-check tidy-check vet bench fuzz clean cluster-test cluster2-test outofcore-test stress audit v2-reference v3-reference faults v2-test study-test

all: build

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/makruktb

# The C library for engines: build/libmakruktb.so and build/makruktb.h.
# It is built with Go $(LIB_GOTOOLCHAIN), which the go command fetches from
# the module proxy on first use (about 76 MB): up to Go 1.26 every call
# from a C thread into Go received from one closed channel under its lock
# (golang/go#77522), so two engine threads probing at once ran at 1.2 times
# one thread; Go 1.27 checks an atomic flag first. LIB_GOTOOLCHAIN=local
# builds it with the Go on the PATH.
LIB_GOTOOLCHAIN ?= go1.27.3
lib:
	GOTOOLCHAIN=$(LIB_GOTOOLCHAIN) $(GO) build -buildmode=c-shared -o build/libmakruktb.so ./cmd/libmakruktb
	rm -f build/libmakruktb.h
	cp cmd/libmakruktb/makruktb.h build/

# C programs link against build/libmakruktb.so and find it next to them.
CC          ?= cc
CFLAGS      ?= -std=c11 -O2 -Wall -Wextra -Werror
C_LINK      := -Ibuild -Lbuild -lmakruktb -Wl,-rpath,'$$ORIGIN' -lpthread

# The C test checks answers, not speed: it builds the library with the Go
# on the PATH (no toolchain to fetch, so it runs offline); bench-lib and a
# plain make lib use $(LIB_GOTOOLCHAIN).
ctest: LIB_GOTOOLCHAIN = local

# The C test: builds the library, generates the two tables it probes into
# build/ctest-tables and checks the answers from C; then compiles the
# README's C example from the README's own text and runs it as the README
# shows, and against a damaged table (it must fail, naming the file).
ctest: lib build
	rm -rf build/ctest-tables build/ctest-tables-v2
	$(BIN) gen --tables build/ctest-tables --format 1 KRvK KRRvK > /dev/null
	$(BIN) gen --tables build/ctest-tables-v2 --format 2 KRvK KRRvK > /dev/null
	$(BIN) convert --tables build/ctest-tables-v2 --wdl thai,none KRvK KRRvK > /dev/null
	$(CC) $(CFLAGS) -o build/probe_test cmd/libmakruktb/ctest/probe_test.c $(C_LINK)
	build/probe_test build/ctest-tables
	build/probe_test build/ctest-tables-v2
	bash cmd/libmakruktb/ctest/readme-example "$(CC)" "$(CFLAGS)"

# WDL probes per second from C, one and two threads (needs KRvKN in $(TABLES));
# then, side by side with Syzygy's prober on the same positions, cold and
# warm: FATHOM is a checkout of github.com/jdart1/Fathom, SYZYGY a directory
# with Syzygy's .rtbw files of FATHOM_MATERIALS and of their captures (made
# by rtbgen from github.com/syzygy1/tb), both outside the repository; the
# comparison is skipped, saying so, without them. $(TABLES) needs the
# version-3 WDL files of the same materials (convert --wdl-format 3), of
# the profile FATHOM_RULES: thai, or none (no count: what Syzygy's hold;
# convert --wdl thai,none).
FATHOM           ?=
SYZYGY           ?=
FATHOM_MATERIALS ?= KRRvKN
FATHOM_RULES     ?= thai
bench-lib: lib
	$(CC) $(CFLAGS) -o build/bench_lib cmd/libmakruktb/ctest/bench.c $(C_LINK)
	build/bench_lib $(TABLES)
	@if [ ! -f "$(FATHOM)/src/tbprobe.c" ] || [ ! -d "$(SYZYGY)" ]; then \
		echo "bench-lib: no comparison with Syzygy's prober: give FATHOM=DIR (a checkout of github.com/jdart1/Fathom) and SYZYGY=DIR (Syzygy's tables of $(FATHOM_MATERIALS))"; \
	else \
		$(CC) $(CFLAGS) -D_GNU_SOURCE -I$(FATHOM)/src -o build/fathom_bench cmd/libmakruktb/ctest/fathom_bench.c $(FATHOM)/src/tbprobe.c $(C_LINK) && \
		MTB_BENCH_RULES=$(FATHOM_RULES) build/fathom_bench $(TABLES) $(SYZYGY) $(FATHOM_MATERIALS); \
	fi

# Generates every pawnless table up to $(PIECES) pieces into $(TABLES), with
# the board's-honour (DTB) tables of the profiles in $(DTB) ("none": none),
# in format version 2; $(GENFLAGS) adds gen's flags (--format 1, --no-verify).
tables: build
	$(BIN) gen --tables $(TABLES) --threads $(THREADS) --max-pieces $(PIECES) --dtb $(DTB) $(GENFLAGS)

# Verifies the tables in $(TABLES) that its catalogue does not yet list
# as verified (all of them after a fresh make tables); resumable.
verify: build
	$(BIN) verify --tables $(TABLES) --threads $(THREADS) --pending

# A one-node Slurm cluster (installs slurm-wlm and munge when missing,
# runs the daemons as root in a temporary directory) generates the ≤4-piece
# set and KRRvKN through "makruktb cluster", with one job cancelled and
# resubmitted; every file must match data/checksums.txt.
cluster-test: build
	bash .ci/cluster-test

# Two Slurm nodes on this machine (network namespaces, half the CPUs and
# memory each, one shared directory): the ≤4-piece set and KRRvKN, whose
# job runs on the node that did not make its sub-tables.
cluster2-test: build
	bash .ci/cluster2-test

outofcore-test: build
	bash .ci/outofcore-test

# KRRvKN and KRSvKN in version 1, converted to version 2 and verified
# (every value and category): the long comparison of the two formats.
v2-test: build
	bash .ci/v2-test

# study's counts against a brute force over the full board, KRvKN included,
# plain and under the thai board's count (go test does the three-piece
# materials, and KRvKN's count-critical examples).
study-test:
	MAKRUKTB_STUDY=long $(GO) test -count=1 -timeout 90m ./retro -run 'TestStudyAgainstBruteForce|TestStudyUnderBoardCount' -v

# KSSvKR and KSNvKR generated 38 times each with 2, 8 and 4 workers, in
# memory and out of core: every file must be its reference checksum
# (about 3 hours; RUNS=2 doubles the runs, TABLES=... names other tables).
# The short version runs in go test (retro's TestKhonTablesEveryTime).
stress: build
	bash .ci/stress

# Issue 42's audit: every table up to $(AUDIT_PIECES) pieces (five by
# default, about 2.5 hours; AUDIT_PIECES=4 for a quick one) generated with
# two workers into $(AUDIT_DIR) in format version 1, each file compared
# with data/checksums.txt.
AUDIT_DIR    ?= /tmp/makruktb-audit
AUDIT_PIECES ?= 5
audit: build
	AUDIT_DIR=$(AUDIT_DIR) PIECES=$(AUDIT_PIECES) bash .ci/audit

# The version-2 reference of a directory of version-1 tables (an audit's):
# make v2-reference SRC=$(AUDIT_DIR) DST=DIR [APPEND=1] converts a linked
# copy and checks every file against data/checksums-v2.txt, writing the
# lines of the files it does not list to DIR/checksums-v2.new (APPEND=1:
# into data/checksums-v2.txt). WDL=none converts the tables alone (the
# WDL files, which derive the side not stored, take longer: a second run
# with the default WDL=thai,cambodian adds them).
WDL ?= thai,cambodian
v2-reference: build
	SRC=$(SRC) DST=$(DST) APPEND=$(APPEND) WDL=$(WDL) bash .ci/v2-reference

# The version-3 reference of the WDL files of a directory of version-2
# tables: make v3-reference SRC=DIR DST=DIR [APPEND=1] converts a linked
# copy with --wdl-format 3 and checks every WDL file against
# data/checksums-v3.txt, writing the lines of the files it does not list
# to DIR/checksums-v3.new (APPEND=1: into data/checksums-v3.txt).
v3-reference: build
	SRC=$(SRC) DST=$(DST) APPEND=$(APPEND) WDL=$(WDL) bash .ci/v3-reference

# gen (in memory and out of core), verify and convert killed with SIGKILL
# at 20 random moments each: nothing partial under a final name, a
# consistent record, and a rerun that ends with the reference checksums
# (go test runs 2 moments each).
faults:
	MAKRUKTB_LONG=1 MAKRUKTB_FAULTS=long $(GO) test -count=1 -timeout 60m ./cmd/makruktb -run 'TestKill9' -v

# The slowest package (cmd/makruktb, ~5 min alone) outlasts go test's
# default ten minutes when the machine runs other work beside it.
test: fmt-check tidy-check vet lint ctest race
	$(GO) test -timeout 30m ./...

# The tests that take minutes (every placement and every WDL file up to
# four pieces, the version-2 tables against version 1, KSvKM's version-3
# WDL files against version 2, the Khon tables
# twelve times, kills at two moments, 200 engine sessions): make test
# skips them to stay within ten minutes, CI runs them after it.
test-long:
	MAKRUKTB_LONG=1 $(GO) test -count=1 -timeout 60m ./index ./probe ./retro ./uci ./cmd/makruktb \
		-run 'TestFullBoardExhaustive4|TestWDLFilesUpToFourPieces|TestVersion2AnswersAsVersion1|TestWDLVersion3AnswersAsVersion2|TestKhonTablesEveryTime|TestKill9|TestQuitRelaysEverything'

# The concurrent code under the race detector, on small tables so that it
# stays fast: the prober and its block cache, the parallel writer and
# reader, the generator's and verifier's workers (in memory and out of
# core), the server and the directory lock.
race:
	$(GO) test -race -count=1 ./probe/... ./store -run 'TestConcurrentProbes|TestBlockCache|TestWrite|TestLoadAllNamesFirstBadBlock|TestCorruptTableInDirectory|TestListEditsDoNotGetLost'
	$(GO) test -race -count=1 ./internal/parallel ./retro -run 'TestFor|TestKnownChessResults|TestKRvKN$$|TestDTBKRvKN|TestBoardCountsKRvKN|TestOutOfCoreTwoWorkers|TestReleaserHoldsBackTheLead|UnderConcurrent|TestDeriveSmallTable'
	$(GO) test -race -count=1 ./uci -run 'TestAdapter'
	$(GO) test -race -count=1 ./api -run 'TestResponseCache'
	$(GO) test -race -count=1 ./cmd/makruktb -run 'TestServe|TestLoad|TestGoldenChecksums'

# go.mod and go.sum must be what go mod tidy makes of the code.
tidy-check:
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint:
	$(GO) tool staticcheck ./...

# A bounded load test of serve on loopback: 64 clients, a mix of valid,
# invalid and oversized requests, for LOAD (default 60s).
LOAD ?= 60s
loadtest:
	MAKRUKTB_LOAD=$(LOAD) $(GO) test -count=1 -v -run 'TestLoad' ./cmd/makruktb

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# A short fuzzing round of every fuzz target: a number of executions each,
# about 30 s a target on the 2-core development machine, or FUZZTIME each
# (FUZZTIME=5m make fuzz). The default is a count, not a duration: at the end
# of a -fuzztime duration Go 1.26's coordinator can fail a target with a bare
# "context deadline exceeded" and no failing input (golang/go#75804, fixed
# in Go 1.27); a count has no deadline to race.
FUZZTIME ?=
fuzztime = $(if $(FUZZTIME),$(FUZZTIME),$(1)x)
fuzz:
	$(GO) test ./tb -run '^$$' -fuzz '^FuzzParseFEN$$' -fuzztime $(call fuzztime,700000)
	$(GO) test ./probe -run '^$$' -fuzz '^FuzzReader$$' -fuzztime $(call fuzztime,1000000)
	$(GO) test ./uci -run '^$$' -fuzz '^FuzzParsePosition$$' -fuzztime $(call fuzztime,700000)
	$(GO) test ./tb/honour -run '^$$' -fuzz '^FuzzParseRules$$' -fuzztime $(call fuzztime,500000)
	$(GO) test ./retro -run '^$$' -fuzz '^FuzzResume$$' -fuzztime $(call fuzztime,50000)

clean:
	rm -rf build
