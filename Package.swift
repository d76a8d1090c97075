// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "wearbridge",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "wearbridge", targets: ["wearbridge"]),
        .executable(name: "wearbridge-phone", targets: ["wearbridge-phone"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // Pure core: stdlib only, no I/O, no clocks, no globals. The path of a fix.
        .target(name: "TrackCore", dependencies: ["Elevation", "Energy"], path: "Sources/Core/TrackCore"),
        // Pure: altitude from GPS and a barometer, climbing and grade.
        .target(name: "Elevation", path: "Sources/Core/Elevation"),
        // Pure: energy spent on foot, with a load or without, by published equations.
        .target(name: "Energy", path: "Sources/Core/Energy"),
        // Pure: steps, cadence and stillness from an accelerometer, per placement.
        .target(name: "Gait", path: "Sources/Core/Gait"),
        // Pure: a planned route, its turns and a simpler line, and the wearer followed along it.
        .target(name: "Course", dependencies: ["TrackCore"], path: "Sources/Core/Course"),
        // Pure: XML's reserved characters escaped, for the exports and the race map.
        .target(name: "XMLEscaping", path: "Sources/Core/XMLEscaping"),
        // Pure: the FIT protocol's parts an encoder and a decoder share (its CRC).
        .target(name: "FITFormat", path: "Sources/Core/FITFormat"),
        // Pure: the session domain. A session's lifecycle, command ledger and controller, its rows and
        // events; neither gpsd nor Bluetooth reaches it.
        .target(
            name: "SessionCore",
            dependencies: [
                "TrackCore", "Energy", "HeartRate", "SpeedSensors", "StrideCalibration", "RaceCore", "Course",
            ],
            path: "Sources/Core/SessionCore"
        ),
        // Pure: the engine core the daemon's loop wraps (inputs and time in, typed actions out), its
        // write queue and what it asks of the store.
        .target(
            name: "Engine",
            dependencies: [
                "SessionCore", "TrackCore", "Energy", "Gait", "HeartRate", "SpeedSensors", "ATT", "GATT",
                "PhoneLinkMessages", "RaceCore", "Course", "PhoneLinkWire",
            ],
            path: "Sources/Core/Engine"
        ),
        // Hex text to bytes and back, in the forms field tools and captures write it.
        .target(name: "HexCoding", path: "Sources/Core/HexCoding"),
        // Bluetooth heart-rate straps, pure parts: the 0x2A37 parser, the strap's comings and goings.
        .target(name: "HeartRate", path: "Sources/Core/HeartRate"),
        // Footpods and treadmills, pure parts: Running Speed and Cadence (0x1814) and Fitness Machine
        // (0x1826) payloads, every flag combination, truncations as errors that name the field.
        .target(name: "SpeedSensors", path: "Sources/Core/SpeedSensors"),
        // A footpod's factor learnt outdoors from straight, steady stretches with usable GPS (pure),
        // per pace band where the stride changes with pace; applied to its distance indoors.
        .target(name: "StrideCalibration", path: "Sources/Core/StrideCalibration"),
        // Bluetooth LE values (no sockets): addresses, UUIDs and the Attribute Protocol's PDUs.
        .target(name: "ATT", path: "Sources/Core/ATT"),
        // Splits a byte stream into bounded lines: gpsd, the control socket, the phone link.
        .target(name: "LineFraming", path: "Sources/Core/LineFraming"),
        // sockaddr_un built once (paths and the abstract namespace).
        .target(name: "UnixSockets", path: "Sources/Adapters/UnixSockets"),
        // The released version both programs print (`--version`), which the Debian package agrees with.
        .target(name: "Release", path: "Sources/Core/Release"),
        // swift-log to stderr in the form journald keeps: every command logs through it.
        .target(
            name: "JournalLog",
            dependencies: ["UTCFormat", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Adapters/JournalLog"
        ),
        // ISO 8601 UTC times by hand, for the exports and the journal (never through ICU).
        .target(name: "UTCFormat", path: "Sources/Core/UTCFormat"),
        // The GATT client as a pure state machine driven by a plan (discovery, CCCDs, notifications,
        // reads), and the plans of a strap, a footpod and a treadmill.
        .target(
            name: "GATT",
            dependencies: ["HexCoding", "ATT", "HeartRate", "SpeedSensors"],
            path: "Sources/Core/GATT"
        ),
        // Debian's libbluetooth (BlueZ) headers and library, through pkg-config.
        .systemLibrary(
            name: "CBluetooth",
            path: "Sources/Adapters/CBluetooth",
            pkgConfig: "bluez",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        // Pure: which audio cues a session earns (typed news and time in, cues out), their queue
        // (priority, freshness, replacement, one at a time) and their words in any catalog.
        .target(
            name: "Cues",
            dependencies: ["SessionCore", "TrackCore", "HeartRate", "RaceCore", "Course"],
            path: "Sources/Core/Cues"
        ),
        // The cue catalogs: English and German built in (embedded from catalogs/*.toml), more
        // languages from a directory of the same files, no code.
        .target(
            name: "CueLanguages",
            dependencies: ["TOMLConfig", "Cues", "Config", .product(name: "TOMLKit", package: "TOMLKit")],
            path: "Sources/Adapters/CueLanguages",
            resources: [.embedInCode("catalogs/en.toml"), .embedInCode("catalogs/de.toml")]
        ),
        // Speech to PCM by espeak-ng in a child process (its library would keep some thirty audio
        // libraries resident in the daemon), played through PulseAudio (with a media role, so
        // music ducks) or straight to ALSA, one cue at a time.
        .target(
            name: "CueAudio",
            dependencies: ["CSpawn"],
            path: "Sources/Adapters/CueAudio"
        ),
        // pipe2 and posix_spawn's close-from, which Swift's Glibc module does not declare.
        .target(name: "CSpawn", path: "Sources/Adapters/CSpawn"),
        // mallopt's arena limit, for the daemon's start.
        .target(name: "CMalloc", path: "Sources/Adapters/CMalloc"),
        // Session exports (GPX, TCX, FIT, CSV): a logged session replayed through the core and
        // streamed to a file, never held whole.
        .target(
            name: "Export",
            dependencies: ["SessionCore", "TrackCore", "Energy", "HeartRate", "UTCFormat", "FITFormat", "XMLEscaping"],
            path: "Sources/Adapters/Export"
        ),
        // Adapter: course files (GPX tracks and routes, FIT courses) read into courses.
        .target(
            name: "CourseFiles",
            dependencies: ["Course", "TrackCore", "FITFormat"],
            path: "Sources/Adapters/CourseFiles"
        ),
        // bluetoothd's D-Bus API (discovery, Connect, Pair with a NoInputNoOutput agent, AcquireNotify,
        // ReadValue) through systemd's sd-bus, in C where sd-bus's variadic calls live.
        .target(name: "CBlueZ", path: "Sources/Adapters/CBlueZ", linkerSettings: [.linkedLibrary("systemd")]),
        // Reconnect backoff and the reconnect loop every connection (gpsd, Bluetooth, the phone) shares.
        .target(
            name: "Reconnection",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            path: "Sources/Adapters/Reconnection"
        ),
        // CLOCK_MONOTONIC and the wall clock, read in one place by the shells (never by a pure core).
        .target(name: "ProcessClock", path: "Sources/Adapters/ProcessClock"),
        // The links to straps, footpods and treadmills that never give up, over bluetoothd (D-Bus) when
        // it runs and over the kernel's sockets (L2CAP ATT bearer, LE scan) when it does not.
        .target(
            name: "Bluetooth",
            dependencies: [
                "HexCoding",
                "CBluetooth", "CBlueZ", "ATT", "GATT", "HeartRate", "SpeedSensors", "Reconnection", "ProcessClock",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/Bluetooth"
        ),
        // gpsd JSON protocol: tolerant decoding and the link's events, no sockets.
        .target(name: "GPSD", dependencies: ["TrackCore"], path: "Sources/Core/GPSD"),
        // Feeds a recorded gpsd stream through the core exactly as the daemon will.
        .target(
            name: "Replay",
            dependencies: ["TrackCore", "GPSD", "LineFraming", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Adapters/Replay"
        ),
        // A certificate's fingerprint as a value: parsed from a config, shown as OpenSSL shows it.
        .target(
            name: "CertificateFingerprint",
            dependencies: ["HexCoding"],
            path: "Sources/Core/CertificateFingerprint"
        ),
        // Each side's P-256 key and self-signed certificate, fingerprints, and the pinning check.
        .target(
            name: "Identity",
            dependencies: [
                "CertificateFingerprint",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/Identity"
        ),
        // The headless data log: SQLite through GRDB, WAL, migrations, typed rows to tables.
        .target(
            name: "Store",
            dependencies: [
                "HexCoding",
                "PhoneLinkMessages", "Engine",
                "TrackCore", "SessionCore", "HeartRate", "SpeedSensors", "PhoneLinkWire", "PhoneLinkContract",
                "RaceCore", "StrideCalibration", "Course",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Sources/Adapters/Store"
        ),
        // The one strict TOML reader both programs' configurations use: typed fields, every error a
        // ConfigError naming the file, the key, the value and what is allowed.
        .target(
            name: "TOMLConfig",
            dependencies: ["CAssertGuard", .product(name: "TOMLKit", package: "TOMLKit")],
            path: "Sources/Adapters/TOMLConfig"
        ),
        // An assert() inside a guarded call returns an error instead of aborting: toml++ (in
        // TOMLKit) asserts on some malformed documents (found by scripts/rigs/fuzz.sh config).
        .target(name: "CAssertGuard", path: "Sources/Adapters/CAssertGuard"),
        // wearbridge.toml: strict keys, values checked, errors that name the key.
        .target(
            name: "Config",
            dependencies: [
                "TOMLConfig",
                "TrackCore", "Energy", "Gait", "SessionCore", "GATT", "CertificateFingerprint", "Cues",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            path: "Sources/Adapters/Config"
        ),
        // The control socket's language, pure: a request line decoded (or refused with what was
        // wrong), a reply encoded. Apart from the server so that its fuzzer builds without NIO.
        .target(name: "ControlProtocol", path: "Sources/Core/ControlProtocol"),
        // The control socket: line-delimited JSON requests and replies, server and client.
        .target(
            name: "Control",
            dependencies: [
                "ControlProtocol", "Engine", "Energy", "Course",
                "SessionCore", "TrackCore", "LineFraming", "UnixSockets", "ProcessClock",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/Control"
        ),
        // A live gpsd connection: WATCH, reading on its own task, reconnect with backoff.
        .target(
            name: "GPSDLink",
            dependencies: [
                "GPSD", "Reconnection", "ProcessClock", "LineFraming",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/GPSDLink"
        ),
        // Virtual runs (Sources/Race): two runners, one race, through a PostgreSQL relay.
        // RaceCore/ (pure): the partner as the wearable knows it: the gap at equal elapsed time, who
        // leads (with hysteresis) and the partner link's health, time as an input.
        .target(name: "RaceCore", path: "Sources/Core/Race/RaceCore"),
        // RelayContract/ (pure): the relay's schema as versioned SQL (relay/migrations, embedded by
        // scripts/build/embed-migrations.py) and the typed rows phones read back from it.
        .target(name: "RelayContract", dependencies: ["Course", "TrackCore"], path: "Sources/Core/Race/RelayContract"),
        .target(
            name: "PhoneRaceCore",
            dependencies: ["RelayContract", "RaceCore", "TrackCore"],
            path: "Sources/Core/Race/PhoneRaceCore"
        ),
        .target(
            name: "RaceStore",
            dependencies: [
                "PhoneServer", "PhoneLinkContract", "PhoneLinkMessages", "PhoneRaceCore", "RelayContract",
                "SessionCore", "TrackCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Sources/Adapters/Race/RaceStore"
        ),
        // RelayClient/: the phone's side of the relay over postgres-nio with a TLS client certificate:
        // migrations, enrolment and the race commands.
        .target(
            name: "RelayClient",
            dependencies: [
                "RelayContract",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/Race/RelayClient"
        ),
        // RelayPump/: the phone's link to the relay, a service beside the phone server: the runner's
        // race messages out of the inbox's queue, the partner's and the relay's into it.
        .target(
            name: "RelayPump",
            dependencies: [
                "RelayClient", "RelayContract", "PhoneRaceCore", "RaceStore", "PhoneServer", "Reconnection", "Course",
                "SessionCore", "TrackCore", "ProcessClock", "Export",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Adapters/Race/RelayPump"
        ),
        // The phone link's home (Sources/PhoneLink): its layers, one folder each.
        // Contract/: the wire's Swift, generated once from proto/wearbridge/link/v1/link.proto
        // (scripts/build/generate-proto.sh) and committed, so no build runs protoc.
        .target(
            name: "PhoneLinkContract",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Sources/Core/PhoneLink/Contract"
        ),
        // Messages/ (pure): the typed messages the wearable tells the phone, and which session news
        // each one reports.
        .target(
            name: "PhoneLinkMessages",
            dependencies: ["SessionCore", "TrackCore", "HeartRate"],
            path: "Sources/Core/PhoneLink/Messages"
        ),
        // Wire/: typed link messages to and from their protobuf form (the outbox stores them encoded).
        .target(
            name: "PhoneLinkWire",
            dependencies: [
                "HexCoding", "PhoneLinkMessages", "SessionCore", "TrackCore", "Energy", "PhoneLinkContract", "RaceCore",
                "Course",
            ],
            path: "Sources/Core/PhoneLink/Wire"
        ),
        // Delivery/ (pure): the delivery window, the inbox mark, link health and pending commands,
        // time as an input.
        .target(
            name: "PhoneLinkDelivery",
            dependencies: ["SessionCore", "TrackCore"],
            path: "Sources/Core/PhoneLink/Delivery"
        ),
        // PhoneCore/ (pure): the phone's side of the link as one state machine, as `Engine` is the
        // wearable's: streams, messages, store results and time in; typed actions out.
        .target(
            name: "PhoneCore",
            dependencies: ["PhoneLinkDelivery", "PhoneLinkMessages"],
            path: "Sources/Core/PhoneLink/PhoneCore"
        ),
        // TLS/: mutual TLS as both ends set it up (identity from its files, the peer pinned).
        .target(
            name: "PhoneLinkTLS",
            dependencies: [
                "Identity", .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ],
            path: "Sources/Adapters/PhoneLink/TLS"
        ),
        // Wearable/: the wearable's client. Dials the phone over mutual TLS, sends the outbox, marks
        // it delivered on acks, hands the phone's commands to the engine.
        .target(
            name: "WearableLinkClient",
            dependencies: [
                "CertificateFingerprint",
                "PhoneLinkTLS",
                "Engine",
                "SessionCore", "PhoneLinkDelivery", "PhoneLinkWire", "PhoneLinkContract", "Identity", "Store",
                "Reconnection", "ProcessClock",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/PhoneLink/Wearable"
        ),
        // Phone/: the phone-role peer. The gRPC server, its durable inbox, the commands it sends.
        .target(
            name: "PhoneServer",
            dependencies: [
                "CertificateFingerprint",
                "PhoneLinkTLS",
                "TOMLConfig",
                "PhoneLinkMessages",
                "SessionCore", "PhoneLinkDelivery", "PhoneCore", "PhoneLinkWire", "PhoneLinkContract", "Identity",
                "TrackCore",
                "HeartRate", "RelayContract", "SpeedSensors", "ProcessClock", "Course",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Adapters/PhoneLink/Phone"
        ),
        // The field dashboard (Sources/Dashboard): the phone's face in any browser.
        // DashboardCore/ (pure): the link strip's judgement, who may come in, command ids, SSE frames,
        // the track in local metres; time and secrets as inputs.
        .target(
            name: "DashboardCore",
            dependencies: ["TrackCore", "SessionCore", "RelayContract", "PhoneRaceCore", "Course", "XMLEscaping"],
            path: "Sources/Core/Dashboard/DashboardCore"
        ),
        // DashboardServer/: Hummingbird inside wearbridge-phone: the page (embedded), its JSON API,
        // one SSE stream per page read from the durable inbox, commands into the same queue as the CLI.
        .target(
            name: "DashboardServer",
            dependencies: [
                "DashboardCore", "PhoneServer", "PhoneLinkContract", "PhoneLinkMessages", "PhoneLinkWire",
                "SessionCore", "Energy", "Course", "CourseFiles",
                "TrackCore", "Export", "Identity", "RaceCore", "PhoneRaceCore", "RaceStore", "RelayClient",
                "RelayContract", "ProcessClock",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Adapters/Dashboard/DashboardServer",
            resources: [
                .embedInCode("assets/index.html"), .embedInCode("assets/app.js"), .embedInCode("assets/app.css"),
                .embedInCode("assets/openapi.yaml"),
            ]
        ),
        .executableTarget(
            name: "wearbridge-phone",
            dependencies: [
                "ProcessClock",
                "DashboardServer",
                "PhoneServer", "PhoneLinkWire", "SessionCore", "TrackCore", "Energy", "Identity", "JournalLog",
                "Export",
                "RelayClient", "RelayContract", "PhoneRaceCore", "RaceStore", "RelayPump", "TOMLConfig", "Release",
                "Course", "CourseFiles", "PhoneLinkContract",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Programs/wearbridge-phone"
        ),
        // Adapter: the kernel's Industrial I/O devices: a barometer through sysfs, an accelerometer read buffered.
        .target(name: "IIO", dependencies: ["ProcessClock"], path: "Sources/Adapters/IIO"),
        // The service: the engine core's shell, producers and sinks, the store's writer, systemd.
        .target(
            name: "Daemon",
            dependencies: [
                "IIO", "Gait",
                "CertificateFingerprint",
                "TOMLConfig",
                "Engine",
                "TrackCore", "SessionCore", "GPSD", "GPSDLink", "Store", "Config", "Control", "Bluetooth", "ATT",
                "GATT",
                "ProcessClock", "UnixSockets", "WearableLinkClient", "PhoneLinkWire", "Identity", "Cues", "CueAudio",
                "CueLanguages",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Adapters/Daemon"
        ),
        .executableTarget(
            name: "wearbridge",
            dependencies: [
                "HexCoding", "CMalloc",
                "GATT", "SpeedSensors", "StrideCalibration", "TrackCore", "SessionCore", "GPSD", "Replay", "Store",
                "Config", "Control", "ControlProtocol",
                "GPSDLink",
                "Daemon",
                "HeartRate", "ATT", "Bluetooth", "JournalLog", "Identity", "Cues", "CueAudio",
                "CueLanguages", "Export", "Release", "Course", "PhoneLinkWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Programs/wearbridge"
        ),
        // The one Swift harness of tests and benchmarks: real processes (children in their own
        // groups, gpsfake and gpspipe, the daemon under test), /proc figures, a notify socket, a
        // tmpfs that fills up, a strap's GATT transcript.
        .target(
            name: "Harness",
            dependencies: ["UnixSockets", "HexCoding", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Tools/Harness"
        ),
        // Receivers synthesized from what real hardware did, with their truth: for the
        // core's tests and the accuracy benchmark.
        .target(
            name: "SyntheticReceivers",
            dependencies: ["TrackCore", "Elevation", "Energy", "Gait", "Harness", "UTCFormat"],
            path: "Sources/Tools/SyntheticReceivers"
        ),
        .executableTarget(
            name: "wearbridge-bench",
            dependencies: [
                "Elevation",
                "Energy",
                "Gait",
                "Course",
                "Engine", "PhoneLinkWire",
                "TrackCore", "SessionCore", "GPSD", "GPSDLink", "ProcessClock", "Replay", "Harness",
                "Store", "HeartRate", "SyntheticReceivers", "RelayClient", "RelayContract", "SpeedSensors",
                "StrideCalibration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Tools/wearbridge-bench"
        ),
        // Every parser of bytes we do not control under libFuzzer (scripts/rigs/fuzz.sh builds it with
        // -sanitize=fuzzer,address -DFUZZING); the ordinary build replays kept inputs through it.
        // libFuzzer's driver, declared for wearbridge-fuzz's entry point (linked only by -sanitize=fuzzer).
        .systemLibrary(name: "CLibFuzzer", path: "Sources/Tools/CLibFuzzer"),
        // The stack's floor for the footprint bench: our libraries logging gpsd's fixes, none of our code.
        .executableTarget(
            name: "wearbridge-floor",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/Tools/wearbridge-floor"
        ),
        .executableTarget(
            name: "wearbridge-fuzz",
            dependencies: [
                "CLibFuzzer", "ATT", "Config", "ControlProtocol", "CueAudio", "GATT", "GPSD", "HeartRate",
                "PhoneLinkContract",
                "PhoneLinkWire", "Replay",
                "SpeedSensors", "TrackCore",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Tools/wearbridge-fuzz"
        ),
        .testTarget(
            name: "TrackCoreTests",
            dependencies: ["TrackCore", "Elevation", "Energy", "Harness", "SyntheticReceivers"]
        ),
        .testTarget(
            name: "SessionCoreTests",
            dependencies: [
                "SyntheticReceivers", "Harness", "SessionCore", "TrackCore", "Energy", "HeartRate", "SpeedSensors",
                "StrideCalibration",
            ]
        ),
        .testTarget(
            name: "EngineTests",
            dependencies: [
                "SyntheticReceivers", "Engine", "PhoneLinkMessages", "SessionCore", "TrackCore", "HeartRate", "ATT",
                "RaceCore", "GATT", "SpeedSensors", "Gait", "Course", "PhoneLinkWire", "PhoneLinkContract",
            ]
        ),
        .testTarget(name: "PhoneLinkDeliveryTests", dependencies: ["PhoneLinkDelivery", "SessionCore"]),
        .testTarget(
            name: "PhoneLinkWireTests",
            dependencies: [
                "PhoneLinkContract", "PhoneLinkMessages", "PhoneLinkWire", "SessionCore", "TrackCore", "Energy",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "IdentityTests",
            dependencies: [
                "Identity", "CertificateFingerprint", "Harness", .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "WearableLinkClientTests",
            dependencies: [
                "WearableLinkClient", "Engine", "Harness", "PhoneLinkContract", "PhoneLinkMessages", "SessionCore",
                "Store", "TrackCore", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PhoneServerTests",
            dependencies: [
                "PhoneServer", "PhoneCore", "RaceStore", "Engine", "Harness", "PhoneLinkContract", "PhoneLinkMessages",
                "ProcessClock", "SessionCore", "SpeedSensors", "Store", "TrackCore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PhoneCoreTests",
            dependencies: ["PhoneCore", "PhoneLinkDelivery", "PhoneLinkMessages", "SessionCore"]
        ),
        .testTarget(
            name: "CuesTests",
            dependencies: [
                "Cues", "CueLanguages", "SessionCore", "TrackCore", "HeartRate", "GPSD", "Harness", "RaceCore",
            ]
        ),
        .testTarget(name: "CueAudioTests", dependencies: ["CueAudio"]),
        .testTarget(name: "ExportTests", dependencies: ["Export", "UTCFormat", "FITFormat"]),
        .testTarget(
            name: "DashboardTests",
            dependencies: [
                "DashboardCore", "DashboardServer", "PhoneServer", "PhoneLinkMessages", "RaceCore", "PhoneRaceCore",
                "RaceStore", "RelayContract", "TrackCore", "Course", "PhoneLinkContract",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(name: "RaceCoreTests", dependencies: ["RaceCore"]),
        .testTarget(name: "RelayContractTests", dependencies: ["RelayContract", "Course", "TrackCore"]),
        .testTarget(name: "RelayClientTests", dependencies: ["RelayClient", "RelayContract"]),
        .testTarget(name: "PhoneRaceCoreTests", dependencies: ["PhoneRaceCore", "RelayContract", "TrackCore"]),
        .testTarget(
            name: "RaceStoreTests",
            dependencies: [
                "RaceStore", "PhoneServer", "Course", "TrackCore", "PhoneRaceCore", "PhoneLinkContract",
                "PhoneLinkWire", "RelayContract",
                "Harness", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "SpeedSensorsTests", dependencies: ["SpeedSensors"]),
        .testTarget(name: "StrideCalibrationTests", dependencies: ["StrideCalibration"]),
        .testTarget(name: "ElevationTests", dependencies: ["Elevation"]),
        .testTarget(name: "EnergyTests", dependencies: ["Energy"]),
        .testTarget(name: "GaitTests", dependencies: ["Gait", "SyntheticReceivers"]),
        .testTarget(name: "CourseTests", dependencies: ["Course", "TrackCore", "SyntheticReceivers"]),
        .testTarget(
            name: "CourseFilesTests",
            dependencies: ["CourseFiles", "Course", "TrackCore", "FITFormat", "Harness"]
        ),
        .testTarget(name: "IIOTests", dependencies: ["IIO"]),
        .testTarget(name: "GPSDTests", dependencies: ["GPSD", "TrackCore", "LineFraming"]),
        .testTarget(name: "HeartRateTests", dependencies: ["HeartRate", "HexCoding", "Harness"]),
        .testTarget(name: "ATTTests", dependencies: ["ATT", "HeartRate", "HexCoding", "Harness"]),
        .testTarget(
            name: "GATTTests",
            dependencies: ["GATT", "ATT", "HeartRate", "SpeedSensors", "HexCoding", "Harness"]
        ),
        .testTarget(
            name: "BluetoothTests",
            dependencies: [
                "Bluetooth", "ATT", "GATT", "HeartRate", "HexCoding", "ProcessClock", "Harness",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ReplayTests",
            dependencies: [
                "Replay", "TrackCore", "Harness", "SyntheticReceivers", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "CommandLineTests", dependencies: ["wearbridge", "Harness"]),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "Daemon", "Engine", "TrackCore", "SessionCore", "GPSD", "GPSDLink", "Store", "Config", "Control",
                "ControlProtocol", "Bluetooth", "ATT", "Harness", "SyntheticReceivers", "JournalLog", "Reconnection",
                "UnixSockets",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "TOMLConfig", "SessionCore", "TrackCore", "Gait"]),
        .testTarget(
            name: "ControlTests",
            dependencies: [
                "Control", "ControlProtocol", "Energy", "Engine", "Harness", "UnixSockets",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "GPSDLinkTests",
            dependencies: [
                "GPSDLink", "GPSD", "Harness", "Reconnection", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "Store", "Energy", "Engine", "SessionCore", "TrackCore", "ATT", "HeartRate", "SpeedSensors", "Harness",
                "SyntheticReceivers", "PhoneLinkContract", "Course",
            ]
        ),
        .testTarget(name: "UTCFormatTests", dependencies: ["UTCFormat"]),
    ]
)

// One build's test targets: all of them, or only those WEARBRIDGE_TEST_TARGETS names (space separated).
// The arm64 test build (scripts/build/arm64-tests.sh) builds only the suites it runs under qemu-user, so
// that the pure cores' bundle does not compile the adapters' dependencies (gRPC, BoringSSL, GRDB,
// Hummingbird) for nothing.
if let names = Context.environment["WEARBRIDGE_TEST_TARGETS"] {
    let wanted = Set(names.split(separator: " ").map(String.init))
    let tests = Set(package.targets.filter { $0.type == .test }.map(\.name))
    for name in wanted.subtracting(tests).sorted() {
        fatalError("WEARBRIDGE_TEST_TARGETS names \(name), which is not a test target of Package.swift")
    }
    package.targets.removeAll { $0.type == .test && !wanted.contains($0.name) }
}
