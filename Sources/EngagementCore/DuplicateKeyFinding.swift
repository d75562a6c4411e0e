import RegistrationCore

extension Finding {
  /// A body that holds a key twice (R6.2: the registration object has each field once): read
  /// by each key's last value, as the tenant reads it (`WireDecoding`), and a violation, since
  /// no SDK writes one. One finding a body, naming every such key with its values: one body
  /// built wrongly is one mistake.
  public static func duplicateKeys(in payload: RegistrationPayload?) -> Finding? {
    guard let duplicates = payload?.duplicateKeys, !duplicates.isEmpty else { return nil }
    let keys = duplicates.map { duplicate in
      let times = duplicate.times == 2 ? "twice" : "\(NumberText.grouped(duplicate.times)) times"
      var values = duplicate.values.map(TerminalText.escaped)
      let left = duplicate.times - values.count
      if left > 0, let last = values.popLast() {
        values.append("\(NumberText.grouped(left)) more")
        values.append(last)
      }
      return
        "\(TerminalText.escaped(duplicate.key)) \(times) (\(values.joined(separator: ", then ")))"
    }
    let listed =
      keys.count == 1
      ? keys[0] : keys.dropLast().joined(separator: ", ") + " and " + (keys.last ?? "")
    return Finding(
      code: .duplicateKey, rule: "R6.2",
      message:
        "the body carries \(listed): read by the last value, as the tenant reads it; no SDK sends a key twice, so something outside the SDK built or changed this body",
      severity: .violation)
  }
}
