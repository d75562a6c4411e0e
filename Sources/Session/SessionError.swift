import EngagementCore
import RegistrationCore
import SessionValues

public enum SessionError: Error, CustomStringConvertible {
  case notLaunched(String)
  case noLocalServer(String)
  case notVirtual
  case readOnly(String)
  case captured(String)
  case noNetwork
  case noDevice(String)
  /// A receiver asked to listen off loopback with the demo app's public token: anyone on the
  /// network could register, inject faults and define demographics with it.
  case publicTokenOffLoopback(host: String)

  public var description: String {
    switch self {
    case .captured(let source):
      "\(source) is a capture and is read-only: change the app, capture again, and judge that"
    case .readOnly(let source):
      "the device was imported from \(source) and is read-only: edit the app, then dump it again"
    case .notLaunched(let command): "\(command): the app has not launched yet; add `launch` first"
    case .noLocalServer(let command):
      "\(command): server commands drive the local server, and this session talks to a remote one"
    case .notVirtual: "time can only be advanced by hand on a virtual clock"
    case .noNetwork: "this session was opened without a network: it can only run in process"
    case .publicTokenOffLoopback(let host):
      "a receiver on \(TerminalText.clipped(host)) lets the network in, and the demo app's token is public: give the app's own token, or listen on 127.0.0.1"
    case .noDevice(let command):
      "\(command): this session receives real apps; it has no device of its own to change"
    }
  }
}
