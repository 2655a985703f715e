// swift-tools-version:6.0
import PackageDescription

// photomirror used as a library: this package depends on the project by path and uses its
// `PhotoMirror` product (docs/library.md). `Scripts/example` builds and runs it in CI.
let package = Package(
    name: "LibrarySync",
    dependencies: [.package(name: "photomirror", path: "../..")],
    targets: [
        .executableTarget(name: "LibrarySync", dependencies: [.product(name: "PhotoMirror", package: "photomirror")]),
    ],
    swiftLanguageModes: [.v6]
)
