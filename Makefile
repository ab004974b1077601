# Riffle. `make run` opens the workbench on the demo workspace; `make test`
# runs every test. Both first install the missing Debian packages that
# Fyne's cgo build needs (scripts/install-deps.sh; quick when all present).

GO      ?= go
TAGS    ?= migrated_fynedo
# The workbench binary (build, run, packages) leaves out Fyne's bundled
# colour emoji font (no_emoji): Fyne parses it once per text style, ~19 MB
# of heap (docs/benchmarks.md "The workbench under big results"); emoji in
# results are drawn from the system's fonts (docs/known-gaps.md).
APPTAGS ?= $(TAGS),no_emoji
BIN     ?= bin/riffle
RUNARGS ?=
BENCH   ?= .
# The engine is a Go module of its own (engine/go.mod), and so is the
# harness against DuckDB (bench/go.mod, DuckDB's C++ library linked by cgo:
# g++); go.work joins them to the workbench's module (.), so ./engine/...
# and ./bench/... are named apart.
PKGS    ?= ./... ./engine/... ./bench/...

.PHONY: run build package test-package test test-race test-fuzz test-interop diff-flink race bench bench-kafka bench-nexmark-flink lint deps clean

deps:
	@scripts/install-deps.sh

# The binary is built with Riffle's patched copy of a dependency file
# (third_party/README.md): scripts/patched-deps.sh prepares it under
# bin/deps and names the Go workspace file that uses it.
build: deps
	w=$$(GO=$(GO) scripts/patched-deps.sh) && GOWORK=$$w $(GO) build -tags $(APPTAGS) -o $(BIN) .

run: build
	./$(BIN) $(RUNARGS)

# Linux packages under dist/ (gitignored): a tar.xz made by `fyne package`
# (fyne.io/tools, pinned in scripts/package.sh) and a .deb made by dpkg-deb
# that installs under /usr. test-package (run by `make test`, ~15 s with a warm
# build cache) builds the .deb in a scratch folder, unpacks it with dpkg -x and
# runs the unpacked riffle. See docs/commands.md, "Install".
PKGDEPS ?= dpkg-dev xz-utils desktop-file-utils
package: deps
	@scripts/install-deps.sh $(PKGDEPS)
	GO=$(GO) TAGS=$(APPTAGS) scripts/package.sh

test-package: deps
	@scripts/install-deps.sh $(PKGDEPS)
	GO=$(GO) TAGS=$(APPTAGS) scripts/package-test.sh

test: deps
	$(GO) vet -tags $(TAGS) $(PKGS)
	$(GO) test -tags $(TAGS) $(PKGS)
	@$(MAKE) --no-print-directory test-package
	@$(MAKE) --no-print-directory test-race
	@$(MAKE) --no-print-directory test-fuzz

# Every fuzz target, run by `make test` as a smoke run of a fixed number of
# inputs each (the count after the second colon, about 3-5 s each on a
# 2-core machine), and by `make test-fuzz FUZZTIME=10m` as a real search of
# that long each (-timeout 0 because go test's default 10-minute timeout
# would end a 10-minute run). A count has no deadline: a duration makes Go
# 1.26's fuzz coordinator race its own deadline and fail a target with only
# "context deadline exceeded" and no failing input (golang/go#75804, fixed
# in Go 1.27; it failed CI twice in a row on 4 December 2026), so with a
# duration such a target runs up to twice more. A crasher is kept under the
# package's testdata/fuzz and fails the run.
FUZZTIME ?=
FUZZ     ?= engine/sql:FuzzParse:10000 engine/gateway:FuzzServeHTTP:2000 \
	engine/gateway:FuzzDecodeFetchResults:5000 engine/connector/format/json:FuzzDecode:15000 \
	engine/connector/format/csv:FuzzDecode:30000 engine/connector/format/avro:FuzzDecode:15000 \
	engine/connector/format/cdcjson:FuzzDecode:8000 workbench/editor:FuzzSplitStatements:15000 \
	workbench/editor:FuzzEditOps:2000 engine/internal/state:FuzzReader:100000
test-fuzz: deps
	@set -e; for t in $(FUZZ); do \
	  pkg=$${t%%:*}; rest=$${t#*:}; fn=$${rest%%:*}; count=$${rest#*:}; \
	  budget="$(FUZZTIME)"; [ -n "$$budget" ] || budget=$${count}x; \
	  echo "fuzz $$pkg $$fn ($$budget)"; \
	  run() { $(GO) test -tags $(TAGS) -run '^$$' -fuzz "^$$fn\$$" -fuzztime $$budget -timeout 0 ./$$pkg/ 2>&1; }; \
	  tries=1; \
	  until out=$$(run); do \
	    case "$$out" in \
	      *"Failing input written"*|*"panic:"*) echo "$$out"; exit 1;; \
	      *"context deadline exceeded"*) \
	        if [ $$tries -ge 3 ]; then echo "$$out"; exit 1; fi; tries=$$((tries+1)); \
	        echo "fuzz $$fn: deadline race at -fuzztime's end, no failing input (golang/go#75804); again";; \
	      *) echo "$$out"; exit 1;; \
	    esac; \
	  done; \
	  case "$$out" in *"no fuzz tests"*) echo "no fuzz target $$fn in $$pkg"; exit 1;; esac; \
	done

# The race detector over the concurrent core, run by `make test`: the
# runtime, the Table API, the gateway, the result store, and the
# workbench's controller (RACEUI: Run all's queue and its INSERT waits,
# Stop, connections to a gateway, the Jobs panel, Run to CSV file, closing
# and the autosave) with -short. The whole ui package under -race takes
# about 9 minutes on 2 cores, too long for every run:
# `make test-race RACEUI=.` runs all of it.
RACEPKGS ?= ./engine/internal/runtime/ ./engine/table/ ./engine/gateway/ ./engine/results/...
RACEUI   ?= ^Test(RunAll|StopWhile|StopSays|CanceledQuery|GatewayConnection|GatewayStreaming|GatewaySessionLost|GatewayGone|JobsPanel|RunToFile|ClosingStops|EditsAreSaved|KilledWorkbench)
test-race: deps
	$(GO) test -race -tags $(TAGS) $(RACEPKGS)
	$(GO) test -race -tags $(TAGS) -short -run '$(RACEUI)' ./workbench/ui/

# The tests beside real servers (Apache Flink, Kafka, PostgreSQL and MariaDB
# on 127.0.0.1; Java and Maven needed, the databases come from Debian's
# packages): scripts/interop.sh installs and starts them, runs the tests
# tagged `interop` and stops the servers. INTEROPARGS go to `go test`.
INTEROPARGS ?=
test-interop: deps
	TAGS=$(TAGS) scripts/interop.sh $(INTEROPARGS)

# The differential run alone: random queries on Riffle and on real Flink
# (started and stopped as for test-interop), final results compared. The
# environment sets the size: RIFFLE_DIFF_N=10000 RIFFLE_DIFF_SEED=7
# RIFFLE_DIFF_REPORT=diff.txt make diff-flink. See docs/differential-testing.md.
diff-flink: deps
	RIFFLE_PYFLINK=0 TAGS=$(TAGS) scripts/interop.sh -run 'TestDiffFlink$$' -v -timeout 3h

# The race detector alone (as make test runs it).
race: test-race

bench: deps
	$(GO) test -tags $(TAGS) -run '^$$' -bench '$(BENCH)' -benchmem $(PKGS)

# Riffle against real Flink reading the same Kafka topics (10 M JSON and 10 M
# Avro records) into blackhole: records/s per core. Starts a broker and a
# private Flink; KAFKABENCHARGS go to interop/kafkabench (e.g. -records
# 1000000 -runs 1). See docs/kafka-testing.md.
KAFKABENCHARGS ?=
bench-kafka: deps
	TAGS=$(TAGS) scripts/bench-kafka.sh $(KAFKABENCHARGS)

# The Nexmark queries on real Flink (parallelism 2) and on Riffle
# (parallelism 1 and 2) over the same events in a Kafka topic: events/s
# per core and the ratio. Starts a broker and a private Flink;
# NEXFLINKARGS go to interop/nexflinkbench (e.g. -events 1000000 -queries
# q0,q5 -runs 3). See docs/benchmarks.md.
NEXFLINKARGS ?=
bench-nexmark-flink: deps
	TAGS=$(TAGS) scripts/bench-nexmark-flink.sh $(NEXFLINKARGS)

lint: deps
	@unformatted="$$(gofmt -l .)"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet -tags $(TAGS) $(PKGS)

clean:
	rm -rf bin
