# Riffle. `make run` opens the workbench on the demo workspace; `make test`
# runs every test. Both first install the missing Debian packages that
# Fyne's cgo build needs (scripts/install-deps.sh; quick when all present).

GO      ?= go
TAGS    ?= migrated_fynedo
BIN     ?= bin/riffle
RUNARGS ?=
BENCH   ?= .
PKGS    ?= ./...

.PHONY: run build test test-interop diff-flink race bench bench-kafka lint deps clean

deps:
	@scripts/install-deps.sh

build: deps
	$(GO) build -tags $(TAGS) -o $(BIN) .

run: build
	./$(BIN) $(RUNARGS)

test: deps
	$(GO) vet -tags $(TAGS) $(PKGS)
	$(GO) test -tags $(TAGS) $(PKGS)

# The tests beside real servers (Apache Flink on 127.0.0.1; Java and Maven
# needed): scripts/interop.sh installs and starts them, runs the tests tagged
# `interop` and stops the servers. INTEROPARGS go to `go test`.
INTEROPARGS ?=
test-interop: deps
	TAGS=$(TAGS) scripts/interop.sh $(INTEROPARGS)

# The differential run alone: random queries on Riffle and on real Flink
# (started and stopped as for test-interop), final results compared. The
# environment sets the size: RIFFLE_DIFF_N=10000 RIFFLE_DIFF_SEED=7
# RIFFLE_DIFF_REPORT=diff.txt make diff-flink. See docs/differential-testing.md.
diff-flink: deps
	RIFFLE_PYFLINK=0 TAGS=$(TAGS) scripts/interop.sh -run 'TestDiffFlink$$' -v -timeout 3h

# The pure-Go packages under the race detector.
race:
	$(GO) test -race ./engine/results/...

bench: deps
	$(GO) test -tags $(TAGS) -run '^$$' -bench '$(BENCH)' -benchmem $(PKGS)

# Riffle against real Flink reading the same Kafka topics (10 M JSON and 10 M
# Avro records) into blackhole: records/s per core. Starts a broker and a
# private Flink; KAFKABENCHARGS go to interop/kafkabench (e.g. -records
# 1000000 -runs 1). See docs/kafka-testing.md.
KAFKABENCHARGS ?=
bench-kafka: deps
	TAGS=$(TAGS) scripts/bench-kafka.sh $(KAFKABENCHARGS)

lint: deps
	@unformatted="$$(gofmt -l .)"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet -tags $(TAGS) $(PKGS)

clean:
	rm -rf bin
