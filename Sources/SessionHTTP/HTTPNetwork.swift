import EngagementCore
import EngagementHTTP
import EngagementServer
import HAR
import RegistrationCore
import RegistrationEngine
import Session
import SessionValues

/// The real network for a session: registrations over AsyncHTTPClient, and the local server's
/// Hummingbird front on loopback when a run goes over HTTP.
public struct HTTPNetwork: SessionNetwork {
  public init() {}

  public func transport() -> any RegistrationTransport { HTTPTransport() }

  public func openFront(for server: LocalEngagementServer) async throws -> any ServerFront {
    let (front, _) = try Self.front(for: server, options: ReceiverOptions(port: 0))
    let port = try await front.start()
    return LoopbackFront(front: front, url: "http://127.0.0.1:\(port)")
  }

  public func openReceiver(for server: LocalEngagementServer, options receiver: ReceiverOptions)
    async throws -> any ServerFront
  {
    let (front, capture) = try Self.front(for: server, options: receiver)
    let bound = try await front.start()
    let scheme = receiver.tls == nil ? "http" : "https"
    return LoopbackFront(
      front: front, url: "\(scheme)://\(Self.urlHost(receiver.host)):\(bound)", capture: capture)
  }

  /// The one way the local server's HTTP front is built, not yet started: from a receiver's
  /// options as the tools give them (a device session's front is a receiver's on a free
  /// loopback port), with `tuned` for what only tests and benchmarks change (the fast path
  /// off, an observer of each exchange, the limits, a hang's length).
  public static func front(
    for server: LocalEngagementServer, options receiver: ReceiverOptions,
    tuned: (inout EngagementHTTPServer.Options) -> Void = { _ in }
  ) throws -> (front: EngagementHTTPServer, capture: HARFile?) {
    var options = EngagementHTTPServer.Options()
    options.port = receiver.port
    options.host = receiver.host
    options.hostNames = receiver.hostNames
    if let upstream = receiver.upstream {
      guard let relay = Upstream(upstream) else { throw BadUpstream(text: upstream) }
      options.upstream = relay
    }
    if let (certificate, key) = receiver.tls {
      let tls = ServerTLS(certificatePath: certificate, keyPath: key)
      try tls.check()
      options.tls = tls
    }
    let capture = try receiver.har.map { path throws(HARError) in
      try HARFile(path: path, written: receiver.harWritten, failed: receiver.harFailed)
    }
    if let capture { options.capture = { capture.record($0) } }
    tuned(&options)
    return (EngagementHTTPServer(server: server, options: options), capture)
  }
}

struct BadUpstream: Error, CustomStringConvertible {
  var text: String
  var description: String {
    "--upstream \(TerminalText.escaped(text)): \(Upstream.problem(with: text) ?? "not a URL")"
  }
}

/// The Hummingbird front as the session sees it.
struct LoopbackFront: ServerFront {
  let front: EngagementHTTPServer
  let url: String
  var capture: HARFile? = nil

  func waitUntil(listening: Bool) async { await front.waitUntil(listening: listening) }

  func stop() async {
    await front.stop()
    capture?.close()
  }

  var written: String? {
    guard let capture else { return nil }
    let (kept, beyond) = capture.counts
    return
      "capture: \(kept) exchange\(kept == 1 ? "" : "s") in \(TerminalText.escaped(capture.path))"
      + (beyond > 0
        ? "; \(beyond) more past its budget of \(HARFile.byteBudget >> 20) MB were not kept" : "")
      + (capture.lost > 0 ? "; \(capture.lost) lost to writes that failed" : "")
      + (capture.problem.map { "; the last write failed: \($0)" } ?? "")
  }
}

extension HTTPNetwork {
  /// What is wrong with `options` before anything listens: an upstream that is no http(s) URL,
  /// a certificate or key that cannot be read. Nil when they can be used.
  public static func problem(with options: ReceiverOptions) -> String? {
    if let upstream = options.upstream, let problem = Upstream.problem(with: upstream) {
      return "--upstream \(TerminalText.escaped(upstream)): \(problem)"
    }
    if let (certificate, key) = options.tls {
      do {
        try ServerTLS(certificatePath: certificate, keyPath: key).check()
      } catch {
        return TerminalText.escaped(error.description)
      }
    }
    return nil
  }

  /// The tenant's base URL as it may be shown: credentials in it are never printed.
  public static func relayShown(_ upstream: String) -> String {
    Upstream(upstream)?.base ?? TerminalText.escaped(upstream)
  }
}

extension HTTPNetwork {
  /// A host as a URL writes it: an IPv6 address in brackets (`http://[::1]:8080`).
  public static func urlHost(_ host: String) -> String {
    host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
  }
}
