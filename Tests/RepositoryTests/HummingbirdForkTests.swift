import Foundation
import TestSupport
import Testing

/// What a `setup(channel:logger:)` builds, read from its source: the calls that add to the
/// pipeline in order (`addHandler(HTTP1ToHTTPServerCodec`), and the options NIO's HTTP/1
/// server pipeline is configured with (`withDecoderLimitConfiguration`).
struct ChannelPipeline: Equatable {
  var steps: [String] = []
  var options: Set<String> = []

  /// Nil when the source has no `setup(channel:` followed by a `handle(`.
  init?(source: String) {
    guard let start = source.range(of: "func setup(channel:"),
      let end = source.range(of: "func handle(", range: start.upperBound..<source.endIndex)
    else { return nil }
    // Comments dropped and spaces taken out: the fork's formatting is not the framework's.
    let body = source[start.upperBound..<end.lowerBound].split(separator: "\n")
      .map { line in line.range(of: "//").map { line[..<$0.lowerBound] } ?? line }
      .joined().replacingOccurrences(of: "self.", with: "").filter { !$0.isWhitespace }
    let call = try! Regex(
      #"(configureHTTPServerPipeline|addHandlers?|NIOAsyncChannel)\(([A-Za-z_][\w.]*)?"#)
    for match in body.matches(of: call) {
      let name = String(match.output[1].substring ?? "")
      let added = match.output[2].substring.map(String.init) ?? ""
      switch name {
      case "configureHTTPServerPipeline":
        steps.append(name)
        // From just after the "(": the match may have taken the first label as `added`.
        let callee = match.output[1].range ?? match.range
        options = Self.labels(in: body[callee.upperBound...].dropFirst())
      case "NIOAsyncChannel": steps.append(name)
      default: steps.append("\(name)(\(added)")
      }
    }
  }

  /// The argument labels of a call whose arguments start `text`, its own only (depth 1).
  private static func labels(in text: Substring) -> Set<String> {
    var labels: Set<String> = []
    var depth = 1
    var word = ""
    for character in text {
      switch character {
      case "(": depth += 1
      case ")": depth -= 1
      case ":" where depth == 1 && !word.isEmpty: labels.insert(word)
      default: break
      }
      if depth == 0 { break }
      word = character.isLetter || character.isNumber ? word + String(character) : ""
    }
    return labels
  }

  /// What `framework` builds that `fork` does not, in the framework's order: nothing when the
  /// fork keeps every step (with its own between them) and every option.
  static func missing(from fork: ChannelPipeline, framework: ChannelPipeline) -> [String] {
    var forkSteps = fork.steps[...]
    var missing: [String] = []
    for step in framework.steps {
      if let found = forkSteps.firstIndex(of: step) {
        forkSteps = forkSteps[(found + 1)...]
      } else {
        missing.append(step)
      }
    }
    return missing + framework.options.subtracting(fork.options).sorted()
  }
}

/// RegScope's HTTP/1 channel (Sources/EngagementHTTP/HTTP1ServerChannel.swift) is a fork of
/// Hummingbird's `HTTP1Channel`, made from 2.28. Package.swift keeps Hummingbird to that minor,
/// and this reads the framework the build resolved, so a new release that changes what its
/// channel builds fails here instead of running beside a stale fork.
@Suite("the fork of Hummingbird's HTTP/1 channel", .timeLimit(.minutes(10)))
struct HummingbirdForkTests {
  /// The minor the fork was read against; moved with the pin in Package.swift.
  static let forkedMinor = "2.28"
  static let channelFile = "Sources/HummingbirdCore/Server/HTTP/HTTP1Channel.swift"

  struct Dependency: Decodable {
    var identity: String
    var version: String
    var path: String
  }
  struct Dependencies: Decodable { var dependencies: [Dependency] }

  /// Hummingbird as the build resolved it: its version and where its checkout is.
  static func resolvedHummingbird() async throws -> Dependency {
    // show-dependencies only reads the manifest and the resolved versions, so it need not
    // wait for the build lock `swift test` holds.
    let output = try await runTool(
      "swift",
      [
        "package", "--package-path", repository.path, "--ignore-lock", "show-dependencies",
        "--format", "json",
      ])
    try #require(output.status == 0, "\(output.stderr)")
    let graph = try JSONDecoder().decode(Dependencies.self, from: Data(output.stdout.utf8))
    return try #require(graph.dependencies.first { $0.identity == "hummingbird" })
  }

  @Test("Package.swift keeps Hummingbird to the forked minor, and the build resolved it")
  func pinnedToTheForkedMinor() async throws {
    let manifest = try String(
      contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8)
    let declaration = manifest.split(separator: "\n").drop { !$0.contains("hummingbird-project") }
      .prefix(2).joined()
    #expect(
      declaration.contains(".upToNextMinor(from: \"\(Self.forkedMinor)."), "\(declaration)")
    let resolved = try await Self.resolvedHummingbird()
    #expect(resolved.version.hasPrefix(Self.forkedMinor + "."), "resolved \(resolved.version)")
  }

  @Test("the fork builds every step and option the framework's HTTP/1 channel builds")
  func forkKeepsTheFramework() async throws {
    let resolved = try await Self.resolvedHummingbird()
    let frameworkFile = URL(fileURLWithPath: resolved.path).appendingPathComponent(
      Self.channelFile)
    let framework = try #require(
      ChannelPipeline(source: try String(contentsOf: frameworkFile, encoding: .utf8)),
      "Hummingbird \(resolved.version) has no HTTP1Channel.setup where the fork found it")
    let fork = try #require(
      ChannelPipeline(
        source: try String(
          contentsOf: repository.appendingPathComponent(
            "Sources/EngagementHTTP/HTTP1ServerChannel.swift"), encoding: .utf8)))
    // Read right, the framework's own channel is not empty.
    #expect(framework.steps.contains("addHandler(HTTP1ToHTTPServerCodec"), "\(framework)")
    let missing = ChannelPipeline.missing(from: fork, framework: framework)
    #expect(
      missing.isEmpty,
      "Hummingbird \(resolved.version)'s HTTP1Channel builds \(missing), which HTTP1ServerChannel does not: read the fork again"
    )
  }

  @Test("the comparison finds a step or an option the fork lacks (so it can fail)")
  func comparisonCanFail() throws {
    func source(_ body: String) -> String {
      "func setup(channel: any Channel, logger: Logger) {\n\(body)\n}\nfunc handle(value: V) {}"
    }
    let framework = try #require(
      ChannelPipeline(
        source: source(
          """
          try channel.pipeline.syncOperations.configureHTTPServerPipeline(
              withPipeliningAssistance: self.configuration.pipelining,  // a comment (x: y)
              withDecoderLimitConfiguration: limits
          )
          try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
          try channel.pipeline.syncOperations.addHandler(NewHandler())
          try channel.pipeline.syncOperations.addHandlers(self.configuration.extra())
          return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
          """)))
    #expect(
      framework.steps == [
        "configureHTTPServerPipeline", "addHandler(HTTP1ToHTTPServerCodec", "addHandler(NewHandler",
        "addHandlers(configuration.extra", "NIOAsyncChannel",
      ])
    #expect(framework.options == ["withPipeliningAssistance", "withDecoderLimitConfiguration"])
    let fork = try #require(
      ChannelPipeline(
        source: source(
          """
          try sync.configureHTTPServerPipeline(withPipeliningAssistance: false, withEncoder: .init(a: 1))
          try sync.addHandler(Ours())
          try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
          try sync.addHandlers(configuration.extra())
          return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
          """)))
    #expect(fork.options == ["withPipeliningAssistance", "withEncoder"])
    #expect(
      ChannelPipeline.missing(from: fork, framework: framework) == [
        "addHandler(NewHandler", "withDecoderLimitConfiguration",
      ])
    #expect(ChannelPipeline.missing(from: framework, framework: framework).isEmpty)
  }
}
