# makruktb — see README.md.
GO          ?= go
PIECES      ?= 4
TABLES      ?= data
THREADS     ?= 2
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
BIN         := build/makruktb

.PHONY: all build tables test lint fmt-check vet bench fuzz clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/makruktb

# Generates every pawnless table up to $(PIECES) pieces into $(TABLES).
tables: build
	$(BIN) gen --tables $(TABLES) --threads $(THREADS) --max-pieces $(PIECES)

test: fmt-check vet lint
	$(GO) test ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint:
	$(GO) run $(STATICCHECK) ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# A short fuzzing round of every fuzz target (FUZZTIME each).
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./tb -run '^$$' -fuzz FuzzParseFEN -fuzztime $(FUZZTIME)
	$(GO) test ./probe -run '^$$' -fuzz FuzzReader -fuzztime $(FUZZTIME)

clean:
	rm -rf build
