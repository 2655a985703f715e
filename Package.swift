// swift-tools-version:6.0
import PackageDescription

// One module per pipeline stage (Nuke's layout): feeds → loading → imaging → caching,
// tied together by `PhotoMirror`; the `photomirror` executable only parses argv and prints.
// C code lives only in the thin shim targets that wrap a library's variadic or
// setjmp-based API safely.

// Release builds link the Swift runtime and Foundation statically: the dynamic loader then
// resolves ~20 000 fewer symbols at every start (measured with perf stat: 15.5 -> 9 ms of CPU
// per process, 6 MB less RSS), which counts for `thumb` over a few hundred files and for every
// re-sync. Each Swift target needs the flag when compiling too: it picks the static
// libraries' autolink entries (Foundation's ICU).
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
        // zlib directly too: single-filter PNGs are written around one deflate stream (png_encode.c).
        // libgif by name: without pkg-config, CGIF's module map links it only into Swift importers.
        // libheif is not linked: heif_library.c loads it on the first HEIF/AVIF image (its headers
        // come from libheif-dev in /usr/include).
        .target(name: "CodecShim", dependencies: ["CJPEG", "CPNG", "CWebP", "CGIF", "CLCMS2"],
                cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("z"), .linkedLibrary("gif")]),
        .target(name: "ServeShim", dependencies: ["CMicroHTTPD"]),

        // Swift library modules.
        .target(name: "PMSupport", dependencies: ["CCrypto"], swiftSettings: staticInRelease),
        .target(name: "PMFeeds", dependencies: ["CXML2", "PMSupport"], swiftSettings: staticInRelease),
        .target(name: "PMLoading", dependencies: ["CurlShim", "PMSupport"], swiftSettings: staticInRelease),
        .target(name: "PMImaging", dependencies: ["CodecShim", "PMSupport"], swiftSettings: staticInRelease),
        .target(name: "PMCache", dependencies: ["CSQLite", "PMSupport"], swiftSettings: staticInRelease),
        // S3's REST API on PMLoading's loader (libcurl signs); libxml2 reads S3's XML answers.
        .target(name: "PMObjectStore", dependencies: ["CXML2", "PMLoading", "PMSupport", "PMCache"], swiftSettings: staticInRelease),
        .target(name: "PhotoMirror",
                dependencies: ["PMSupport", "PMFeeds", "PMLoading", "PMImaging", "PMCache", "PMObjectStore", "ServeShim"],
                swiftSettings: staticInRelease),
        .executableTarget(name: "photomirror", dependencies: ["PhotoMirror"],
                          swiftSettings: staticInRelease,
                          linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),

        // Tests: unit tests per module, integration tests drive the built binary.
        .testTarget(name: "PMFeedsTests", dependencies: ["PMFeeds"], swiftSettings: staticInRelease),
        .testTarget(name: "PMLoadingTests", dependencies: ["PMLoading"], swiftSettings: staticInRelease),
        .testTarget(name: "PMImagingTests", dependencies: ["PMImaging"], exclude: ["Fixtures"], swiftSettings: staticInRelease),
        .testTarget(name: "PMCacheTests", dependencies: ["PMCache"], swiftSettings: staticInRelease),
        .testTarget(name: "PMObjectStoreTests", dependencies: ["PMObjectStore"], swiftSettings: staticInRelease),
        .testTarget(name: "PhotoMirrorTests", dependencies: ["PhotoMirror"], swiftSettings: staticInRelease),
        // PMObjectStore directly too: its client is tested against the real Swift store before
        // any command uses it.
        .testTarget(name: "IntegrationTests", dependencies: ["photomirror", "PMObjectStore"], swiftSettings: staticInRelease),
    ],
    swiftLanguageModes: [.v6]
)
