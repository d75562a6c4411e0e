import Dispatch
import Session
import SessionValues
import SystemCalls

/// Waits for SIGINT or SIGTERM, so a long-running command can stop cleanly.
enum TerminationSignal {
  static func wait() async -> Int32 {
    let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
    var sources: [any DispatchSourceSignal] = []
    for signal in [SystemCalls.Signal.interrupt, .terminate] {
      let number = SystemCalls.takeOver(signal)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { continuation.yield(number) }
      source.resume()
      sources.append(source)
    }
    defer { for source in sources { source.cancel() } }
    for await number in signals { return number }
    return SystemCalls.Signal.terminate.number
  }
}
