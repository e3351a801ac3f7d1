// swift-tools-version: 6.1
import PackageDescription

// The benchmark lives in a package of its own so that `swift test` on the main package never builds it
// (nor fetches OpenCombine). Build it in release only: `swift build -c release`.
let package = Package(
    name: "ReactiveBench",
    dependencies: [
        .package(name: "streamd", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // Counts the process's allocations; linked into the executable so it replaces libc's malloc.
        .target(name: "MallocCounter"),
        .executableTarget(
            name: "reactivebench",
            dependencies: [
                "MallocCounter",
                .product(name: "Reactive", package: "streamd"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
