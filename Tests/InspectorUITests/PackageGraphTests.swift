import Foundation
import TestSupport
import Testing

/// The inspector's UI is a pure Elm-style library: it must not pull in the HTTP stack the
/// local server and the remote transport need (issue "the house", Done when).
@Suite("the package graph", .timeLimit(.minutes(10)))
struct PackageGraphTests {
  struct Target: Decodable {
    var name: String
    var targetDependencies: [String]?
    var productDependencies: [String]?

    enum CodingKeys: String, CodingKey {
      case name
      case targetDependencies = "target_dependencies"
      case productDependencies = "product_dependencies"
    }
  }
  struct Description: Decodable { var targets: [Target] }

  /// Every product of another package a target links, through its own targets.
  static func linkedProducts(of name: String, in targets: [String: Target]) -> Set<String> {
    var seen: Set<String> = []
    var products: Set<String> = []
    var queue = [name]
    while let next = queue.popLast() {
      guard seen.insert(next).inserted, let target = targets[next] else { continue }
      products.formUnion(target.productDependencies ?? [])
      queue += target.targetDependencies ?? []
    }
    return products
  }

  @Test("InspectorUI links no GRDB, SQLite, Hummingbird, NIO or HTTP client; regscope does")
  func inspectorLinksNoHTTPStack() async throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    // describe only reads the manifest, so it need not wait for the build lock `swift test`
    // holds.
    let output = try await runTool(
      "swift",
      ["package", "--package-path", root.path, "--ignore-lock", "describe", "--type", "json"])
    #expect(output.status == 0, "\(output.stderr)")
    let description = try JSONDecoder().decode(Description.self, from: Data(output.stdout.utf8))
    let targets = Dictionary(uniqueKeysWithValues: description.targets.map { ($0.name, $0) })
    let ui = Self.linkedProducts(of: "InspectorUI", in: targets)
    let http = ["Hummingbird", "ServiceLifecycle"]
    #expect(ui.allSatisfy { !$0.hasPrefix("NIO") && !http.contains($0) }, "\(ui.sorted())")
    #expect(!ui.contains("GRDB") && !ui.contains { $0.contains("SQLite") }, "\(ui.sorted())")
    #expect(ui == ["Yams", "OrderedCollections", "DequeModule"])
    // Nor does any target it depends on name the store or the server's actor.
    var reached: Set<String> = []
    var queue = ["InspectorUI"]
    while let next = queue.popLast() {
      guard reached.insert(next).inserted else { continue }
      queue += targets[next]?.targetDependencies ?? []
    }
    for heavy in ["RegistrationEngine", "EngagementServer", "Session", "SessionHTTP"] {
      #expect(!reached.contains(heavy), "InspectorUI reaches \(heavy)")
    }
    let app = Self.linkedProducts(of: "regscope", in: targets)
    #expect(app.contains("Hummingbird") && app.contains("NIOSSL"))
    // One client for every outside party (#52): nothing links AsyncHTTPClient any more.
    for target in targets.keys {
      let linked = Self.linkedProducts(of: target, in: targets)
      #expect(!linked.contains("AsyncHTTPClient"), "\(target) links AsyncHTTPClient")
    }
  }
}
