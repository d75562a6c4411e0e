import Foundation
import RegistrationCore

/// Why a capture cannot be read.
public struct HARError: Error, Sendable, CustomStringConvertible {
  public enum Kind: Sendable { case unreadable, notJSON, notHAR, tooDeep, tooLarge }
  public var kind: Kind
  public var message: String
  /// The file (or document) it is about, shown escaped.
  public var file: String?

  public init(_ kind: Kind, _ message: String, file: String? = nil) {
    self.kind = kind
    self.message = message
    self.file = file
  }

  public var description: String {
    let what =
      switch kind {
      case .notJSON, .tooDeep: "not JSON: \(message)"
      default: message
      }
    return file.map { "\(TerminalText.escaped($0)): \(what)" } ?? what
  }
}
