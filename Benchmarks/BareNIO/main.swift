// The floor under the load figures: SwiftNIO's HTTP/1 server answering 201 from a channel
// handler, with no Hummingbird above it. `regctl serve` answers a plain registration this way
// (`RegistrationFastPath`); docs/testing.md compares the three.
import NIOCore
import NIOHTTP1
import NIOPosix

final class Answer: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart
  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .end = unwrapInboundIn(data) {
      var headers = HTTPHeaders()
      headers.add(name: "Content-Length", value: "0")
      context.write(
        wrapOutboundOut(
          .head(HTTPResponseHead(version: .http1_1, status: .created, headers: headers))),
        promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}
let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 18_083
let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
  .serverChannelOption(.backlog, value: 256)
  .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
  .childChannelInitializer { channel in
    channel.eventLoop.makeCompletedFuture {
      try channel.pipeline.syncOperations.configureHTTPServerPipeline()
      try channel.pipeline.syncOperations.addHandler(Answer())
    }
  }
let channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
try channel.closeFuture.wait()
