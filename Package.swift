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
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // Pure core: stdlib only, no I/O, no clocks, no globals.
        .target(name: "TrackCore"),
        // Bluetooth heart-rate straps, pure parts: the 0x2A37 measurement parser.
        .target(name: "HeartRate"),
        // The Attribute Protocol's PDUs as values (no sockets): what GATT is built on.
        .target(name: "ATT"),
        // The heart-rate strap's GATT client as a pure state machine: discovery, CCCD, notifications.
        .target(name: "GATT", dependencies: ["ATT", "HeartRate"]),
        // Debian's libbluetooth (BlueZ) headers and library, through pkg-config.
        .systemLibrary(
            name: "CBluetooth",
            pkgConfig: "bluez",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        // Reconnect backoff and the monotonic clock every link (gpsd, Bluetooth) shares.
        .target(name: "LinkTiming"),
        // The kernel Bluetooth stack: L2CAP ATT bearer, LE scanning, the strap link that never gives up.
        .target(
            name: "Bluetooth",
            dependencies: [
                "CBluetooth", "ATT", "GATT", "HeartRate", "LinkTiming",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // gpsd JSON protocol: line framing and tolerant decoding, no sockets.
        .target(name: "GPSD", dependencies: ["TrackCore"]),
        // Feeds a recorded gpsd stream through the core exactly as the daemon will.
        .target(
            name: "Replay",
            dependencies: ["TrackCore", "GPSD", .product(name: "Logging", package: "swift-log")]
        ),
        // The headless data log: SQLite through GRDB, WAL, migrations, batched commits.
        .target(
            name: "Store",
            dependencies: [
                "TrackCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // wearbridge.toml: strict keys, values checked, errors that name the key.
        .target(
            name: "Config",
            dependencies: ["TrackCore", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // The control socket: line-delimited JSON requests and replies, server and client.
        .target(
            name: "Control",
            dependencies: [
                "GPSD",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A live gpsd connection: WATCH, reading on its own task, reconnect with backoff.
        .target(
            name: "GPSDLink",
            dependencies: [
                "GPSD", "LinkTiming",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The service: engine loop, storage writer, control, systemd notify and watchdog.
        .target(
            name: "Daemon",
            dependencies: [
                "TrackCore", "GPSD", "GPSDLink", "Store", "Config", "Control", "Bluetooth", "HeartRate",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "wearbridge",
            dependencies: [
                "TrackCore", "GPSD", "Replay", "Store", "Config", "Control", "GPSDLink", "Daemon", "HeartRate",
                "Bluetooth",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // What tests and benchmarks both need around real processes: /proc figures, a notify socket.
        .target(name: "Harness"),
        .executableTarget(
            name: "wearbridge-bench",
            dependencies: [
                "TrackCore", "GPSD", "GPSDLink", "Replay", "Harness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "TrackCoreTests", dependencies: ["TrackCore", "Harness"]),
        .testTarget(name: "GPSDTests", dependencies: ["GPSD", "TrackCore"]),
        .testTarget(
            name: "HeartRateTests",
            dependencies: [
                "HeartRate", "ATT", "GATT", "Bluetooth", "LinkTiming", "Harness",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ReplayTests",
            dependencies: [
                "Replay", "GPSD", "TrackCore", "Harness", "wearbridge", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "TrackCore", "GPSD", "GPSDLink", "Store", "Config", "Control", "Daemon", "Bluetooth", "Harness",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ]
)
