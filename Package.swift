// swift-tools-version:6.0
import PackageDescription

// One module per pipeline stage (Nuke's layout): feeds → loading → imaging → caching,
// tied together by `PhotoMirror`; the `photomirror` executable only parses argv and prints.
// C code lives only in the thin shim targets that wrap a library's variadic or
// setjmp-based API safely.

// Release builds link the Swift runtime and Foundation statically into the executable: the
// dynamic loader then resolves ~20 000 fewer symbols at every start (measured with perf stat:
// 15.5 -> 9 ms of CPU per process, 6 MB less RSS), which counts for `thumb` over a few hundred
// files and for every re-sync. Only the executable carries the flag (its own Foundation imports
// bring the static libraries' autolink entries): the library targets stay free of unsafe
// flags, so another package can depend on the `PhotoMirror` product.
let staticInRelease: [SwiftSetting] = [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]

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
        // Debian's libgif-dev ships no pkg-config file: the module map links libgif itself.
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        // libwebpdemux's .pc requires libwebp, so one name brings both.
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // libxml2's xmlTextReader for RSS/Atom: FoundationXML's XMLParser crashed on some inputs.
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        // Thin C shims.
        .target(name: "CurlShim", dependencies: ["CCurl"]),
        // libdeflate: single-filter PNGs are compressed in one call (png_encode.c); zlib for their CRCs.
        // libgif by name: without pkg-config, CGIF's module map links it only into Swift importers.
        // libheif is not linked: heif_library.c loads it on the first HEIF/AVIF image (its headers
        // come from libheif-dev in /usr/include).
        .target(name: "CodecShim", dependencies: ["CJPEG", "CPNG", "CWebP", "CGIF", "CLCMS2"],
                linkerSettings: [.linkedLibrary("deflate"), .linkedLibrary("z"), .linkedLibrary("gif")]),
        .target(name: "ServeShim", dependencies: ["CMicroHTTPD"]),

        // Swift library modules.
        .target(name: "PMSupport", dependencies: ["CCrypto"]),
        .target(name: "PMFeeds", dependencies: ["CXML2", "PMSupport"]),
        .target(name: "PMLoading", dependencies: ["CurlShim", "PMSupport"]),
        .target(name: "PMImaging", dependencies: ["CodecShim", "PMSupport"]),
        .target(name: "PMCache", dependencies: ["CSQLite", "PMSupport"]),
        // S3's REST API on PMLoading's loader (libcurl signs); libxml2 reads S3's XML answers.
        .target(name: "PMObjectStore", dependencies: ["CXML2", "PMLoading", "PMSupport", "PMCache"]),
        .target(name: "PhotoMirror",
                dependencies: ["PMSupport", "PMFeeds", "PMLoading", "PMImaging", "PMCache", "PMObjectStore", "ServeShim"]),
        .executableTarget(name: "photomirror", dependencies: ["PhotoMirror"],
                          swiftSettings: staticInRelease,
                          linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),

        // Tests: unit tests per module, integration tests drive the built binary.
        .testTarget(name: "PMFeedsTests", dependencies: ["PMFeeds"]),
        .testTarget(name: "PMLoadingTests", dependencies: ["PMLoading"]),
        .testTarget(name: "PMImagingTests", dependencies: ["PMImaging"], exclude: ["Fixtures"]),
        .testTarget(name: "PMCacheTests", dependencies: ["PMCache"]),
        .testTarget(name: "PMObjectStoreTests", dependencies: ["PMObjectStore"]),
        .testTarget(name: "PhotoMirrorTests", dependencies: ["PhotoMirror"]),
        // PMObjectStore directly too: its client is tested against the real Swift store before
        // any command uses it.
        .testTarget(name: "IntegrationTests", dependencies: ["photomirror", "PhotoMirror", "PMObjectStore"]),
    ],
    swiftLanguageModes: [.v6]
)
