// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "streamd",
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
    ],
    targets: [
        .target(name: "Reactive"),
        .testTarget(name: "ReactiveTests", dependencies: ["Reactive"]),
    ],
    swiftLanguageModes: [.v6]
)
