// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ScrollWidgets",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ScrollCore", targets: ["ScrollCore"]),
        .executable(name: "ruler-server", targets: ["ruler-server"]),
        .executable(name: "ruler-replay", targets: ["ruler-replay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // libwebsockets from the system (Debian: libwebsockets-dev).
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // Pure, deterministic core: no clock, no I/O.
        .target(name: "ScrollCore"),
        // libwebsockets bridge, rooms, frame clock.
        .target(
            name: "ScrollServer",
            dependencies: [
                "ScrollCore", "CLibWebSockets",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Small blocking RFC 6455 client: tests, CDP, live replay.
        .target(name: "WebSocketClient"),
        .executableTarget(
            name: "ruler-server",
            dependencies: [
                "ScrollServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "ruler-replay",
            dependencies: [
                "ScrollCore", "WebSocketClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "ruler-bench", dependencies: ["ScrollCore"]),
        .testTarget(name: "ScrollCoreTests", dependencies: ["ScrollCore"], exclude: ["Traces"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["WebSocketClient", "ScrollCore"]
        ),
    ]
)
