// swift-tools-version:6.1
// Micro-benchmarks (ordo-one/package-benchmark): a package of their own, so that `make test` and CI
// never resolve or build the benchmark library. `make bench` runs them (`swift package benchmark`).
import PackageDescription

import struct Foundation.URL

// A path dependency is named by its directory (main, a worktree, a CI clone), not by its manifest.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "ScrollWidgetsBenchmarks",
    dependencies: [
        .package(path: ".."),
        // Linux + Swift 6.3: naming the traits turns off the default "RuntimeInterposer", whose
        // package (swift-runtime-interposer) is not among the offline packages.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The scenes in motion that the benchmarks and the callgrind counts share.
        .target(name: "FrameWorkloads", dependencies: [.product(name: "ScrollCore", package: root)]),
        .executableTarget(
            name: "frame-count", dependencies: ["FrameWorkloads", .product(name: "ScrollCore", package: root)]),
        .executableTarget(
            name: "FrameBenchmarks",
            dependencies: [
                "FrameWorkloads",
                .product(name: "ScrollCore", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FrameBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
