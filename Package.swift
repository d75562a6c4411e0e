// swift-tools-version:6.3
// RegScope: a precise, visible model of mobile-push device and contact registration.
import PackageDescription

let strictSwift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "RegScope",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "RegistrationCore", targets: ["RegistrationCore"]),
    .library(name: "RegistrationEngine", targets: ["RegistrationEngine"]),
    .library(name: "Clocks", targets: ["Clocks"]),
    .executable(name: "regscope", targets: ["regscope"]),
    .executable(name: "regctl", targets: ["regctl"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    // The minor whose HTTP/1 channel Sources/EngagementHTTP/HTTP1ServerChannel.swift forks:
    // moving on means reading the fork again (docs/testing.md, HummingbirdForkTests).
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", .upToNextMinor(from: "2.28.1")),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
  ],
  targets: [
    // Every call into the C library, one file with a Linux and a Darwin branch.
    .target(name: "SystemCalls", swiftSettings: strictSwift6),
    // Sans-I/O: the record, the input rules, the throttle/backoff decisions, the payload.
    .target(name: "RegistrationCore", swiftSettings: strictSwift6),
    // The time seam shared by the engine and the local server: real, scaled, virtual.
    .target(name: "Clocks", dependencies: ["RegistrationCore"], swiftSettings: strictSwift6),
    // The shell: clock, SQLite store, transport, listeners.
    .target(
      name: "RegistrationEngine",
      dependencies: [
        "RegistrationCore", "Clocks", "SystemCalls", .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: strictSwift6
    ),
    // The receiving side's rules as pure code (SPEC S1-S7): processing, the watch and its
    // judge, faults, events, pages.
    .target(
      name: "EngagementCore",
      dependencies: [
        "RegistrationCore",
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
      ],
      swiftSettings: strictSwift6
    ),
    // The local server: the core above kept in SQLite, an actor on a clock.
    .target(
      name: "EngagementServer",
      dependencies: [
        "RegistrationCore", "EngagementCore", "Clocks", "SystemCalls",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: strictSwift6
    ),
    // Captures: HAR 1.2 read (streamed, judged) and written (tokens masked).
    .target(
      name: "HAR", dependencies: ["RegistrationCore", "EngagementCore", "SystemCalls"],
      swiftSettings: strictSwift6),
    // Every call RegScope makes to a third party (the tenant, its token service, a receiver
    // MCP asks): one exchange a connection, one deadline over the whole answer, bounded.
    .target(
      name: "OutboundHTTP",
      dependencies: [
        "SystemCalls",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      swiftSettings: strictSwift6
    ),
    // The local server's HTTP front on Hummingbird: routes, hardening, the OpenAPI document.
    .target(
      name: "EngagementHTTP",
      dependencies: [
        "RegistrationCore", "Clocks", "EngagementCore", "EngagementServer", "SystemCalls", "HAR",
        "OutboundHTTP", "DebugBundle",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "HummingbirdTLS", package: "hummingbird"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: strictSwift6
    ),
    // What a face reads and says, as values: the command language and its outcomes, the
    // events, the snapshots (one case per job). No store, no server, no network.
    .target(
      name: "SessionValues",
      dependencies: ["RegistrationCore", "EngagementCore"],
      swiftSettings: strictSwift6
    ),
    // The jobs both faces drive (a simulated device, a receiver, an imported device) and the
    // one factory that builds them.
    .target(
      name: "Session",
      dependencies: [
        "RegistrationCore", "RegistrationEngine", "EngagementCore", "EngagementServer", "Clocks",
        "SessionValues",
      ],
      swiftSettings: strictSwift6
    ),
    // The shipped SDKs' state dumps: written from RegScope's state, and read back.
    .target(
      name: "StateDumps",
      dependencies: ["RegistrationCore", "RegistrationEngine", "SessionValues", "SystemCalls"],
      swiftSettings: strictSwift6
    ),
    // Many devices through the pure machine in virtual time: billing, orphans, server load.
    .target(
      name: "Fleet", dependencies: ["RegistrationCore", "EngagementCore"],
      swiftSettings: strictSwift6),
    .testTarget(
      name: "FleetTests", dependencies: ["Fleet", "RegistrationCore", "Scenarios", "Session"],
      swiftSettings: strictSwift6),
    // What a session needs to reach a real network: the engine's HTTP transport (on
    // OutboundHTTP, the one client for every outside party) and the server's HTTP front.
    // Kept apart so the inspector's UI and a scenario in virtual time link no NIO.
    .target(
      name: "SessionHTTP",
      dependencies: [
        "Session", "SessionValues", "RegistrationCore", "RegistrationEngine", "EngagementCore",
        "EngagementServer", "EngagementHTTP", "HAR", "DebugBundle", "OutboundHTTP",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      swiftSettings: strictSwift6
    ),
    // RegScope's YAML files read with where each error is: the reader, the located error, the
    // refusal of anchors and aliases. Scenarios, QA plans and themes share it.
    .target(
      name: "YAMLFiles",
      dependencies: [
        "RegistrationCore", "SystemCalls", .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: strictSwift6
    ),
    // A Marketing Cloud tenant through its documented REST API (token, Contacts): the
    // `--tenant` file and the client. Apart so the inspector's UI links no HTTP client.
    .target(
      name: "TenantAPI",
      dependencies: [
        "RegistrationCore", "SystemCalls", "Clocks", "OutboundHTTP", "EngagementCore",
        "EngagementServer",
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      swiftSettings: strictSwift6
    ),
    // The debug bundle (#54): one zip for a ticket, the verdict beside the traffic, masked
    // (and with --redact, keyed hashes); made and read by regctl, regscope and the server.
    .target(
      name: "DebugBundle",
      dependencies: [
        "RegistrationCore", "SystemCalls",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ],
      swiftSettings: strictSwift6
    ),
    // The scenario format (YAML), expectations, the runner, the built-ins.
    .target(
      name: "Scenarios",
      dependencies: [
        "RegistrationCore", "RegistrationEngine", "EngagementCore", "EngagementServer", "Clocks",
        "Session", "SessionValues", "YAMLFiles", .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: strictSwift6
    ),
    // QA plans: their format, the runner beside a receiver, the judge of each step, the
    // reports (Markdown, JUnit).
    .target(
      name: "QA",
      dependencies: [
        "RegistrationCore", "EngagementCore", "EngagementServer", "Clocks", "SessionValues",
        "YAMLFiles", .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "ScenariosTests",
      dependencies: [
        "Scenarios", "QA", "YAMLFiles", "ToolSupport", "Session", "SessionValues", "SessionHTTP",
        "StateDumps",
        "EngagementCore",
        "EngagementServer",
      ],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "StateDumpsTests",
      dependencies: ["StateDumps", "Session", "SessionValues", "RegistrationEngine"],
      swiftSettings: strictSwift6
    ),
    // What tests share: child processes with a watchdog, raw HTTP, blocking work off the pool,
    // the engine's in-process transport.
    .target(
      name: "TestSupport",
      dependencies: ["RegistrationCore", "RegistrationEngine", "Clocks"],
      path: "Tests/TestSupport",
      swiftSettings: strictSwift6
    ),
    // Runs the regscope binary in tmux, as a user would.
    .testTarget(
      name: "RegscopeTests",
      dependencies: ["regscope", "regctl", "TestSupport"],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "EngagementCoreTests",
      dependencies: ["EngagementCore", "RegistrationCore", "Clocks", "TestSupport"],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "EngagementHTTPTests",
      dependencies: [
        "EngagementCore", "EngagementServer", "EngagementHTTP", "RegistrationEngine",
        "Session", "SessionHTTP", "Clocks", "TestSupport", "HAR",
        // The fast path's reading of a head is held to HTTPTypes' conversion.
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        // The connection's guards in virtual time.
        .product(name: "NIOEmbedded", package: "swift-nio"),
      ],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "SessionTests",
      dependencies: [
        "Session", "SessionValues", "SessionHTTP", "Scenarios", "EngagementCore",
        "EngagementServer", "RegistrationEngine", "Clocks",
      ],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "SessionValuesTests",
      dependencies: [
        "SessionValues", "Session", "Scenarios", "EngagementCore", "EngagementServer", "Clocks",
      ],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "ClocksTests", dependencies: ["Clocks", "RegistrationCore"], swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "SystemCallsTests", dependencies: ["SystemCalls"], swiftSettings: strictSwift6),
    .testTarget(
      name: "ToolSupportTests",
      dependencies: [
        "ToolSupport", "SessionValues", "EngagementCore", "EngagementServer", "RegistrationCore",
        "TenantAPI", "TestSupport",
      ],
      swiftSettings: strictSwift6),
    .testTarget(
      name: "SessionHTTPTests",
      dependencies: [
        "SessionHTTP", "Session", "RegistrationEngine", "RegistrationCore", "OutboundHTTP",
        "TestSupport",
      ],
      swiftSettings: strictSwift6),
    .testTarget(
      name: "HARTests",
      dependencies: ["HAR", "EngagementCore", "RegistrationCore", "TestSupport"],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "QATests",
      dependencies: [
        "QA", "YAMLFiles", "EngagementCore", "EngagementServer", "EngagementHTTP",
        "RegistrationEngine",
        "Session", "SessionHTTP", "RegistrationCore", "Clocks", "TestSupport",
      ],
      swiftSettings: strictSwift6
    ),
    // What the repository promises of itself: the docs' commands parse, functions stay short,
    // one file calls the C library.
    .testTarget(
      name: "RepositoryTests",
      dependencies: ["regctl", "regscope", "TestSupport"],
      swiftSettings: strictSwift6
    ),
    // The tenant client against the stand-in tenant, in virtual time.
    .testTarget(
      name: "TenantAPITests",
      dependencies: ["TenantAPI", "TestSupport", "Clocks", "RegistrationCore"],
      swiftSettings: strictSwift6
    ),
    // Runs the regctl binary as a user would.
    .testTarget(
      name: "RegctlTests",
      dependencies: ["regctl", "RegScopeMCP", "TestSupport"],
      swiftSettings: strictSwift6
    ),
    // ncurses, for the inspector only (DESIGN: "CNcursesw").
    .systemLibrary(
      name: "CNcursesw",
      pkgConfig: "ncursesw",
      providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
    ),
    // The inspector as Model / Message / update / view into a cell buffer. No curses here.
    .target(
      name: "InspectorUI",
      dependencies: [
        "RegistrationCore", "EngagementCore", "SessionValues", "Fleet", "YAMLFiles",
        .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "InspectorUITests",
      dependencies: [
        "InspectorUI", "Session", "SessionValues", "Scenarios", "TestSupport", "EngagementCore",
        "EngagementServer",
      ],
      exclude: ["Snapshots"],
      swiftSettings: strictSwift6
    ),
    // What both command-line tools share: escaped output and ArgumentParser's main with it.
    .target(
      name: "ToolSupport",
      dependencies: [
        "RegistrationCore", "RegistrationEngine", "EngagementCore", "EngagementServer", "Session",
        "SessionValues", "SystemCalls", "TenantAPI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSwift6
    ),
    // The terminal inspector: the ncurses backend and the main loop.
    .executableTarget(
      name: "regscope",
      dependencies: [
        "InspectorUI", "CNcursesw", "Session", "SessionValues", "SessionHTTP", "Scenarios", "QA",
        "StateDumps", "Fleet", "RegistrationEngine", "EngagementCore", "EngagementServer", "Clocks",
        "ToolSupport", "SystemCalls", "HAR", "RegistrationCore", "DebugBundle",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSwift6,
      // Debian's wide ncurses is libncursesw; macOS's own library is libncurses, wide API
      // included (Homebrew's keg has both names).
      linkerSettings: [
        .linkedLibrary("ncursesw", .when(platforms: [.linux])),
        .linkedLibrary("ncurses", .when(platforms: [.macOS])),
      ]
    ),
    // The headless tool: scenarios, shell, the local server. Links no curses.
    // The MCP server's tools and its stdio transport (`regctl mcp` wraps them): what a coding
    // assistant asks of captures, scenarios, QA plans and a running receiver.
    .target(
      name: "RegScopeMCP",
      dependencies: [
        "RegistrationCore", "EngagementCore", "HAR", "QA", "Scenarios", "Session", "SessionHTTP",
        "SystemCalls", "OutboundHTTP", "DebugBundle",
        .product(name: "MCP", package: "swift-sdk"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      swiftSettings: strictSwift6
    ),
    .executableTarget(
      name: "regctl",
      dependencies: [
        "RegistrationCore", "RegistrationEngine", "EngagementCore", "EngagementServer", "Clocks",
        "Session", "SessionValues", "SessionHTTP", "Scenarios", "QA", "StateDumps", "Fleet",
        "ToolSupport", "SystemCalls", "HAR", "TenantAPI", "DebugBundle", "OutboundHTTP",
        "RegScopeMCP",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "MCP", package: "swift-sdk"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "EngagementServerTests",
      dependencies: [
        "EngagementCore", "EngagementServer", "EngagementHTTP", "RegistrationEngine",
        "Session", "SessionHTTP", "Clocks", "TestSupport", "HAR",
      ],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "RegistrationCoreTests",
      dependencies: ["RegistrationCore"],
      swiftSettings: strictSwift6
    ),
    .testTarget(
      name: "RegistrationEngineTests",
      dependencies: [
        "RegistrationEngine", "SessionHTTP", "Clocks", "crash-probe", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: strictSwift6
    ),
    // A child process for the kill -9 durability test (R1.4): it makes edits and reports
    // each one only after the engine has acknowledged it as durable.
    .executableTarget(
      name: "crash-probe",
      dependencies: ["RegistrationEngine", "Clocks", "TestSupport"],
      path: "Tests/CrashProbe",
      swiftSettings: strictSwift6
    ),
    // Fuzz harnesses for every parser of outside input: a seeded mutation runner, or a
    // libFuzzer target when built with -DFUZZING -sanitize=fuzzer (Benchmarks/fuzz.sh).
    .executableTarget(
      name: "regscope-fuzz",
      dependencies: [
        "Session", "SessionValues", "Scenarios", "QA", "StateDumps", "RegistrationEngine",
        "EngagementCore", "EngagementServer", "EngagementHTTP", "InspectorUI", "HAR", "DebugBundle",
      ],
      path: "Tests/Fuzz",
      swiftSettings: strictSwift6
    ),
    // The floor under the load figures: SwiftNIO's HTTP/1 server answering from a channel
    // handler, no Hummingbird (docs/testing.md).
    .executableTarget(
      name: "bare-nio",
      dependencies: [
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      path: "Benchmarks/BareNIO",
      swiftSettings: strictSwift6
    ),
    // The bare Hummingbird route the load figure compares against (Benchmarks/load.sh).
    .executableTarget(
      name: "bare-route",
      dependencies: [
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Benchmarks/BareRoute",
      swiftSettings: strictSwift6
    ),
    // Release-mode benchmark: `swift run -c release regscope-bench`.
    .executableTarget(
      name: "regscope-bench",
      dependencies: [
        "RegistrationCore", "RegistrationEngine", "Clocks", "EngagementCore", "EngagementServer",
        "EngagementHTTP", "HAR",
      ],
      path: "Benchmarks/RegScopeBenchmarks",
      swiftSettings: strictSwift6
    ),
  ]
)
