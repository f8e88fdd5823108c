// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
// The executables people deploy carry the Swift runtime and Foundation inside them, so a host
// needs no Swift installation (README: "A self-contained binary").
// Foundation's static archives (ParleyKit's URLSession transport uses FoundationNetworking)
// need their private libraries named; libcurl stays a shared library of the system.
let selfContained: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-Xlinker", "--start-group"]
        + ["FoundationNetworking", "_CFURLSessionInterface", "FoundationInternationalization", "_FoundationICU",
           "FoundationEssentials", "_FoundationCShims", "_FoundationCollections", "Foundation", "CoreFoundation"]
            .flatMap { ["-Xlinker", "-l\($0)"] }
        + ["-Xlinker", "--end-group", "-Xlinker", "-l:libcurl.so.4"], .when(platforms: [.linux])),
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
    ],
    targets: [
        // C system libraries from Debian (see README for the apt packages).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Linux system calls Glibc's Swift overlay does not export (epoll, eventfd, accept4).
        .systemLibrary(name: "CLinux"),

        // Pure Swift, no C library: the wire formats ParleyKit shares with the server.
        .target(name: "ParleyWireCore", swiftSettings: strict),
        .target(name: "ParleyWire", dependencies: ["ParleyWireCore", "CCrypto", "CZlib"], swiftSettings: strict),
        // The chat API's values and their JSON, shared by the service, its store, the SDK and the fakes.
        .target(name: "ParleyModel", dependencies: ["ParleyWireCore"], swiftSettings: strict),
        .target(name: "ParleyNet", dependencies: ["ParleyWire", "CLinux", "CCrypto", "COpenSSL"], swiftSettings: strict),
        .target(name: "ParleyText", swiftSettings: strict),
        .target(name: "CSQLiteLogBuffer", dependencies: ["CSQLite"]),
        .target(name: "ParleyStore", dependencies: ["ParleyModel", "ParleyWireCore", "CSQLite", "CSQLiteLogBuffer", "CPostgres", "CLinux"], swiftSettings: strict),
        .target(name: "ParleyChannels", dependencies: ["ParleyWire", "ParleyNet"], swiftSettings: strict),
        .target(name: "ParleyChat", dependencies: ["ParleyWire", "ParleyModel", "ParleyStore", "ParleyChannels"], swiftSettings: strict),
        .target(name: "ParleyDocs", dependencies: ["ParleyWire", "ParleyText", "ParleyStore", "ParleyChannels"], swiftSettings: strict),
        .target(name: "ParleyServer", dependencies: ["ParleyWire", "ParleyNet", "ParleyChannels", "ParleyStore", "ParleyChat", "ParleyDocs"], swiftSettings: strict),
        // ParleyKit is portable (iOS, macOS, Linux): on Apple platforms it uses URLSession and the
        // system's SQLite3; only on Linux does it add the socket transports over ParleyNet
        // (Sources/ParleyKit/Sockets, guarded by `#if canImport(ParleyNet)`).
        // Tests/interop/test_parleykit_portability.py checks this graph and the imports.
        .target(name: "ParleyKit", dependencies: [
            "ParleyWireCore", "ParleyModel", "ParleyText",
            .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            .target(name: "ParleyNet", condition: .when(platforms: [.linux])),
            .target(name: "ParleyWire", condition: .when(platforms: [.linux])),
        ], swiftSettings: strict),
        .target(name: "ParleyUI", dependencies: ["ParleyKit"], swiftSettings: strict),
        .target(name: "ParleyTerminal", dependencies: ["ParleyKit", "ParleyUI", "ParleyWire", "CLinux"], swiftSettings: strict),
        .executableTarget(name: "parley", dependencies: ["ParleyServer", "ParleyTerminal"], swiftSettings: strict,
                          linkerSettings: selfContained),

        .testTarget(name: "ParleyWireTests", dependencies: ["ParleyWire"], swiftSettings: strict),
        .testTarget(name: "ParleyModelTests", dependencies: ["ParleyModel", "ParleyWireCore"], swiftSettings: strict),
        .testTarget(name: "ParleyNetTests", dependencies: ["ParleyNet", "ParleyWire"], swiftSettings: strict),
        .testTarget(name: "ParleyTextTests", dependencies: ["ParleyText"], swiftSettings: strict),
        .testTarget(name: "ParleyStoreTests", dependencies: ["ParleyStore"], swiftSettings: strict),
        .testTarget(name: "ParleyChannelsTests", dependencies: ["ParleyChannels", "ParleyWire"], swiftSettings: strict),
        .testTarget(name: "ParleyChatTests", dependencies: ["ParleyChat", "ParleyStore", "ParleyWire"], swiftSettings: strict),
        .testTarget(name: "ParleyDocsTests", dependencies: ["ParleyDocs", "ParleyText", "ParleyStore"], swiftSettings: strict),
        .testTarget(name: "ParleyKitTests", dependencies: ["ParleyKit", "ParleyUI", "ParleyServer", "ParleyText", "ParleyStore", "ParleyChannels"], swiftSettings: strict),
        .testTarget(name: "ParleyUITests", dependencies: ["ParleyUI", "ParleyKit", "ParleyTerminal"], swiftSettings: strict),
        .testTarget(name: "ParleyServerTests", dependencies: ["ParleyServer"], swiftSettings: strict),

        // Test peers driven by the Python interop tests (Tests/interop).
        .executableTarget(name: "ParleyTestPeer", dependencies: ["ParleyNet", "ParleyWire"],
                          path: "Tests/Peers/ParleyTestPeer", swiftSettings: strict),
        .executableTarget(name: "ParleyTextPeer", dependencies: ["ParleyText"],
                          path: "Tests/Peers/ParleyTextPeer", swiftSettings: strict),
        .executableTarget(name: "ParleyDocPeer", dependencies: ["ParleyKit"],
                          path: "Tests/Peers/ParleyDocPeer", swiftSettings: strict),
        .executableTarget(name: "ParleyKitPeer", dependencies: ["ParleyKit", "ParleyWire"],
                          path: "Tests/Peers/ParleyKitPeer", swiftSettings: strict),

        // The README's ParleyKit quick start, verbatim (Tests/interop/test_quickstart.py runs it).
        .executableTarget(name: "ParleyQuickStart", dependencies: ["ParleyKit"],
                          path: "Examples/QuickStart", swiftSettings: strict),

        // The example app backend of the tutorials: creates users and issues their tokens.
        .executableTarget(name: "TokenBackend", dependencies: ["ParleyNet", "ParleyWire", "ParleyChat", "ParleyKit"],
                          path: "Examples/TokenBackend", exclude: ["README.md"], swiftSettings: strict,
                          linkerSettings: selfContained),

        // Benchmark executables: they print figures, tests never time anything.
        .executableTarget(name: "ParleyBroadcastBench", dependencies: ["ParleyNet", "ParleyWire"],
                          path: "Benchmarks/Swift/ParleyBroadcastBench", swiftSettings: strict),
        .executableTarget(name: "ParleyTextBench", dependencies: ["ParleyText"],
                          path: "Benchmarks/Swift/ParleyTextBench", swiftSettings: strict),
        .executableTarget(name: "ParleyDocBench", dependencies: ["ParleyText"],
                          path: "Benchmarks/Swift/ParleyDocBench", swiftSettings: strict),
        .executableTarget(name: "ParleyChatBench", dependencies: ["ParleyWire", "ParleyStore", "CLinux", "CSQLite", "CPostgres"],
                          path: "Benchmarks/Swift/ParleyChatBench", swiftSettings: strict),
    ]
)
