// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
// The executables people deploy carry the Swift runtime and Foundation inside them, so a host
// needs no Swift installation (README: "A self-contained binary").
// Foundation's static archives (ParleyKit's URLSession transport uses FoundationNetworking)
// need their private libraries named; libcurl stays a shared library of the system.
let selfContained: [LinkerSetting] = [
    .unsafeFlags(
        ["-static-stdlib", "-Xlinker", "--start-group"]
            + [
                "FoundationNetworking", "_CFURLSessionInterface", "FoundationInternationalization", "_FoundationICU",
                "FoundationEssentials", "_FoundationCShims", "_FoundationCollections", "Foundation", "CoreFoundation"
            ]
            .flatMap { ["-Xlinker", "-l\($0)"] }
            + ["-Xlinker", "--end-group", "-Xlinker", "-l:libcurl.so.4"], .when(platforms: [.linux]))
]

let package = Package(
    name: "Parley",
    // ParleyKit and ParleyUI use Synchronization.Mutex and Observation: iOS 18 / macOS 15.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "parley", targets: ["parley"]),
        .library(name: "ParleyWireCore", targets: ["ParleyWireCore"]),
        .library(name: "ParleyWire", targets: ["ParleyWire"]),
        .library(name: "ParleyModel", targets: ["ParleyModel"]),
        .library(name: "ParleyNet", targets: ["ParleyNet"]),
        .library(name: "ParleyText", targets: ["ParleyText"]),
        .library(name: "ParleyKit", targets: ["ParleyKit"]),
        .library(name: "ParleyUI", targets: ["ParleyUI"]),
        // Test doubles for apps' own tests (an in-memory chat and document server, a manual
        // clock); kept out of ParleyKit so they never ship inside an app.
        .library(name: "ParleyKitTesting", targets: ["ParleyKitTesting"])
    ],
    targets: [
        // C system libraries from Debian (see README for the apt packages).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // Linux system calls Glibc's Swift overlay does not export (epoll, eventfd, accept4).
        .systemLibrary(name: "CLinux"),
        // The signal handler and its pipe's write end: one copy per process, which a header's
        // static state cannot promise (every importing module would get its own).
        .target(name: "CSignalPipe"),

        // The one place that names a platform: the C library (Glibc here, Darwin on Apple
        // platforms, never compiled here) and the few calls that differ between them.
        .target(
            name: "ParleyPlatform", dependencies: [.target(name: "CLinux", condition: .when(platforms: [.linux]))],
            swiftSettings: strict),

        // Pure Swift, no C library: the wire formats ParleyKit shares with the server.
        .target(name: "ParleyWireCore", swiftSettings: strict),
        .target(name: "ParleyWire", dependencies: ["ParleyWireCore", "CCrypto", "CZlib"], swiftSettings: strict),
        // The chat API's values and their JSON, shared by the service, its store, the SDK and the fakes.
        .target(name: "ParleyModel", dependencies: ["ParleyWireCore"], swiftSettings: strict),
        // System calls (EINTR, would-block, typed errors), owned descriptors, thread-confinement checks.
        .target(name: "ParleySystem", dependencies: ["ParleyPlatform"], swiftSettings: strict),
        .target(
            name: "ParleyNet", dependencies: ["ParleyWire", "ParleyPlatform", "ParleySystem", "CLinux", "CSignalPipe", "COpenSSL"],
            swiftSettings: strict),
        .target(name: "ParleyText", swiftSettings: strict),
        .target(name: "CSQLiteLogBuffer", dependencies: ["CSQLite"]),
        .target(
            name: "ParleyStore",
            dependencies: ["ParleyModel", "ParleyWireCore", "ParleyPlatform", "ParleySystem", "CSQLite", "CSQLiteLogBuffer", "CPostgres"],
            swiftSettings: strict),
        .target(name: "ParleyChannels", dependencies: ["ParleyWire"], swiftSettings: strict),
        // Attachment thumbnails: PNG, JPEG, GIF and WebP decoding and JPEG encoding over libpng,
        // libjpeg-turbo, giflib and libwebp.
        .target(name: "ParleyImaging", dependencies: ["CPNG", "CTurboJPEG", "CGIF", "CWebP"], swiftSettings: strict),
        // The manual hub loop the channel, chat and docs tests drive by hand.
        .target(name: "ParleyChannelsTesting", dependencies: ["ParleyChannels"], swiftSettings: strict),
        .target(
            name: "ParleyChat",
            dependencies: ["ParleyWire", "ParleyPlatform", "ParleySystem", "ParleyStore", "ParleyChannels", "ParleyImaging"],
            swiftSettings: strict,
            plugins: ["OpenAPIDocumentPlugin"]),
        .target(name: "ParleyDocs", dependencies: ["ParleyWire", "ParleyText", "ParleyStore", "ParleyChannels"], swiftSettings: strict),
        .target(
            name: "ParleyServer",
            dependencies: [
                "ParleyPlatform", "ParleySystem", "ParleyWire", "ParleyNet", "ParleyText", "ParleyChannels", "ParleyStore", "ParleyChat",
                "ParleyDocs"
            ],
            swiftSettings: strict, plugins: ["WebAssetsPlugin"]),
        // ParleyKit is portable (iOS, macOS, Linux): on Apple platforms it uses URLSession and the
        // system's SQLite3; only on Linux does it add the socket transports over ParleyNet
        // (Sources/ParleyKit/Sockets, guarded by `#if canImport(ParleyNet)`).
        // Tests/interop/test_parleykit_portability.py checks this graph and the imports.
        .target(
            name: "ParleyKit",
            dependencies: [
                "ParleyWireCore", "ParleyModel", "ParleyText", "ParleyPlatform",
                .target(name: "CSQLite", condition: .when(platforms: [.linux])),
                .target(name: "ParleyNet", condition: .when(platforms: [.linux])),
                .target(name: "ParleyWire", condition: .when(platforms: [.linux]))
            ], swiftSettings: strict),
        .target(name: "ParleyKitTesting", dependencies: ["ParleyKit", "ParleyWireCore", "ParleyText"], swiftSettings: strict),
        .target(name: "ParleyUI", dependencies: ["ParleyKit"], swiftSettings: strict),
        .target(
            name: "ParleyTerminal", dependencies: ["ParleyKit", "ParleyUI", "ParleyPlatform", "CLinux", "CSignalPipe"],
            swiftSettings: strict),
        .executableTarget(
            name: "parley", dependencies: ["ParleyServer", "ParleyTerminal", "ParleyPlatform"], swiftSettings: strict,
            linkerSettings: selfContained),

        // Build-time generation of OpenAPIDocument.swift (from docs/openapi.json) and
        // WebAssetFiles.swift (from Web/): the files stay the single source, nothing generated is in git.
        .executableTarget(name: "ParleyEmbed", path: "Plugins/ParleyEmbed", swiftSettings: strict),
        .plugin(name: "OpenAPIDocumentPlugin", capability: .buildTool(), dependencies: ["ParleyEmbed"]),
        .plugin(name: "WebAssetsPlugin", capability: .buildTool(), dependencies: ["ParleyEmbed"]),

        .testTarget(name: "ParleyWireTests", dependencies: ["ParleyWire"], swiftSettings: strict),
        .testTarget(name: "ParleySystemTests", dependencies: ["ParleySystem"], swiftSettings: strict),
        .testTarget(name: "ParleyNetTests", dependencies: ["ParleyNet", "ParleyWire", "ParleySystem"], swiftSettings: strict),
        .testTarget(name: "ParleyModelTests", dependencies: ["ParleyModel", "ParleyWireCore"], swiftSettings: strict),
        .testTarget(name: "ParleyTextTests", dependencies: ["ParleyText"], swiftSettings: strict),
        .testTarget(name: "ParleyImagingTests", dependencies: ["ParleyImaging"], swiftSettings: strict),
        .testTarget(name: "ParleyStoreTests", dependencies: ["ParleyStore", "ParleySystem", "CSQLite"], swiftSettings: strict),
        .testTarget(
            name: "ParleyChannelsTests", dependencies: ["ParleyChannels", "ParleyChannelsTesting", "ParleyWire"], swiftSettings: strict),
        .testTarget(
            name: "ParleyChatTests",
            dependencies: ["ParleyChat", "ParleyChannels", "ParleyChannelsTesting", "ParleyImaging", "ParleyStore", "ParleyWire"],
            swiftSettings: strict),
        .testTarget(
            name: "ParleyDocsTests", dependencies: ["ParleyDocs", "ParleyChannels", "ParleyText", "ParleyStore", "ParleyWire"],
            swiftSettings: strict),
        .testTarget(
            name: "ParleyKitTests",
            dependencies: [
                "ParleyKit", "ParleyKitTesting", "ParleyUI", "ParleyServer", "ParleyNet", "ParleyWire", "ParleyWireCore", "ParleyText",
                "ParleyStore", "ParleyChannels"
            ], swiftSettings: strict),
        .testTarget(name: "ParleyUITests", dependencies: ["ParleyUI", "ParleyKit", "ParleyKitTesting"], swiftSettings: strict),
        .testTarget(
            name: "ParleyTerminalTests", dependencies: ["ParleyTerminal", "ParleyUI", "ParleyKit", "ParleyKitTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "ParleyServerTests",
            dependencies: ["ParleyServer", "ParleyChannels", "ParleyChat", "ParleyNet", "ParleyStore", "ParleyWire"], swiftSettings: strict),

        // Test peers driven by the Python interop tests (Tests/interop).
        .executableTarget(
            name: "ParleyTestPeer", dependencies: ["ParleyNet", "ParleyWire"],
            path: "Tests/Peers/ParleyTestPeer", swiftSettings: strict),
        .executableTarget(
            name: "ParleyTextPeer", dependencies: ["ParleyText"],
            path: "Tests/Peers/ParleyTextPeer", swiftSettings: strict),
        .executableTarget(
            name: "ParleyDocPeer", dependencies: ["ParleyKit", "ParleyWire"],
            path: "Tests/Peers/ParleyDocPeer", swiftSettings: strict),
        .executableTarget(
            name: "ParleyKitPeer", dependencies: ["ParleyKit", "ParleyWire"],
            path: "Tests/Peers/ParleyKitPeer", swiftSettings: strict),

        // The README's ParleyKit quick start, verbatim (Tests/interop/test_quickstart.py runs it).
        .executableTarget(
            name: "ParleyQuickStart", dependencies: ["ParleyKit"],
            path: "Examples/QuickStart", swiftSettings: strict),

        // The example app backend of the tutorials: creates users and issues their tokens.
        .executableTarget(
            name: "TokenBackend", dependencies: ["ParleyPlatform", "ParleyNet", "ParleyWire", "ParleyChat", "ParleyKit"],
            path: "Examples/TokenBackend", exclude: ["README.md"], swiftSettings: strict,
            linkerSettings: selfContained),

        // Benchmark executables: they print figures, tests never time anything.
        .executableTarget(
            name: "ParleyBroadcastBench", dependencies: ["ParleyNet", "ParleyWire"],
            path: "Benchmarks/Swift/ParleyBroadcastBench", swiftSettings: strict),
        .executableTarget(
            name: "ParleyTextBench", dependencies: ["ParleyText"],
            path: "Benchmarks/Swift/ParleyTextBench", swiftSettings: strict),
        .executableTarget(
            name: "ParleyDocBench", dependencies: ["ParleyText"],
            path: "Benchmarks/Swift/ParleyDocBench", swiftSettings: strict),
        .executableTarget(
            name: "ParleyChatBench", dependencies: ["ParleyWire", "ParleyStore", "CLinux", "CSQLite", "CPostgres"],
            path: "Benchmarks/Swift/ParleyChatBench", swiftSettings: strict)
    ]
)
