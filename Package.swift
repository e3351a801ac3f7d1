// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "streamd",
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
        .library(name: "StreamProtocol", targets: ["StreamProtocol"]),
    ],
    targets: [
        .target(name: "Reactive"),
        .testTarget(name: "ReactiveTests", dependencies: ["Reactive"]),
        .target(name: "StreamProtocol"),
        .testTarget(name: "StreamProtocolTests", dependencies: ["StreamProtocol"]),
    ],
    swiftLanguageModes: [.v6]
)
