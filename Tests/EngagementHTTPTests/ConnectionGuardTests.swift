import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import EngagementHTTP

/// The connection's guards in virtual time: an embedded channel whose loop's clock the test
/// moves, so the idle limit and the body's progress are checked without waiting for them.
@Suite("the connection's guards, in virtual time")
struct ConnectionGuardTests {
  static let limits: ConnectionLimits = {
    var limits = ConnectionLimits()
    limits.idle = .seconds(1)
    limits.bodyProgress = .seconds(1)
    return limits
  }()

  static func guarded() throws -> (EmbeddedEventLoop, EmbeddedChannel) {
    let loop = EmbeddedEventLoop()
    let channel = EmbeddedChannel(loop: loop)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    let guards = ConnectionGuards(connections: ConnectionCount(), limits: limits)
    try channel.pipeline.syncOperations.addHandler(guards.handler())
    return (loop, channel)
  }

  static let head = HTTPServerRequestPart.head(
    HTTPRequestHead(version: .http1_1, method: .POST, uri: "/device/v1/registration"))

  @Test("busy past the idle limit the connection is kept; quiet for it, it is closed")
  func idle() throws {
    let (loop, channel) = try Self.guarded()
    // Seven requests 0.3 s apart: 2.1 s on the connection, never quiet for 1 s.
    for _ in 0..<7 {
      loop.advanceTime(by: .milliseconds(300))
      try channel.writeInbound(Self.head)
      try channel.writeInbound(HTTPServerRequestPart.end(nil))
      try channel.writeOutbound(HTTPServerResponsePart.end(nil))
      #expect(channel.isActive)
    }
    loop.advanceTime(by: .milliseconds(990))
    #expect(channel.isActive)
    loop.advanceTime(by: .milliseconds(20))
    #expect(!channel.isActive)
  }

  @Test("a body that stops after the request before it was answered is cut")
  func stalledAfterAnswered() throws {
    let (loop, channel) = try Self.guarded()
    try channel.writeInbound(Self.head)
    try channel.writeInbound(HTTPServerRequestPart.end(nil))
    // The next request starts its body; then the first one's answer goes out.
    try channel.writeInbound(Self.head)
    try channel.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: "{\"dev")))
    try channel.writeOutbound(HTTPServerResponsePart.end(nil))
    loop.advanceTime(by: .milliseconds(990))
    #expect(channel.isActive)
    loop.advanceTime(by: .milliseconds(20))
    #expect(!channel.isActive)
  }
}
