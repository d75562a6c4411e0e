import Foundation
import TestSupport
import Testing

/// The modules a folder's Swift files import.
func importedModules(under folder: String) throws -> Set<String> {
  let statement = try! Regex(
    #"^\s*(?:@testable\s+)?(?:public\s+|package\s+|internal\s+)?import\s+(\w+)"#)
  var modules: Set<String> = []
  for (_, lines) in try swiftFiles(under: folder) {
    for line in lines {
      if let match = line.firstMatch(of: statement), let module = match.output[1].substring {
        modules.insert(String(module))
      }
    }
  }
  return modules
}

/// Where #44 drew the modules' lines, kept: each layer below the ones that use it, test
/// doubles with the tests, no dependency declared and unused, no dead public API.
@Suite("the modules' boundaries", .timeLimit(.minutes(10)))
struct BoundariesTests {
  struct Target: Decodable {
    var name: String
    var path: String
    var targetDependencies: [String]?
    var productDependencies: [String]?

    enum CodingKeys: String, CodingKey {
      case name, path
      case targetDependencies = "target_dependencies"
      case productDependencies = "product_dependencies"
    }
  }
  struct Description: Decodable { var targets: [Target] }

  /// The package's targets as SwiftPM reads the manifest.
  static func targets() async throws -> [String: Target] {
    // describe only reads the manifest, so it need not wait for the build lock `swift test`
    // holds.
    let output = try await runTool(
      "swift",
      [
        "package", "--package-path", repository.path, "--ignore-lock", "describe", "--type", "json",
      ])
    try #require(output.status == 0, "\(output.stderr)")
    let description = try JSONDecoder().decode(Description.self, from: Data(output.stdout.utf8))
    return Dictionary(uniqueKeysWithValues: description.targets.map { ($0.name, $0) })
  }

  /// Every target `name` reaches through the targets it depends on.
  static func reached(from name: String, in targets: [String: Target]) -> Set<String> {
    var reached: Set<String> = []
    var queue = targets[name]?.targetDependencies ?? []
    while let next = queue.popLast() {
      guard reached.insert(next).inserted else { continue }
      queue += targets[next]?.targetDependencies ?? []
    }
    return reached
  }

  @Test("YAMLFiles stands below SessionValues: it neither declares, reaches nor imports it")
  func yamlBelowSessionValues() async throws {
    let targets = try await Self.targets()
    let reached = Self.reached(from: "YAMLFiles", in: targets)
    #expect(reached.contains("RegistrationCore"), "\(reached.sorted())")
    #expect(!reached.contains("SessionValues"), "YAMLFiles reaches \(reached.sorted())")
    #expect(!(try importedModules(under: "Sources/YAMLFiles")).contains("SessionValues"))
  }

  @Test("a module under Sources imports every module it declares (regctl declared EngagementHTTP)")
  func noUnusedDependency() async throws {
    let targets = try await Self.targets()
    #expect(targets["regctl"] != nil && targets["YAMLFiles"] != nil)
    for target in targets.values.sorted(by: { $0.name < $1.name })
    where target.path.hasPrefix("Sources/") {
      let imported = try importedModules(under: target.path)
      let declared = (target.targetDependencies ?? []) + (target.productDependencies ?? [])
      for module in declared
      where !imported.contains(module.replacingOccurrences(of: "-", with: "_")) {
        Issue.record("\(target.name) declares \(module) and no file of it imports it")
      }
    }
  }

  /// Modules that come with the toolchain or the system: never declared in the manifest.
  static let toolchainModules: Set<String> = [
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch",
    "Glibc", "Musl",
    "Darwin", "Synchronization", "Testing", "XCTest", "os", "CNcursesw", "_Concurrency",
    "RegexBuilder", "Observation", "PackageDescription",
  ]

  @Test("a module under Sources declares every module it imports (#53: the other direction)")
  func noUndeclaredImport() async throws {
    let targets = try await Self.targets()
    var undeclared: [String] = []
    for target in targets.values.sorted(by: { $0.name < $1.name })
    where target.path.hasPrefix("Sources/") {
      let declared = Set(
        ((target.targetDependencies ?? []) + (target.productDependencies ?? [])).map {
          $0.replacingOccurrences(of: "-", with: "_")
        })
      for module in try importedModules(under: target.path).sorted()
      where !declared.contains(module) && !Self.toolchainModules.contains(module)
        && module != target.name
      {
        undeclared.append("\(target.name) imports \(module)")
      }
    }
    #expect(undeclared.isEmpty, "imported without being declared: \(undeclared)")
  }

  @Test("tests build the HTTP front through the one entry the tools use (HTTPNetwork.front)")
  func oneWayToBuildTheFront() throws {
    var handBuilt: [String] = []
    // Written in two so this file does not find itself.
    let built = "EngagementHTTPServer" + "(server"
    for folder in ["Tests", "Sources"] {
      for (path, lines) in try swiftFiles(under: folder) {
        for (number, line) in lines.enumerated() where line.contains(built) {
          handBuilt.append("\(path):\(number + 1)")
        }
      }
    }
    #expect(
      handBuilt.count == 1 && handBuilt[0].hasPrefix("Sources/SessionHTTP/HTTPNetwork.swift:"),
      "EngagementHTTPServer built besides HTTPNetwork.front: \(handBuilt)")
  }

  @Test("RegistrationInbox sits beside the HTTP front, the only one that uses it")
  func inboxBesideTheFront() throws {
    let files = FileManager.default
    #expect(
      files.fileExists(
        atPath: repository.appendingPathComponent("Sources/EngagementHTTP/RegistrationInbox.swift")
          .path))
    for (path, lines) in try swiftFiles(under: "Sources")
    where !path.hasPrefix("Sources/EngagementHTTP/") {
      #expect(
        !lines.contains { $0.contains("RegistrationInbox") }, "\(path) names RegistrationInbox")
    }
  }

  @Test("no test double under Sources: they live in Tests/TestSupport")
  func noTestDoubleInSources() throws {
    let double = try! Regex(
      #"\b(?:class|struct|actor|enum)\s+(?:InMemoryTransport\b|\w*(?:Mock|Fake|Stub|Spy)\w*)"#)
    for (path, lines) in try swiftFiles(under: "Sources") {
      for (index, line) in lines.enumerated() where line.firstMatch(of: double) != nil {
        Issue.record("\(path):\(index + 1) declares a test double: \(line)")
      }
    }
    let support = try swiftFiles(under: "Tests/TestSupport")
    #expect(support.contains { $0.path.hasSuffix("/InMemoryTransport.swift") })
  }

  /// The judging core is pure (#44): a subscriber token comes from the source the watch is
  /// given (`DeviceWatch(makeToken:)`), a made-up key from a seeded generator, so the same
  /// requests judge to the same state; the system's random source is the server's, at the edge.
  @Test("EngagementCore draws nothing from the system's random source")
  func coreDrawsNoRandomness() throws {
    let drawn = try Regex(#"SystemRandomNumberGenerator|\bUUID\(\)|\.random\(|randomElement\("#)
    for (path, lines) in try swiftFiles(under: "Sources/EngagementCore") {
      for (index, line) in lines.enumerated() where line.firstMatch(of: drawn) != nil {
        Issue.record("\(path):\(index + 1) draws from the system: \(line)")
      }
    }
  }

  /// Public API #44 found dead (no caller, or tests only), removed.
  static let removed = [
    "findingsTotal", "isOrphaned", "appendEscaped", "encodedEntry", "prettyBody",
  ]

  @Test("the dead public API #44 removed stays removed", arguments: BoundariesTests.removed)
  func deadSymbolGone(_ symbol: String) throws {
    let word = try Regex("\\b\(symbol)\\b")
    for folder in ["Sources", "Tests", "Benchmarks"] {
      for (path, lines) in try swiftFiles(under: folder)
      where !path.hasPrefix("Tests/RepositoryTests/") {
        for (index, line) in lines.enumerated() where line.firstMatch(of: word) != nil {
          Issue.record("\(path):\(index + 1) names \(symbol): \(line)")
        }
      }
    }
  }

  @Test("docs/testing.md stays one current table of figures, under 200 lines")
  func testingDocShort() throws {
    let text = try String(
      contentsOf: repository.appendingPathComponent("docs/testing.md"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count < 200, "docs/testing.md is \(lines.count) lines")
    #expect(lines.filter { $0.hasPrefix("| what | command | measured |") }.count == 1)
  }
}
