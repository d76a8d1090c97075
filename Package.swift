// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "wearbridge",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "wearbridge", targets: ["wearbridge"]),
        .executable(name: "wearbridge-bench", targets: ["wearbridge-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // Pure core: stdlib only, no I/O, no clocks, no globals.
        .target(name: "TrackCore"),
        // gpsd JSON protocol: line framing and tolerant decoding, no sockets.
        .target(name: "GPSD", dependencies: ["TrackCore"]),
        // Feeds a recorded gpsd stream through the core exactly as the daemon will.
        .target(
            name: "Replay",
            dependencies: ["TrackCore", "GPSD", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "wearbridge",
            dependencies: [
                "TrackCore", "GPSD", "Replay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "wearbridge-bench",
            dependencies: [
                "TrackCore", "GPSD", "Replay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "TrackCoreTests", dependencies: ["TrackCore"]),
        .testTarget(name: "GPSDTests", dependencies: ["GPSD", "TrackCore"]),
        .testTarget(
            name: "ReplayTests",
            dependencies: ["Replay", "GPSD", "TrackCore", "wearbridge", .product(name: "Logging", package: "swift-log")]
        ),
    ]
)
