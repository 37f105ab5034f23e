# Two entry points on a fresh Debian machine:
#   make run   — installs what is missing, builds and runs the server (prints its URL)
#   make test  — installs what is missing and runs every test
# (`make screenshot` regenerates the README's picture, docs/screenshot.png.)
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

HOST ?= 127.0.0.1
PORT ?= 8080
RUN_PACKAGES := libwebsockets-dev libsqlite3-dev libnats-dev pkg-config
# firefox-esr: the browser suite's core in a second engine (BrowserFirefoxTests, README "Tests").
# systemd (systemd-analyze), nginx and openssl: the deploy/ files' tests (docs/DEPLOY.md).
# nats-server: the cluster's tests (docs/CLUSTER.md).
# libwebsockets-test-server: the peer `widget-load peer` measures against (its test and make bench-load).
TEST_PACKAGES := $(RUN_PACKAGES) chromium fonts-dejavu-core firefox-esr systemd nginx openssl nats-server \
	libwebsockets-test-server
BENCH_PACKAGES := $(RUN_PACKAGES) valgrind
BENCH_LOAD_PACKAGES := $(RUN_PACKAGES) libwebsockets-test-server
CLUSTER_PACKAGES := $(RUN_PACKAGES) nats-server nginx

.PHONY: run cluster deps-cluster bench-cluster bench-python test screenshot fuzz asan tsan bench bench-load hot-functions soak build format lint deps-run deps-test deps-bench deps-bench-load clean

run: deps-run
	swift build -c release --product widget-server
	.build/release/widget-server --host $(HOST) --port $(PORT)

# Three nodes of a cluster (docs/CLUSTER.md) behind nginx on 127.0.0.1:8080, on a nats-server with
# JetStream in a scratch directory (NATS_SERVERS=3: three clustered ones); Ctrl-C stops them all.
cluster: deps-cluster
	swift build -c release --product widget-server
	WIDGET_SERVER_BIN=.build/release/widget-server ./scripts/cluster

test: deps-test lint
	swift build --build-tests
	swift test --skip-build
	./scripts/fuzz

# The README's picture, docs/screenshot.png: the demo page at 390 × 844 (2×), light, at rest, taken in
# headless Chromium by BrowserReadmeScreenshotTests (which `make test` runs without writing it).
screenshot: deps-test
	swift build --build-tests
	UPDATE_SCREENSHOT=1 swift test --skip-build --filter BrowserReadmeScreenshotTests

# libFuzzer on the message, trace and display-list decoders and on replay, 15 s each from Fuzz/Corpus
# (FUZZ_SECONDS, FUZZ_TARGETS); fails on any crash, leak or timeout, inputs in .build/fuzz-artifacts/.
fuzz: deps-run
	./scripts/fuzz

# Unit and integration tests (not the browser suites) under AddressSanitizer, built in .build/asan.
asan: deps-test
	./scripts/sanitize address

# The same under ThreadSanitizer, built in .build/tsan.
tsan: deps-test
	./scripts/sanitize thread

# The micro-benchmark table of docs/BENCHMARKS.md: widget-bench's counts, package-benchmark (p50/p99,
# mallocs; Benchmarks/ is a package of its own, so `make test` never builds it) and callgrind
# instruction counts. ~2 minutes once built; the first build of Benchmarks/ takes several more.
bench: deps-bench
	Benchmarks/bench

# Sources/widget-server/hot-functions.order, which release links lay out by (Package.swift): the
# functions a pointer move, a ping and the frame clock run in the live server under callgrind, in
# the order they call each other. Again after the input path changes much (~3 minutes).
hot-functions: deps-bench
	/usr/bin/python3 scripts/hot-functions.py

# The load table of docs/BENCHMARKS.md: widget-load starts a fresh release widget-server on a free
# loopback port for each run (latency, fan-out, rooms, memory, idle traffic), ~3–5 minutes in all;
# then `peer`: our fan-out beside libwebsockets' mirror (libwebsockets-test-server) at 500, 1,000
# and 2,000 clients, server pinned to CPU 0 and generator to CPU 1 (~1 minute).
bench-load: deps-bench-load
	swift build -c release --product widget-server
	swift build -c release --product widget-load
	.build/release/widget-load suite --public Public
	.build/release/widget-load peer --public Public

# Input → frame against echo from an independent client (docs/BENCHMARKS.md, "Input → frame"):
# Python's websockets (Debian's python3-websockets, so Debian's own python3) on a fresh release
# server on a free loopback port; the ping at once and 1.1 ms after the move (~10 s).
bench-python:
	@./scripts/apt-install $(RUN_PACKAGES) python3-websockets
	swift build -c release --product widget-server
	/usr/bin/python3 scripts/latency-probe.py --server .build/release/widget-server

# The cluster's table of docs/BENCHMARKS.md ("Cluster"): a nats-server and three release nodes on
# loopback; one room's audience on one node against three, input → frame on a relay against the
# owner, failover time over 20 kills -9 (~3 minutes).
bench-cluster: deps-cluster
	swift build -c release --product widget-server
	swift build -c release --product widget-load
	.build/release/widget-load cluster

# Soak (docs/RELIABILITY.md, "Soak"; ~14 min, not in `make test`): 10,000 connect/disconnect cycles, a 10-min
# multi-client replay, 3 rounds of hostile clients; fails on fd or memory growth, or a refusal the rules call for not coming.
soak: deps-run
	swift build -c release --product widget-server
	swift build -c release --product widget-load
	.build/release/widget-load soak --public Public

# Style (.swift-format): `make format` rewrites in place; `make lint` (part of `make test`) fails on any drift.
SWIFT_SOURCES := Package.swift Sources Tests Fuzz/Sources Benchmarks/Package.swift Benchmarks/Sources Benchmarks/Benchmarks
format:
	swift format format -r -i --configuration .swift-format $(SWIFT_SOURCES)

lint:
	swift format lint -r --strict --configuration .swift-format $(SWIFT_SOURCES)

build: deps-run
	swift build

deps-run:
	@./scripts/apt-install $(RUN_PACKAGES)

deps-test:
	@./scripts/apt-install $(TEST_PACKAGES)

deps-cluster:
	@./scripts/apt-install $(CLUSTER_PACKAGES)

deps-bench:
	@./scripts/apt-install $(BENCH_PACKAGES)

deps-bench-load:
	@./scripts/apt-install $(BENCH_LOAD_PACKAGES)

clean:
	rm -rf .build Benchmarks/.build
