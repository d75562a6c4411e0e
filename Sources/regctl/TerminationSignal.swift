import Dispatch
import Session
import SessionValues

#if canImport(Glibc)
  import Glibc
#endif

/// Waits for SIGINT or SIGTERM, so a long-running command can stop cleanly.
enum TerminationSignal {
  static func wait() async -> Int32 {
    let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { continuation.yield(number) }
      source.resume()
      sources.append(source)
    }
    defer { for source in sources { source.cancel() } }
    for await number in signals { return number }
    return SIGTERM
  }
}
