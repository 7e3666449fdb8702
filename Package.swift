// swift-tools-version: 6.0
import PackageDescription

// Dependencies are chosen for their clean-build cost (every CI run pays it):
// GRDB + argument-parser + swift-log + CSV.swift build in under a minute in debug.
let package = Package(
    name: "TribeBoardOps",
    // Linux only: the sources use Glibc, O_TMPFILE and /proc, so no Apple platform is declared
    // (a deployment target would claim a build that does not exist).
    products: [
        .executable(name: "tribeboard", targets: ["tribeboard"]),
        .executable(name: "tribeboard-provision", targets: ["tribeboard-provision"]),
        .executable(name: "tribeboard-resync", targets: ["tribeboard-resync"]),
        .executable(name: "tribeboard-audit", targets: ["tribeboard-audit"]),
        .executable(name: "tribeboard-doctor", targets: ["tribeboard-doctor"]),
        .executable(name: "tribeboard-migrate", targets: ["tribeboard-migrate"]),
        .executable(name: "tribeboard-sheets", targets: ["tribeboard-sheets"]),
        .executable(name: "tribeboard-cloudkit-emulator", targets: ["tribeboard-cloudkit-emulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
        // The CloudKit emulator's HTTP server: about 20 s of clean debug build, where hummingbird
        // with SwiftNIO costs minutes.
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        // The join kit the app adopts: its code normalisation and claim names are the toolkit's.
        .package(path: "Packages/TribeBoardJoinKit"),
    ],
    targets: [
        // libqrencode: the same encoder as the `qrencode` CLI.
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // cairo (PDF) and pango with harfbuzz (text shaping and bidi) for `tribeboard sheets`.
        .systemLibrary(
            name: "CCairoPango",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // librsvg: SVG logos in `tribeboard sheets`, drawn as vectors into the cairo PDF.
        .systemLibrary(name: "CRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        // libpng behind a small C shim: libpng reports errors with longjmp, which Swift
        // cannot catch, so the setjmp lives in C and errors come back as return codes.
        .target(
            name: "CPNGWriter",
            linkerSettings: [.linkedLibrary("png16")]
        ),
        // CloudKit request signing (ECDSA P-256, SHA-256) through the system's OpenSSL: libcrypto
        // is on every Debian machine, where swift-crypto would compile BoringSSL in every CI run.
        .target(
            name: "CCloudKitCrypto",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        // Remote snapshot lines through the system's simdjson (libsimdjson-dev): Foundation's
        // JSONDecoder alone would take 11 s for a million-record snapshot, simdjson under one.
        .target(
            name: "CSnapshotParser",
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        // getrandom(2) and O_TMPFILE, which Glibc's Swift module does not export.
        .target(name: "CSystemCalls"),
        // `--version` for every executable: VERSION plus the git commit, stamped at build time.
        .plugin(name: "VersionStamp", capability: .buildTool()),
        .target(name: "TribeBoardVersion", plugins: ["VersionStamp"]),
        // The toolkit's modules, lowest first; each depends only on modules above it.
        // Files, atomic writes, sidecar locks, CSV cells: what every other module writes with.
        .target(name: "TribeBoardSupport", dependencies: ["CSystemCalls"]),
        // Family codes, record ids, field rules, creation states: values with no storage.
        .target(name: "TribeBoardDomain", dependencies: ["TribeBoardSupport", "CSystemCalls",
                                                         .product(name: "TribeBoardJoinKit", package: "TribeBoardJoinKit")]),
        // The SQLite store: schema, migrations, typed records, the open lock.
        .target(
            name: "TribeBoardStore",
            dependencies: [
                "TribeBoardDomain", "TribeBoardSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the bulk insert path (see BoundStatement).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Reading the operator's CSV files (RFC 4180, spreadsheet dialects).
        .target(
            name: "TribeBoardCSV",
            dependencies: ["TribeBoardDomain", "TribeBoardSupport", "CSystemCalls", .product(name: "CSV", package: "CSV.swift")]
        ),
        // QR codes as PNG files, and the output folder they go into.
        .target(name: "TribeBoardQR", dependencies: ["TribeBoardDomain", "TribeBoardSupport", "CQRencode", "CPNGWriter"]),
        // The CloudKit Web Services client: signing, requests, retries, errors; nothing of TribeBoard's.
        .target(
            name: "TribeBoardCloudKit",
            dependencies: ["TribeBoardDomain", "TribeBoardSupport", "CCloudKitCrypto", .product(name: "Logging", package: "swift-log")]
        ),
        // TribeBoard's records in CloudKit, over the client: record types and mapping, code claims,
        // the remote code check, legacy copy names, how an upload run ended.
        .target(
            name: "TribeBoardRemote",
            dependencies: ["TribeBoardCloudKit", "TribeBoardDomain", "TribeBoardSupport", "CCloudKitCrypto",
                           .product(name: "TribeBoardJoinKit", package: "TribeBoardJoinKit"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TribeBoardProvisioning",
            dependencies: ["TribeBoardCSV", "TribeBoardCloudKit", "TribeBoardRemote", "TribeBoardDomain", "TribeBoardQR", "TribeBoardStore", "TribeBoardSupport",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TribeBoardResync",
            dependencies: ["TribeBoardCloudKit", "TribeBoardRemote", "TribeBoardDomain", "TribeBoardStore", "TribeBoardSupport",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TribeBoardAudit",
            dependencies: ["TribeBoardCloudKit", "TribeBoardRemote", "TribeBoardDomain", "TribeBoardQR", "TribeBoardStore", "TribeBoardSupport", "CSnapshotParser",
                           .product(name: "Logging", package: "swift-log")]
        ),
        // Closing support cases: remove, merge and adopt a family in CloudKit and the store.
        .target(
            name: "TribeBoardCases",
            dependencies: ["TribeBoardCloudKit", "TribeBoardRemote", "TribeBoardDomain", "TribeBoardStore", "TribeBoardSupport",
                           .product(name: "Logging", package: "swift-log")]
        ),
        // Reading Xcode projects (pbxproj, xcconfig, plists, Swift literals) for doctor: Foundation only.
        .target(name: "TribeBoardXcodeProject"),
        .target(
            name: "TribeBoardDoctor",
            dependencies: ["TribeBoardXcodeProject", "TribeBoardCloudKit", "TribeBoardRemote", "TribeBoardDomain", "TribeBoardStore", "TribeBoardSupport",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TribeBoardMigrate",
            dependencies: ["TribeBoardCloudKit", "TribeBoardRemote", "TribeBoardDomain", "TribeBoardQR", "TribeBoardStore", "TribeBoardSupport",
                           "CCloudKitCrypto", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TribeBoardCommands",
            dependencies: [
                "TribeBoardAudit", "TribeBoardCases", "TribeBoardCloudKit", "TribeBoardRemote", "TribeBoardDoctor", "TribeBoardMigrate", "TribeBoardProvisioning",
                "TribeBoardResync", "TribeBoardSheets", "TribeBoardStore", "TribeBoardSupport", "TribeBoardDomain",
                "TribeBoardVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Printable invitations: who to invite (from the store or a manifest), page layout and
        // drawing through cairo and pango.
        .target(
            name: "TribeBoardSheets",
            dependencies: ["TribeBoardCSV", "TribeBoardDomain", "TribeBoardQR", "TribeBoardStore", "TribeBoardSupport",
                           "CCairoPango", "CRSVG", .product(name: "CSV", package: "CSV.swift"), .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TribeBoardCloudKitEmulator",
            // Not TribeBoardCloudKit: the emulator has its own wire types, so a wire mistake the client
            // makes is not made here too. Signatures are checked with libcrypto directly.
            dependencies: ["CCloudKitCrypto", .product(name: "FlyingFox", package: "FlyingFox")]
        ),
        .executableTarget(
            name: "tribeboard-cloudkit-emulator",
            dependencies: ["TribeBoardCloudKitEmulator", "TribeBoardVersion", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(name: "tribeboard", dependencies: ["TribeBoardCommands"]),
        .executableTarget(name: "tribeboard-provision", dependencies: ["TribeBoardCommands"]),
        .executableTarget(name: "tribeboard-resync", dependencies: ["TribeBoardCommands"]),
        .executableTarget(name: "tribeboard-audit", dependencies: ["TribeBoardCommands"]),
        .executableTarget(name: "tribeboard-doctor", dependencies: ["TribeBoardCommands"]),
        .executableTarget(name: "tribeboard-migrate", dependencies: ["TribeBoardCommands"]),
        .executableTarget(name: "tribeboard-sheets", dependencies: ["TribeBoardCommands"]),
        // Test support, split so that a unit target depends only on what it tests: a change to
        // one feature module rebuilds the tests of that module and of those above it, no others.
        // Temporary folders, processes, file modes, independent readers (zbarimg, PDF), CSV and
        // manifest files, a store inspector, a quiet logger: no feature module.
        .target(
            name: "TribeBoardTestSupport",
            dependencies: ["TribeBoardDomain", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "CSV", package: "CSV.swift"), .product(name: "Logging", package: "swift-log")]
        ),
        // Each command's `--json` report as a typed mirror, one file per command.
        .target(name: "TribeBoardReportMirrors", dependencies: ["TribeBoardTestSupport"]),
        // CloudKit to test against: the emulator in-process, the stand-in, a scripted server,
        // snapshots, the app's own rules.
        .target(
            name: "TribeBoardCloudFixtures",
            dependencies: ["TribeBoardTestSupport", "TribeBoardCloudKit", "TribeBoardRemote", "TribeBoardDomain",
                           "TribeBoardCloudKitEmulator", .product(name: "Logging", package: "swift-log"),
                           .product(name: "FlyingFox", package: "FlyingFox")]
        ),
        // Stores made the ordinary way: an in-process provision run, a store with a snapshot to
        // audit, doctor's stuck and broken stores.
        .target(
            name: "TribeBoardStoreFixtures",
            dependencies: ["TribeBoardTestSupport", "TribeBoardCloudFixtures", "TribeBoardProjectFixtures",
                           "TribeBoardProvisioning", "TribeBoardStore", "TribeBoardSupport", "TribeBoardDomain",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Xcode projects for doctor: the fixtures' paths, a project builder, variants of real ones.
        .target(name: "TribeBoardProjectFixtures", dependencies: ["TribeBoardTestSupport"]),
        // Unit tests, one target per module: a module's tests are found by its name, and depend on
        // the module, the modules below it and the test support they use (ARCHITECTURE.md, "Where a
        // test goes").
        .testTarget(name: "TribeBoardSupportTests", dependencies: ["TribeBoardSupport", "TribeBoardTestSupport"]),
        .testTarget(name: "TribeBoardDomainTests", dependencies: ["TribeBoardDomain", "TribeBoardTestSupport",
                                                                 .product(name: "TribeBoardJoinKit", package: "TribeBoardJoinKit")]),
        .testTarget(name: "TribeBoardCSVTests", dependencies: ["TribeBoardCSV", "TribeBoardTestSupport"]),
        .testTarget(name: "TribeBoardQRTests", dependencies: ["TribeBoardQR", "TribeBoardDomain", "TribeBoardSupport", "TribeBoardTestSupport"]),
        .testTarget(name: "TribeBoardXcodeProjectTests", dependencies: ["TribeBoardXcodeProject", "TribeBoardTestSupport"]),
        .testTarget(name: "TribeBoardSheetsTests", dependencies: ["TribeBoardSheets", "TribeBoardDomain", "TribeBoardTestSupport"]),
        .testTarget(name: "TribeBoardStoreTests", dependencies: ["TribeBoardDomain", "TribeBoardStore", "TribeBoardTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "TribeBoardCloudKitTests", dependencies: ["TribeBoardCloudKit", "TribeBoardCloudKitEmulator", "TribeBoardDomain", "TribeBoardRemote", "TribeBoardSupport",
                                                                   "TribeBoardTestSupport", "TribeBoardCloudFixtures", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TribeBoardRemoteTests", dependencies: ["TribeBoardCloudKit", "TribeBoardCloudKitEmulator", "TribeBoardDomain", "TribeBoardRemote",
                                                                 "TribeBoardTestSupport", "TribeBoardCloudFixtures",
                                                                 .product(name: "TribeBoardJoinKit", package: "TribeBoardJoinKit"),
                                                                 .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TribeBoardProvisioningTests", dependencies: ["TribeBoardCSV", "TribeBoardCloudKit", "TribeBoardCloudKitEmulator", "TribeBoardDomain", "TribeBoardProvisioning", "TribeBoardQR", "TribeBoardRemote", "TribeBoardStore", "TribeBoardSupport",
                                                                       "TribeBoardTestSupport", "TribeBoardCloudFixtures", "TribeBoardStoreFixtures",
                                                                       .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TribeBoardResyncTests", dependencies: ["TribeBoardAudit", "TribeBoardCloudKit", "TribeBoardCloudKitEmulator", "TribeBoardDomain", "TribeBoardRemote", "TribeBoardResync", "TribeBoardStore", "TribeBoardSupport",
                                                                 "TribeBoardTestSupport", "TribeBoardCloudFixtures", "TribeBoardStoreFixtures",
                                                                 .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TribeBoardAuditTests", dependencies: ["TribeBoardAudit", "TribeBoardCloudKit", "TribeBoardDomain", "TribeBoardQR", "TribeBoardRemote", "TribeBoardStore", "TribeBoardSupport", "CSnapshotParser",
                                                                "TribeBoardTestSupport", "TribeBoardCloudFixtures", "TribeBoardStoreFixtures", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "TribeBoardCasesTests", dependencies: ["TribeBoardCases", "TribeBoardTestSupport", "TribeBoardStoreFixtures"]),
        .testTarget(name: "TribeBoardDoctorTests", dependencies: ["TribeBoardCloudKit", "TribeBoardCloudKitEmulator", "TribeBoardDoctor", "TribeBoardDomain", "TribeBoardRemote", "TribeBoardStore", "TribeBoardXcodeProject",
                                                                 "TribeBoardTestSupport", "TribeBoardCloudFixtures", "TribeBoardProjectFixtures", "TribeBoardStoreFixtures",
                                                                 .product(name: "TribeBoardJoinKit", package: "TribeBoardJoinKit"), .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TribeBoardMigrateTests", dependencies: ["TribeBoardCloudKit", "TribeBoardDomain", "TribeBoardMigrate", "TribeBoardRemote", "TribeBoardStore", "TribeBoardTestSupport", "TribeBoardCloudFixtures"]),
        // The emulator alone, over HTTP with raw JSON bodies and `openssl` signatures: no client types.
        .testTarget(
            name: "TribeBoardCloudKitEmulatorTests",
            dependencies: ["TribeBoardCloudKitEmulator"]
        ),
        // Parsing, validation, exit-status mapping and JSON shapes, in-process.
        .testTarget(
            name: "TribeBoardCommandsTests",
            dependencies: ["TribeBoardCommands", "TribeBoardCases", "TribeBoardProvisioning", "TribeBoardTestSupport", "TribeBoardReportMirrors",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "TribeBoardEndToEndTests",
            // Depending on the executables makes `swift test` build them first.
            dependencies: ["TribeBoardCloudKit", "TribeBoardDomain", "TribeBoardRemote", "TribeBoardMigrate", "TribeBoardStore", "TribeBoardCloudKitEmulator",
                           "TribeBoardTestSupport", "TribeBoardReportMirrors", "TribeBoardCloudFixtures", "TribeBoardStoreFixtures", "TribeBoardProjectFixtures",
                           "tribeboard", "tribeboard-provision", "tribeboard-resync", "tribeboard-audit", "tribeboard-doctor", "tribeboard-migrate", "tribeboard-sheets",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
