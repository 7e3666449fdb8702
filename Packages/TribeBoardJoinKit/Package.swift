// swift-tools-version: 6.0
import PackageDescription

// The contract the TribeBoard app and the TribeBoard Ops toolkit share: how a typed family code
// is read, what its claim is called, and how a family is created, found, joined and its invited
// admin activated. No package dependencies, so the app adds it in Xcode in one step.
let package = Package(
    name: "TribeBoardJoinKit",
    platforms: [.iOS(.v16), .macOS(.v13), .watchOS(.v9), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "TribeBoardJoinKit", targets: ["TribeBoardJoinKit"]),
    ],
    targets: [
        .target(name: "TribeBoardJoinKit"),
        .testTarget(name: "TribeBoardJoinKitTests", dependencies: ["TribeBoardJoinKit"]),
    ]
)
