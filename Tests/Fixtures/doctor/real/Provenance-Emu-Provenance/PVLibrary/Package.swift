// swift-tools-version:5.9
// Fixture (written for doctor's tests): the local package's shape, one product.
import PackageDescription

let package = Package(
    name: "PVLibrary",
    products: [.library(name: "PVLibrary", targets: ["PVLibrary"])],
    targets: [.target(name: "PVLibrary", path: "Sources")]
)
