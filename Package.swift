// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "streamd",
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
        .library(name: "StreamModel", targets: ["StreamModel"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "PostgresLog", targets: ["PostgresLog"]),
        .library(name: "StreamProtocol", targets: ["StreamProtocol"]),
        .library(name: "StreamServer", targets: ["StreamServer"]),
        .library(name: "StreamClient", targets: ["StreamClient"]),
        .executable(name: "streambench", targets: ["streambench"]),
        .executable(name: "streamd", targets: ["streamd"]),
        .executable(name: "streamctl", targets: ["streamctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "Reactive"),
        .target(name: "StreamModel", dependencies: ["Reactive"]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "CSQLiteWriteMerge", dependencies: ["CSQLite"]),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "PostgresLog", dependencies: ["EventLog", "StreamModel", "CLibPQ"]),
        .testTarget(name: "PostgresLogTests", dependencies: ["PostgresLog", "EventLog", "StreamModel", "StreamdTestSupport"]),
        .target(
            name: "EventLog",
            dependencies: [
                "StreamModel", "Reactive", "CSQLite", "CSQLiteWriteMerge", "CZlib",
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .executableTarget(
            name: "eventlog-crashtest",
            dependencies: ["EventLog"],
            path: "Tools/eventlog-crashtest"
        ),
        .executableTarget(
            name: "persistence-child",
            dependencies: ["EventLog", "Reactive"],
            path: "Tools/persistence-child"
        ),
        .executableTarget(
            name: "readme-doors",
            dependencies: ["EventLog", "StreamClient"],
            path: "Tools/readme-doors"
        ),
        .executableTarget(
            name: "readme-persistent",
            dependencies: ["EventLog"],
            path: "Tools/readme-persistent"
        ),
        .executableTarget(
            name: "streambench",
            dependencies: ["EventLog", "PostgresLog", "StreamProtocol"],
            path: "Tools/streambench"
        ),
        .testTarget(name: "ReactiveTests", dependencies: ["Reactive"]),
        .testTarget(
            name: "EventLogTests",
            dependencies: ["EventLog", "Reactive", "CSQLite", "CSQLiteWriteMerge", "StreamdTestSupport"]
        ),
        .target(name: "StreamProtocol", dependencies: ["StreamModel"]),
        .testTarget(name: "StreamProtocolTests", dependencies: ["StreamProtocol", "StreamdTestSupport"]),
        .target(
            name: "StreamServer",
            dependencies: [
                "StreamProtocol", "EventLog", "PostgresLog", "Reactive",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .executableTarget(
            name: "streamd",
            dependencies: [
                "StreamServer", "StreamProtocol", "EventLog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "streamctl",
            dependencies: [
                "StreamClient", "StreamProtocol", "EventLog", "PostgresLog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/streamctl"
        ),
        .testTarget(
            name: "StreamctlTests",
            dependencies: ["StreamClient", "StreamProtocol", "StreamdTestSupport", "CSQLite"]
        ),
        .target(
            name: "StreamdTestSupport",
            dependencies: ["StreamProtocol", "EventLog", "CSQLite"],
            path: "Tests/StreamdTestSupport"
        ),
        .testTarget(
            name: "StreamServerTests",
            dependencies: [
                "StreamServer", "StreamProtocol", "EventLog", "StreamdTestSupport", "StreamClient",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "StreamClient",
            dependencies: [
                "StreamModel", "StreamProtocol", "Reactive",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "StreamClientTests",
            dependencies: [
                "StreamClient", "StreamProtocol", "EventLog", "Reactive", "StreamdTestSupport",
            ]
        ),
        .executableTarget(
            name: "stream-child",
            dependencies: ["StreamClient", "StreamProtocol"],
            path: "Tools/stream-child"
        ),
        .executableTarget(
            name: "readme-remote",
            dependencies: ["StreamClient"],
            path: "Tools/readme-remote"
        ),
        .testTarget(
            name: "StreamdEndToEndTests",
            dependencies: ["StreamClient", "StreamProtocol", "Reactive", "EventLog", "StreamdTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
