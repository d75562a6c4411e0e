import Dispatch
import Session
import SessionValues
import SystemCalls

/// Waits for SIGINT or SIGTERM, so a long-running command can stop cleanly.
enum TerminationSignal {
  /// Takes over SIGINT and SIGTERM at once, before the work they stop begins: a signal
  /// between starting the work and a later `wait()` would end the process with nothing
  /// written. The stream yields each signal; cancel the sources when done.
  static func watch() -> (signals: AsyncStream<Int32>, sources: [any DispatchSourceSignal]) {
    let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
    let sources = [SystemCalls.Signal.interrupt, .terminate].map { signal in
      let number = SystemCalls.takeOver(signal)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { continuation.yield(number) }
      source.resume()
      return source
    }
    return (signals, sources)
  }

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
