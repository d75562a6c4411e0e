import Testing

@testable import RegistrationCore

@Suite("R2 input rules")
struct InputRulesTests {
  @Test("R2.1 contact key is trimmed; empty after trimming is refused")
  func contactKeyTrimAndEmpty() {
    var h = CoreHarness.launchedAndRegistered()
    #expect(h.edit(.setContactKey("  user.a@example.com \n")).isApplied)
    #expect(h.machine.state.record.contactKey == "user.a@example.com")
    for blank in ["", "   ", "\t\n"] {
      let outcome = h.edit(.setContactKey(blank))
      #expect(outcome.rejection?.rule == "R2.1")
    }
    #expect(h.machine.state.record.contactKey == "user.a@example.com")
  }

  @Test("R2.2 contact key of 100 characters is accepted, 101 refused (after trimming)")
  func contactKeyLength() {
    var h = CoreHarness.launchedAndRegistered()
    let hundred = String(repeating: "k", count: 99) + "z"
    #expect(h.edit(.setContactKey("  " + hundred + "  ")).isApplied)
    let outcome = h.edit(.setContactKey(hundred + "y"))
    #expect(outcome.rejection?.rule == "R2.2")
    #expect(outcome.rejection?.reason.contains("101") == true)
    #expect(h.machine.state.record.contactKey == hundred)
  }

  @Test("R2.3 contact key may change but never be cleared")
  func contactKeyNeverCleared() {
    var h = CoreHarness.launchedAndRegistered()
    #expect(h.edit(.clearContactKey).rejection?.rule == "R2.3")
    #expect(h.edit(.setContactKey("a@example.com")).isApplied)
    #expect(h.edit(.setContactKey("b@example.com")).isApplied)
    #expect(h.edit(.clearContactKey).rejection?.rule == "R2.3")
    #expect(h.machine.state.record.contactKey == "b@example.com")
  }

  @Test(
    "R2.4 generic contact keys are accepted with a warning",
    arguments: ["test", "USER", "null", "unknown", "Anonymous", "0", "aaaa", "1111111", "x"])
  func genericContactKey(key: String) {
    var h = CoreHarness.launchedAndRegistered()
    let outcome = h.edit(.setContactKey(key))
    #expect(outcome.isApplied)
    #expect(outcome.warnings.map(\.code).contains(.genericContactKey))
    #expect(h.warningCodes.contains(.genericContactKey))
  }

  @Test("R2.4 a unique contact key gets no generic warning")
  func uniqueContactKeyHasNoWarning() {
    var h = CoreHarness.launchedAndRegistered()
    #expect(
      !h.edit(.setContactKey("cust-000482")).warnings.map(\.code).contains(.genericContactKey))
  }

  @Test(
    "R2.5 every reserved attribute key is refused, case-insensitively",
    arguments: InputRules.reservedAttributeKeys)
  func reservedWords(word: String) {
    var h = CoreHarness.launchedAndRegistered()
    for spelling in [word, word.uppercased(), word.lowercased(), " \(word) "] {
      let outcome = h.edit(.setAttribute(key: spelling, value: "x"))
      #expect(outcome.rejection?.rule == "R2.5", "\(spelling) should be refused")
    }
    #expect(h.machine.state.record.attributes.isEmpty)
  }

  @Test("R2.5 the reserved list has all 46 words")
  func reservedWordCount() {
    #expect(InputRules.reservedAttributeKeys.count == 46)
    #expect(Set(InputRules.reservedAttributeKeys.map { $0.lowercased() }).count == 46)
  }

  @Test("R2.5 attribute key: trimmed, empty refused, 128 characters accepted, 129 refused")
  func attributeKeyRules() {
    var h = CoreHarness.launchedAndRegistered()
    #expect(h.edit(.setAttribute(key: "  CODE  ", value: "FREE99")).isApplied)
    #expect(h.machine.state.record.attributes["CODE"] == "FREE99")
    #expect(h.edit(.setAttribute(key: "  ", value: "x")).rejection?.rule == "R2.5")
    let long = String(repeating: "a", count: 127) + "b"
    #expect(h.edit(.setAttribute(key: long, value: "x")).isApplied)
    #expect(h.edit(.setAttribute(key: long + "c", value: "x")).rejection?.rule == "R2.5")
  }

  @Test("R2.6 attribute value: null refused, trimmed, empty allowed")
  func attributeValueRules() {
    var h = CoreHarness.launchedAndRegistered()
    #expect(h.edit(.setAttribute(key: "CODE", value: nil)).rejection?.rule == "R2.6")
    #expect(h.edit(.setAttribute(key: "CODE", value: "  FREE99 ")).isApplied)
    #expect(h.machine.state.record.attributes["CODE"] == "FREE99")
    #expect(h.edit(.setAttribute(key: "CODE", value: "")).isApplied)
    #expect(h.machine.state.record.attributes["CODE"] == "")
  }

  @Test("R2.6 clearing removes the attribute and sends it once with an empty value")
  func attributeClearSendsEmptyOnce() {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.setAttribute(key: "CODE", value: "FREE99"), at: 1)
    h.advance(to: 61)
    #expect(h.lastPayload?.attributes == [.init(key: "CODE", value: "FREE99")])
    h.edit(.clearAttribute(key: "CODE"), at: 100)
    #expect(h.machine.state.record.attributes["CODE"] == nil)
    h.advance(to: 160)
    #expect(h.lastPayload?.attributes == [.init(key: "CODE", value: "")])
    // Once acknowledged, the clear is forgotten: the next registration omits the key.
    h.edit(.addTag("sports"), at: 200)
    h.advance(to: 260)
    #expect(h.lastPayload?.attributes == [])
    #expect(h.sentCount == 4)
  }

  @Test("R2.7 tags: trimmed, empty refused; SDK tags present and locked")
  func tagRules() {
    var h = CoreHarness.launchedAndRegistered(settings: CoreHarness.settings(debug: true))
    #expect(h.edit(.addTag("  sports ")).isApplied)
    #expect(h.machine.state.record.tags == ["sports"])
    #expect(h.edit(.addTag(" ")).rejection?.rule == "R2.7")
    for locked in ["ALL", "IOS", "DEBUG"] {
      #expect(h.edit(.removeTag(locked)).rejection?.rule == "R2.7")
    }
    h.advance(to: 60)
    #expect(h.lastPayload?.tags == ["ALL", "DEBUG", "IOS", "sports"])
  }

  @Test("R2.7 Android's platform tag; no DEBUG tag in a release build")
  func androidTags() {
    var h = CoreHarness.launchedAndRegistered(settings: CoreHarness.settings(platform: .android))
    #expect(h.lastPayload?.tags == ["ALL", "Android"])
    #expect(h.edit(.removeTag("Android")).rejection?.rule == "R2.7")
  }

  @Test("R2.8 a refused input changes nothing, schedules nothing, and emits inputRejected")
  func refusalChangesNothing() {
    var h = CoreHarness.launchedAndRegistered()
    let before = h.machine.state
    let eventCount = h.events.count
    let outcome = h.edit(.setAttribute(key: "platform", value: "x"))
    #expect(outcome.rejection != nil)
    #expect(h.machine.state == before)
    #expect(h.machine.nextDeadline == nil)
    let newEvents = h.events.dropFirst(eventCount).map(\.event)
    #expect(newEvents == [.inputRejected(outcome.rejection!)])
  }

  @Test("R2.9 an edit that changes nothing schedules nothing")
  func noOpEdits() {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.setAttribute(key: "CODE", value: "A"), at: 1)
    h.edit(.addTag("sports"))
    h.edit(.setContactKey("k-1"))
    h.advance(to: 61)
    #expect(h.sentCount == 2)
    let before = h.machine.state
    #expect(h.edit(.setAttribute(key: "CODE", value: " A ")).isUnchanged)
    #expect(h.edit(.addTag("sports")).isUnchanged)
    #expect(h.edit(.addTag("ALL")).isUnchanged)
    #expect(h.edit(.setContactKey("k-1")).isUnchanged)
    #expect(h.edit(.removeTag("absent")).isUnchanged)
    #expect(h.edit(.clearAttribute(key: "absent")).isUnchanged)
    #expect(h.edit(.setSystem(.timezone, "0")).isUnchanged)
    #expect(h.machine.state == before)
    #expect(h.machine.nextDeadline == nil)
  }

  @Test("R2.10 a background edit is accepted with a warning; a foreground one without")
  func backgroundEdit() {
    var h = CoreHarness.launchedAndRegistered()
    #expect(h.edit(.addTag("fg")).warnings.isEmpty)
    _ = h.machine.setAppState(.background, now: h.now)
    let outcome = h.edit(.addTag("bg"))
    #expect(outcome.isApplied)
    #expect(outcome.warnings.map(\.code) == [.backgroundEdit])
    #expect(h.machine.state.record.tags.contains("bg"))
  }

  @Test("R1.1 device fields: malformed values are refused with the field named")
  func systemFieldValidation() {
    var h = CoreHarness.launchedAndRegistered()
    #expect(h.edit(.setSystem(.timezone, "east")).rejection?.field == "timeZone")
    #expect(h.edit(.setSystem(.timezone, "90000")).rejection != nil)
    #expect(h.edit(.setSystem(.pushEnabled, "maybe")).rejection?.field == "push_Enabled")
    #expect(h.edit(.setSystem(.badge, "-1")).rejection?.field == "badge")
    #expect(h.edit(.setSystem(.timezone, "-14400")).isApplied)
    #expect(h.machine.state.record.device.environment.timeZone == -14400)
    var android = CoreHarness.launchedAndRegistered(
      settings: CoreHarness.settings(platform: .android))
    #expect(android.edit(.setSystem(.badge, "3")).rejection?.reason.contains("iOS only") == true)
  }

  @Test("whitespace is Unicode's, the ASCII shortcut included, and trimming keeps the rest")
  func whitespace() {
    let scalars =
      (0...0x7F).compactMap(Unicode.Scalar.init)
      + ["\u{85}", "\u{A0}", "\u{2003}", "\u{3000}", "é", "\u{200B}"]
    for scalar in scalars {
      #expect(
        InputRules.isWhitespace(scalar) == scalar.properties.isWhitespace,
        "U+\(String(scalar.value, radix: 16))")
    }
    #expect(InputRules.trimmed("\u{3000} a b\t\u{85}") == "a b")
    #expect(InputRules.trimmed("\u{1}x\u{1}") == "\u{1}x\u{1}")
  }
}
