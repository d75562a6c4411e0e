import Foundation
import RegistrationCore

/// A device's field stories as a short answer, most important first: what was rejected and
/// why (with the fix), what still waits, what the SDK would never send, a contact orphaned,
/// the contact's other device that differs. The same text in the API, the receiver, `regctl`
/// and the MCP server.
public enum FieldExplanation {
  public static func sentences(
    _ fields: DeviceFieldStories,
    time: (Double) -> String = FieldExplanation.timeOfDay
  ) -> [String] {
    var rejected: [String] = []
    var waiting: [String] = []
    var notes: [String] = []
    for story in fields.fields {
      let told = Self.told(story, time: time)
      rejected += told.rejected
      waiting += told.waiting
      notes += told.notes
    }
    var answer = rejected + waiting + notes
    if let next = fields.nextSend { answer.append(capitalized(next) + ".") }
    if rejected.isEmpty && waiting.isEmpty {
      let count = fields.fields.count
      answer.insert(
        count == 0
          ? "The server holds no registration of device \(TerminalText.escaped(fields.deviceID)) to read fields from."
          : "Every field the app sent was accepted by processing (\(count) field\(count == 1 ? "" : "s") read from \(fields.registrationsRead) registration\(fields.registrationsRead == 1 ? "" : "s")).",
        at: 0)
    }
    return answer
  }

  /// One field's part of the answer, most important first: the receiver's story of a single
  /// field opens with it.
  public static func sentences(
    _ story: FieldStory, time: (Double) -> String = FieldExplanation.timeOfDay
  ) -> [String] {
    let told = Self.told(story, time: time)
    return told.rejected + told.waiting + told.notes
  }

  /// What one field says: a change rejected (with its fix), a change still waiting, and what
  /// is worth knowing besides.
  static func told(_ story: FieldStory, time: (Double) -> String)
    -> (rejected: [String], waiting: [String], notes: [String])
  {
    var rejected: [String] = []
    var waiting: [String] = []
    var notes: [String] = []
    if let latest = story.latest {
      let sent = label(story, latest)
      let holds = holding(story)
      // What the contact holds already did arrive: only a change that did not is news.
      let arrived: Bool
      switch story.kind {
      case .attribute: arrived = story.holds == heldForm(story, latest)
      case .tag: arrived = (latest.value == "added") == (story.holds != nil)
      // No key sent has nothing to lose: the server makes a contact up for it (S3).
      case .contactKey: arrived = latest.value == nil || story.holds == latest.value
      }
      switch latest.outcome {
      case .rejected where arrived, .waiting where arrived:
        break
      case .rejected:
        rejected.append(
          "\(sent) (\(time(latest.at))) was \(rejectedWhy(latest.why)); \(holds). Fix: \(fix(latest.undefinedAttributes))."
        )
      case .waiting:
        // A registration processing will refuse (an undefined attribute) has its fix now.
        let fix = latest.undefinedAttributes.map { " Fix: \(Self.fix($0))." } ?? ""
        waiting.append(
          "\(sent) (\(time(latest.at))) is \(latest.why ?? "waiting for processing"): not on the contact yet; \(holds).\(fix)"
        )
      case .accepted:
        if latest.value == nil, story.kind == .attribute {
          notes.append("\(story.name) is no longer sent (\(time(latest.at))); \(holds).")
        }
      }
      notes += story.notes.map { capitalized($0) + "." }
    }
    return (rejected, waiting, notes)
  }

  /// How `holds` would read if the contact held the event's value.
  static func heldForm(_ story: FieldStory, _ event: FieldStory.Event) -> String? {
    switch story.kind {
    case .attribute: event.value.flatMap { $0.isEmpty ? nil : "\(story.name)=\($0)" }
    case .tag: event.value == "added" ? "the tag" : nil
    case .contactKey: event.value
    }
  }

  /// "18:12:12", in UTC: the day is the one the device was seen.
  public static func timeOfDay(_ seconds: Double) -> String {
    let stamp = DateText.utcStamp(Date(timeIntervalSince1970: seconds))
    guard let t = stamp.firstIndex(of: "T") else { return stamp }
    return String(stamp[stamp.index(after: t)...].prefix(8)) + " UTC"
  }

  /// "FirstName=Bob", "tag sports added", "contact key \"ada\"".
  static func label(_ story: FieldStory, _ event: FieldStory.Event) -> String {
    switch story.kind {
    case .attribute: event.value.map { "\(story.name)=\($0)" } ?? story.name
    case .tag: "tag \(story.name) \(event.value ?? "")"
    case .contactKey: event.value.map { "contact key \"\($0)\"" } ?? "no contact key"
    }
  }

  /// What the contact holds for the field now, in words.
  static func holding(_ story: FieldStory) -> String {
    switch story.kind {
    case .attribute:
      story.holds.map { "the contact still has \($0)" } ?? "the contact has no \(story.name)"
    case .tag: story.holds == nil ? "the contact does not have the tag" : "the contact has the tag"
    case .contactKey:
      story.holds.map { "the device is in contact \"\($0)\"" } ?? "the device is in no contact yet"
    }
  }

  static func rejectedWhy(_ why: String?) -> String {
    guard let why else { return "rejected" }
    return why.hasPrefix("rejected") ? why : "rejected: \(why)"
  }

  /// The fix a rejection calls for: the undefined attributes named, when those were why.
  static func fix(_ undefined: [String]?) -> String {
    guard let undefined, !undefined.isEmpty else {
      return "correct what the reason names, then make a change in the app so it registers again"
    }
    return
      "add \(undefined.joined(separator: ", ")) to the demographics table (regctl: server define-attribute NAME), or stop sending it"
  }

  private static func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }
}
