// swift-tools-version:6.0
import PackageDescription

// Builds and is tested on Linux only (Debian 12, Swift 6.3, libwebsockets-dev, libsqlite3-dev and
// libnats-dev through pkg-config, Glibc); no Apple platform is claimed, so `platforms` names none.
// Release builds leave out the runtime's exclusivity checks, which were a tenth of the input
// path's time (docs/BENCHMARKS.md, "Input → frame"); debug builds, which every test run, the
// sanitizers' included, uses, keep them. (Unsafe flags keep this package from being a versioned
// dependency of another; the benchmarks' package takes it by path, which SwiftPM allows.)
// Release builds also give each function its own section, so that the server's and the bench's
// links (lld, which the toolchain ships) can lay the functions a pointer move runs side by side in
// the order it runs them (`hot-functions.order`, written by `make hot-functions`): fetched from
// memory after an idle, they come as a stream instead of from all over the binary
// (docs/BENCHMARKS.md, "Input → frame").
let releaseSettings: [SwiftSetting] = [
    .unsafeFlags(
        ["-enforce-exclusivity=unchecked", "-Xfrontend", "-function-sections"], .when(configuration: .release))
]
let hotFunctions = "\(Context.packageDirectory)/Sources/widget-server/hot-functions.order"
let orderedLink: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(hotFunctions)", "-Xlinker", "--no-warn-symbol-ordering"],
        .when(configuration: .release))
]

let package = Package(
    name: "ScrollWidgets",
    products: [
        .library(name: "ScrollCore", targets: ["ScrollCore"]),
        .executable(name: "widget-server", targets: ["widget-server"]),
        .executable(name: "widget-replay", targets: ["widget-replay"]),
        .executable(name: "widget-load", targets: ["widget-load"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // libwebsockets from the system (Debian: libwebsockets-dev).
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // SQLite from the system (Debian: libsqlite3-dev): rooms' settled state across restarts.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // nats.c from the system (Debian: libnats-dev): the cluster's NATS and JetStream client.
        .systemLibrary(
            name: "CNATS",
            pkgConfig: "libnats",
            providers: [.apt(["libnats-dev"])]
        ),
        // Pure, deterministic core: no clock, no I/O.
        .target(name: "ScrollCore", swiftSettings: releaseSettings),
        // libwebsockets bridge, rooms, frame clock.
        .target(
            name: "ScrollServer",
            dependencies: [
                "ScrollCore", "CLibWebSockets", "CSQLite", "NATSClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: releaseSettings
        ),
        // NATS for the cluster: connection, subjects, JetStream key-value buckets (generic, no rooms).
        .target(name: "NATSClient", dependencies: ["CNATS"]),
        // Small blocking RFC 6455 client: tests, CDP, live replay, the soak's store check.
        .target(name: "WebSocketClient"),
        // A widget-server, nats-server or libwebsockets-test-server child on loopback (its port, memory,
        // descriptors, cores): the tests and widget-load.
        .target(name: "LoopbackTools"),
        .executableTarget(
            name: "widget-server",
            dependencies: [
                "ScrollServer", "ScrollCore", "NATSClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["hot-functions.order"],
            swiftSettings: releaseSettings,
            linkerSettings: orderedLink
        ),
        .executableTarget(
            name: "widget-replay",
            dependencies: [
                "ScrollCore", "WebSocketClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "widget-bench",
            dependencies: ["ScrollCore", "ScrollServer", .product(name: "Logging", package: "swift-log")],
            linkerSettings: orderedLink),
        // Many libwebsockets clients on one service thread, against a server on loopback.
        .executableTarget(
            name: "widget-load",
            dependencies: [
                "ScrollCore", "ScrollServer", "CLibWebSockets", "LoopbackTools", "WebSocketClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ScrollCoreTests", dependencies: ["ScrollCore"], exclude: ["Traces", "Tracks"]),
        // The server's pure parts (send policy, lookups) with a fake clock; no sockets (the test
        // client's frame parser reads what the server frames).
        .testTarget(
            name: "ScrollServerTests",
            dependencies: [
                "ScrollServer", "ScrollCore", "CSQLite", "LoopbackTools", "WebSocketClient",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The client on its own, against scripted peers: no server.
        .testTarget(name: "WebSocketClientTests", dependencies: ["WebSocketClient"]),
        .testTarget(name: "LoopbackToolsTests", dependencies: ["LoopbackTools"]),
        // NATSClient against real nats-servers on loopback (Debian: nats-server).
        .testTarget(name: "NATSClientTests", dependencies: ["NATSClient", "LoopbackTools"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["WebSocketClient", "LoopbackTools", "ScrollCore", "CSQLite"]
        ),
    ]
)

// libFuzzer targets (Fuzz/, `make fuzz`): only with SCROLL_FUZZ=1, so that `swift build` and
// `swift test` never see them (their entry point is libFuzzer's, and they need -sanitize=fuzzer).
if Context.environment["SCROLL_FUZZ"] == "1" {
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["ScrollCore"], path: "Fuzz/Sources/FuzzSupport"))
    for name in ["fuzz-client-message", "fuzz-trace", "fuzz-replay", "fuzz-display-list"] {
        package.targets.append(
            .executableTarget(name: name, dependencies: ["ScrollCore", "FuzzSupport"], path: "Fuzz/Sources/\(name)"))
    }
}
