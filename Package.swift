// swift-tools-version:6.0
import PackageDescription

// One module per pipeline stage (Nuke's layout): feeds → loading → imaging → caching,
// tied together by `PhotoMirror`; the `photomirror` executable only parses argv and prints.
// C code lives only in the thin shim targets that wrap a library's variadic or
// setjmp-based API safely.
let package = Package(
    name: "photomirror",
    products: [
        .executable(name: "photomirror", targets: ["photomirror"]),
        .library(name: "PhotoMirror", targets: ["PhotoMirror"]),
    ],
    targets: [
        // System libraries (Debian -dev packages), found through pkg-config.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),

        // Thin C shims.
        .target(name: "CurlShim", dependencies: ["CCurl"]),
        .target(name: "CodecShim", dependencies: ["CJPEG", "CPNG"],
                cSettings: [.unsafeFlags(["-O2"])]),
        .target(name: "ServeShim", dependencies: ["CMicroHTTPD"]),

        // Swift library modules.
        .target(name: "PMSupport", dependencies: ["CCrypto"]),
        .target(name: "PMFeeds", dependencies: ["PMSupport"]),
        .target(name: "PMLoading", dependencies: ["CurlShim", "PMSupport"]),
        .target(name: "PMImaging", dependencies: ["CodecShim", "PMSupport"]),
        .target(name: "PMCache", dependencies: ["CSQLite", "PMSupport"]),
        .target(name: "PhotoMirror",
                dependencies: ["PMSupport", "PMFeeds", "PMLoading", "PMImaging", "PMCache", "ServeShim"]),
        .executableTarget(name: "photomirror", dependencies: ["PhotoMirror"]),

        // Tests: unit tests per module, integration tests drive the built binary.
        .testTarget(name: "PMFeedsTests", dependencies: ["PMFeeds"]),
        .testTarget(name: "PMLoadingTests", dependencies: ["PMLoading"]),
        .testTarget(name: "PMImagingTests", dependencies: ["PMImaging"]),
        .testTarget(name: "PMCacheTests", dependencies: ["PMCache"]),
        .testTarget(name: "PhotoMirrorTests", dependencies: ["PhotoMirror"]),
        .testTarget(name: "IntegrationTests", dependencies: ["photomirror"]),
    ],
    swiftLanguageModes: [.v6]
)
