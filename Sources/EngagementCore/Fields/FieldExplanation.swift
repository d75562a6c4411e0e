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
      let told = Self.told(story, time: time, context: fields.fixContext)
      rejected += told.rejected
      waiting += Self.stillWaiting(told.waiting, story)
      notes += told.notes
    }
    var answer = Self.untaken(fields)
    // The tenant's own word, when it was asked, before RegScope's model of processing: a
    // model that accepted what the tenant does not hold must not read as "all arrived".
    let tenantDiffers = fields.readBack.map { $0.problem == nil && !$0.allHeld } ?? false
    if let readBack = fields.readBack { answer.append(capitalized(readBack.summary) + ".") }
    if fields.registrationsRead == 0 {
      answer.append(
        "The server holds no registration of device \(TerminalText.escaped(fields.deviceID)) to read fields from."
      )
    } else if fields.registrationsRejected == 0 && waiting.isEmpty && !tenantDiffers {
      let count = fields.fields.count
      answer.append(
        "Processing accepted every registration of this device it read (\(count) field\(count == 1 ? "" : "s") from \(fields.registrationsRead) registration\(fields.registrationsRead == 1 ? "" : "s"))."
      )
    }
    answer += Self.bounded(rejected + waiting, deviceID: fields.deviceID)
    answer += (fields.judgement?.findings ?? []).map(Self.sentence)
    answer += notes
    if let next = fields.nextSend { answer.append(capitalized(next) + ".") }
    return answer
  }

  /// Rejected and waiting values said one a sentence up to `sentencesTold`, then counted: an
  /// app that sends thousands of attributes gets an answer of a readable size, and the fields
  /// API lists each.
  public static let sentencesTold = 40

  static func bounded(_ sentences: [String], deviceID: String) -> [String] {
    guard sentences.count > sentencesTold else { return sentences }
    let more = sentences.count - sentencesTold
    return Array(sentences.prefix(sentencesTold)) + [
      "And \(NumberText.grouped(more)) more value\(more == 1 ? "" : "s") rejected or waiting, told the same way: GET /api/devices/\(TerminalText.escaped(deviceID))/fields (or W in the receiver) lists every field."
    ]
  }

  /// What never reached processing, first: requests refused (S1), and sends the server
  /// answered with a failure, when nothing was read or the newest was one of them.
  static func untaken(_ fields: DeviceFieldStories) -> [String] {
    guard let judgement = fields.judgement else { return [] }
    var answer: [String] = []
    let nothingRead = fields.registrationsRead == 0
    if judgement.refusedCount > 0, let refusal = judgement.refusal,
      nothingRead || judgement.newestRefused
    {
      let times = judgement.refusedCount == 1 ? "once" : "\(judgement.refusedCount) times"
      let status = judgement.refusalStatus.map { ", \($0)" } ?? ""
      answer.append(
        "The server refused this device's registration \(times) (S1\(status)), so no field arrived from those: \(refusal)."
      )
    }
    if judgement.failedSends > 0, nothingRead || judgement.newestFailed {
      let answered = judgement.failures.joined(separator: ", ")
      let failed = judgement.failedSends
      answer.append(
        failed == judgement.sends
          ? "The server answered \(answered) to \(failed == 1 ? "the one send" : "all \(failed) sends") of this device, so it took none of them: no field arrived from \(failed == 1 ? "it" : "them"); the SDK retries on its own (R4.1)."
          : "The newest send was answered \(answered) (\(failed) of \(judgement.sends) sends failed): its change is not on the server yet; the SDK retries on its own (R4.1)."
      )
    }
    return answer
  }

  /// A violation or warning of the device, as its finding says it, with the fix.
  static func sentence(_ found: DeviceJudgement.Found) -> String {
    let times = found.count == 1 ? "once" : "\(found.count) times"
    let rule = found.rule.map { ", \($0)" } ?? ""
    let message = found.message.map { ": \($0)" } ?? " (no longer in the timeline)"
    let fix = found.fix.map { " Fix: \($0)." } ?? ""
    return
      "\(capitalized(found.severity.rawValue)) \(found.code.rawValue) (\(times)\(rule))\(message).\(fix)"
  }

  /// One field's part of the answer, most important first: the receiver's story of a single
  /// field opens with it.
  public static func sentences(
    _ story: FieldStory, time: (Double) -> String = FieldExplanation.timeOfDay,
    context: FieldFixContext = FieldFixContext()
  ) -> [String] {
    let told = Self.told(story, time: time, context: context)
    return (story.tenant.map { tenantSentence($0, story, time: time) }.map { [$0] } ?? [])
      + told.rejected + stillWaiting(told.waiting, story) + told.notes
  }

  /// A relayed field the tenant has answered for waits for nothing RegScope's own model of
  /// processing says (its delay, S2): the tenant's word leads, and the model's is not said
  /// against it.
  static func stillWaiting(_ waiting: [String], _ story: FieldStory) -> [String] {
    story.tenant == nil ? waiting : []
  }

  /// What the tenant held of the field when last asked (`ReadBack`), first: its word is the
  /// one that counts when RegScope's model of processing says otherwise.
  static func tenantSentence(
    _ check: FieldStory.TenantCheck, _ story: FieldStory, time: (Double) -> String
  ) -> String {
    let asked = "The tenant, asked at \(time(check.askedAt)): \(check.word):"
    let sent = check.sent.map { "\"\($0)\"" } ?? "the value sent"
    switch check.verdict {
    case .heldAsSent:
      if let newer = check.heldFrom {
        return "\(asked) it holds \"\(check.held ?? "")\" as the newer #\(newer) sent it."
      }
      return "\(asked) it holds \(sent)."
    case .heldOther:
      let from =
        check.heldFrom.map { "sent by #\($0)" } ?? ReadBack.sentByNone
      return "\(asked) it holds \"\(check.held ?? "")\" (\(from)), not \(sent)."
    case .notArrived where story.kind == .contactKey:
      if let cause = check.cause {
        return "\(asked) no push address for this device under \(sent): \(cause)."
      }
      return "\(asked) no push address for this device under \(sent)."
    case .notArrived:
      return "\(asked) it holds no push address for this device, so not \(sent) either."
    case .notThere:
      return "\(asked) it holds the device's address with no value for it, though \(sent) was sent."
    case .notRead where check.addressFound:
      return
        "\(asked) it holds the device's address, but this value came in a shape RegScope does not read; nothing is said missing."
    case .notRead:
      return
        "\(asked) its answer could not be read where this device's address would be; nothing is said missing."
    }
  }

  /// What one field says: a change rejected (with its fix), a change still waiting, and what
  /// is worth knowing besides.
  static func told(
    _ story: FieldStory, time: (Double) -> String, context: FieldFixContext = FieldFixContext()
  )
    -> (rejected: [String], waiting: [String], notes: [String])
  {
    var rejected: [String] = []
    var waiting: [String] = []
    var notes: [String] = []
    if let latest = story.latest {
      let sent = label(story, latest)
      let holds = holding(story)
      let lost = Self.rejectedSince(story)
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
          "\(sent) (\(time(latest.at))) was \(rejectedWhy(latest.why)); \(holds). Fix: \(fix(latest, context))."
        )
      case .waiting:
        // A registration processing will refuse (an undefined attribute) has its fix now.
        let fix =
          latest.undefinedAttributes.map { _ in " Fix: \(Self.fix(latest, context))." } ?? ""
        waiting.append(
          "\(sent) (\(time(latest.at))) is \(latest.why ?? "waiting for processing"): not on the contact yet; \(holds).\(fix)"
        )
      case .accepted:
        if latest.value == nil, story.kind == .attribute, lost == nil {
          notes.append("\(story.name) is no longer sent (\(time(latest.at))); \(holds).")
        }
      }
      // A value rejected before the newest, and never taken since: still news, whatever
      // came after it (a rejected value is never left to read as accepted).
      if let earlier = lost, earlier.registrationID != latest.registrationID {
        rejected.append(
          "\(label(story, earlier)) (\(time(earlier.at))) was \(rejectedWhy(earlier.why)); since then \(since(story, latest, time: time)); \(holds). Fix: \(fix(earlier))."
        )
      }
      notes += story.notes.map { capitalized($0) + "." }
    }
    return (rejected, waiting, notes)
  }

  /// The newest rejected value the contact never took: no registration processing accepted
  /// carried it, before or after. An attribute or contact key not sent at all has no value to
  /// lose; a tag's removal does.
  static func rejectedSince(_ story: FieldStory) -> FieldStory.Event? {
    story.events.last { event in
      event.outcome == .rejected && (event.value != nil || story.kind == .tag)
        && !story.events.contains { $0.value == event.value && $0.outcome == .accepted }
        && story.holds != heldForm(story, event)
    }
  }

  /// What the app sent after a rejected value: "it is no longer sent", "Plan=silver was
  /// sent (10:02:00 UTC) and accepted".
  static func since(_ story: FieldStory, _ latest: FieldStory.Event, time: (Double) -> String)
    -> String
  {
    if latest.value == nil, story.kind == .attribute { return "it is no longer sent" }
    let outcome =
      switch latest.outcome {
      case .waiting: "waits for processing"
      case .rejected: "was rejected too"
      case .accepted: "was accepted"
      }
    return "\(label(story, latest)) was sent (\(time(latest.at))) and \(outcome)"
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
    case .contactKey where story.madeUp:
      story.holds.map {
        "the device is in a contact the server made up (\"\($0)\", S3), not one the app named"
      } ?? "the device is in no contact yet"
    case .contactKey:
      story.holds.map { "the device is in contact \"\($0)\"" } ?? "the device is in no contact yet"
    }
  }

  static func rejectedWhy(_ why: String?) -> String {
    guard let why else { return "rejected" }
    return why.hasPrefix("rejected") ? why : "rejected: \(why)"
  }

  /// The fix a rejection calls for: the undefined attributes named, when those were why.
  static func fix(_ event: FieldStory.Event, _ context: FieldFixContext = FieldFixContext())
    -> String
  {
    fix(event.undefinedAttributes, total: event.undefinedCount, context: context)
  }

  static func fix(
    _ undefined: [String]?, total: Int? = nil, context: FieldFixContext = FieldFixContext()
  ) -> String {
    guard let undefined, !undefined.isEmpty else {
      return "correct what the reason names, then make a change in the app so it registers again"
    }
    // A reserved word is no attribute to define: it belongs to the SDK (R2.5), this device's
    // SDK's own reserved words among them.
    let reserved = undefined.filter {
      InputRules.isReservedAttributeKey($0, alsoReserved: context.extraReserved)
    }
    if !reserved.isEmpty {
      let others = undefined.filter { !reserved.contains($0) }
      let more = (total ?? undefined.count) - undefined.count
      let rest =
        others.isEmpty
        ? (more > 0
          ? "; and define the other \(NumberText.grouped(more)), or stop sending them" : "")
        : "; and " + Self.fix(others, total: others.count + more, context: context)
      return FindingFix.reservedAttribute(reserved) + rest
    }
    let names = RegistrationVerdict.list(undefined, total: total ?? undefined.count)
    guard let set = context.tenantSet.map(TerminalText.escaped) else {
      return
        "add \(names) to the app's attribute set (on RegScope's server: --defined-attributes or PUT /api/demographics; on the tenant: MobilePush Demographics in Contact Builder), or stop sending it"
    }
    return
      "add \(names) to \(set) in Contact Builder (RegScope reads it again every 15 minutes, on D or POST /api/tenant/refresh), or stop sending it"
  }

  private static func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }
}
