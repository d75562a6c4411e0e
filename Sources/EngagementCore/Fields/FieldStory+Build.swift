import Foundation
import RegistrationCore

extension DeviceFieldStories {
  /// The story of each field of `deviceID`, from its registrations the server still holds
  /// (oldest first). A value is an event when it changes, or when what the server did with it
  /// changes (rejected, then accepted in the next registration). Text from the app is escaped.
  public static func build(
    deviceID: String, registrations: [ServerRegistration], facts: FieldFacts,
    stamp: @escaping (Instant) -> String = { FieldExplanation.timeOfDay($0.seconds) }
  ) -> DeviceFieldStories {
    var builder = FieldStoryBuilder(facts: facts, stamp: stamp)
    for registration in registrations.sorted(by: { $0.id < $1.id }) {
      builder.add(registration)
    }
    var stories = DeviceFieldStories(
      deviceID: deviceID, registrationsRead: registrations.count,
      registrationsRejected: registrations.count { $0.status == .rejected },
      contactKey: facts.device?.contactKey, fields: builder.stories(),
      nextSend: facts.nextSend.map {
        "a change made now goes out at the earliest at \(stamp($0.at)) (\($0.rule): \($0.why))"
      })
    stories.fixContext = FieldFixContext(
      extraReserved: Array(facts.profile.extraReservedAttributeKeys),
      tenantSet: facts.demographicsSet)
    return stories
  }
}

/// Walks the registrations in order, keeping one story a field.
struct FieldStoryBuilder {
  let facts: FieldFacts
  let stamp: (Instant) -> String
  private var attributes: [String: [FieldStory.Event]] = [:]
  private var attributeOrder: [String] = []
  private var tags: [String: [FieldStory.Event]] = [:]
  private var tagOrder: [String] = []
  private var contactKey: [FieldStory.Event] = []

  init(facts: FieldFacts, stamp: @escaping (Instant) -> String) {
    self.facts = facts
    self.stamp = stamp
  }

  mutating func add(_ registration: ServerRegistration) {
    let payload = registration.payload
    // What processing did with the registration, worked out once: each of its thousands of
    // fields asks it, and asking processing again for each was quadratic.
    let verdict = RegistrationVerdict(registration, facts: facts, stamp: stamp)
    let event = { (value: String?, field: String?) in
      let (outcome, why, undefined) = verdict.outcome(attribute: field)
      return FieldStory.Event(
        at: registration.receivedAt.seconds, registrationID: registration.id,
        value: value.map(TerminalText.escaped), outcome: outcome, why: why,
        undefinedAttributes: undefined, undefinedCount: verdict.undefinedCount)
    }
    var sent: Set<String> = []
    var (attributeStories, attributeNames) = (attributes, attributeOrder)
    for attribute in payload.attributes ?? [] {
      sent.insert(attribute.key)
      Self.append(
        event(attribute.value, attribute.key), to: attribute.key, &attributeStories,
        &attributeNames)
    }
    (attributes, attributeOrder) = (attributeStories, attributeNames)
    for key in attributeOrder where !sent.contains(key) && attributes[key]?.last?.value != nil {
      // The record no longer carries it: processing keeps the value it had (R3.3 sends the
      // whole record; a cleared attribute rides with an empty value instead).
      var gone = event(nil, key)
      gone.why = [gone.why, "no longer sent: the contact keeps the value it had"]
        .compactMap { $0 }.joined(separator: "; ")
      attributes[key]?.append(gone)
    }
    let carried = Set(payload.tags ?? [])
    var (tagStories, tagNames) = (tags, tagOrder)
    for tag in payload.tags ?? [] {
      Self.append(event("added", nil), to: tag, &tagStories, &tagNames)
    }
    (tags, tagOrder) = (tagStories, tagNames)
    for tag in tagOrder where !carried.contains(tag) && tags[tag]?.last?.value == "added" {
      tags[tag]?.append(event("removed", nil))
    }
    let key = payload.subscriberKey.map(InputRules.trimmed).flatMap { $0.isEmpty ? nil : $0 }
    let keyEvent = event(key, nil)
    if Self.isNew(keyEvent, after: contactKey.last) { contactKey.append(keyEvent) }
  }

  /// An event is kept when the value or what became of it differs from the one before.
  private static func isNew(_ event: FieldStory.Event, after last: FieldStory.Event?) -> Bool {
    guard let last else { return true }
    return last.value != event.value || last.outcome != event.outcome
  }

  private static func append(
    _ event: FieldStory.Event, to name: String, _ stories: inout [String: [FieldStory.Event]],
    _ order: inout [String]
  ) {
    if stories[name] == nil { order.append(name) }
    if isNew(event, after: stories[name]?.last) { stories[name, default: []].append(event) }
  }

  func stories() -> [FieldStory] {
    let device = facts.device
    var result: [FieldStory] = []
    if !contactKey.isEmpty {
      result.append(
        FieldStory(
          kind: .contactKey, name: "contact key", events: contactKey,
          holds: device?.contactKey.map(TerminalText.escaped), notes: contactKeyNotes(),
          madeUp: facts.contactMadeUp))
    }
    for key in attributeOrder {
      let held = device?.attributes[key]
      result.append(
        FieldStory(
          kind: .attribute, name: TerminalText.escaped(key), events: attributes[key] ?? [],
          holds: held.map { "\(TerminalText.escaped(key))=\(TerminalText.escaped($0))" },
          notes: attributeNotes(key)))
    }
    for tag in tagOrder {
      let others = facts.otherDevices.filter {
        $0.tags.contains(tag) != (device?.tags.contains(tag) ?? false)
      }
      result.append(
        FieldStory(
          kind: .tag, name: TerminalText.escaped(tag), events: tags[tag] ?? [],
          holds: device?.tags.contains(tag) == true ? "the tag" : nil,
          notes: others.map {
            "the contact's other device \(TerminalText.escaped($0.deviceID)) \($0.tags.contains(tag) ? "has" : "has not") the tag"
          }))
    }
    return result
  }

  private func attributeNotes(_ key: String) -> [String] {
    var notes: [String] = []
    if InputRules.isReservedAttributeKey(
      key, alsoReserved: facts.profile.extraReservedAttributeKeys)
    {
      notes.append(
        "the key \(TerminalText.escaped(key)) is a reserved word (R2.5): a shipped SDK refuses to set it, so an app that sends it goes around the SDK"
      )
    }
    let mine = facts.device?.attributes[key]
    for other in facts.otherDevices where other.attributes[key] != mine {
      let value = other.attributes[key].map {
        "\(TerminalText.escaped(key))=\(TerminalText.escaped($0))"
      }
      notes.append(
        "the contact's other device \(TerminalText.escaped(other.deviceID)) has \(value ?? "no \(TerminalText.escaped(key))")"
      )
    }
    return notes
  }

  private func contactKeyNotes() -> [String] {
    var said: Set<String> = []
    let keys = contactKey.compactMap(\.value).dropLast().filter { said.insert($0).inserted }
    return keys.filter { facts.orphaned.contains($0) }.map {
      "contact \"\($0)\" was orphaned when the key changed: no device is left in it (R8.3)"
    }
  }
}
