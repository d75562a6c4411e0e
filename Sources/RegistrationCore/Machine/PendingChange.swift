/// What a pending change touches. Changes to the same target coalesce into one entry, so the
/// queue stays as long as the number of distinct things edited, not the number of edits.
public struct ChangeTarget: Hashable, Sendable, Codable, CustomStringConvertible {
  public enum Kind: String, Sendable, Codable {
    case initial
    case contactKey
    case attribute
    case tag
    case device
  }

  public var kind: Kind
  /// The attribute key, tag, or device field's wire name; empty for `initial` and `contactKey`.
  public var name: String

  public init(_ kind: Kind, _ name: String = "") {
    self.kind = kind
    self.name = name
  }

  public static let initial = ChangeTarget(.initial)
  public static let contactKey = ChangeTarget(.contactKey)

  public var description: String {
    switch kind {
    case .initial: "initial registration"
    case .contactKey: "contact key"
    case .attribute: "attribute \(name)"
    case .tag: "tag \(name)"
    case .device: "device \(name)"
    }
  }
}

/// One entry of the queue of changes not yet acknowledged by the server (R3.3).
public struct PendingChange: Hashable, Sendable, Codable {
  /// The sequence number of the newest edit folded into this entry. A send carries every
  /// entry whose `seq` it saw; an entry edited again while the send is in flight gets a newer
  /// `seq` and so stays for the next send.
  public var seq: Int
  public var target: ChangeTarget
  /// When this target first changed in the current window (the window opens at the first).
  public var firstAt: Instant
  public var lastAt: Instant
  /// What the next registration will carry for it, in words: `CODE = "FREE99"`.
  public var summary: String

  public init(seq: Int, target: ChangeTarget, firstAt: Instant, lastAt: Instant, summary: String) {
    self.seq = seq
    self.target = target
    self.firstAt = firstAt
    self.lastAt = lastAt
    self.summary = summary
  }
}
