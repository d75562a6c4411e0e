import RegistrationCore

extension HARScanner {
  /// The member names the scanner looks for, compared by their bytes (`ExactKey`), as the
  /// tenant and every other reading of a key compare them: never by Unicode equivalence.
  enum Names {
    static let log = ExactKey("log")
    static let entries = ExactKey("entries")
    static let started = ExactKey("startedDateTime")
    static let request = ExactKey("request")
    static let method = ExactKey("method")
    static let url = ExactKey("url")
  }
}
