import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import Session
import SessionValues
import TestSupport
import Testing

@testable import InspectorUI

/// The receiver's screen as it shows `watch` at `now`: the model after one pushed snapshot.
func receiverModel(
  _ watch: DeviceWatch, now: Double, width: Int = 120, title: String = "app ← real apps",
  receivingAt: String? = nil, notice: String? = nil
) -> InspectorModel {
  var model = InspectorModel(width: width, height: 40, title: title, receivingAt: receivingAt)
  model.timeStyle = .elapsed
  _ = Inspector.update(
    &model,
    .snapshot(
      .receiver(
        .init(
          server: nil, watched: Array(watch.devices.values.sorted { $0.lastSeen > $1.lastSeen }),
          notice: notice, now: Instant(now)))))
  return model
}

@Suite("the receiver layout")
struct ReceiverViewTests {
  static func body(_ device: String, tags: [String]) -> String {
    #"{"deviceID":"\#(device)","etAppId":"app","platform":"iOS","tags":[\#(tags.map { "\"\($0)\"" }.joined(separator: ","))]}"#
  }

  /// Records one accepted registration of `device` (no User-Agent) in `watch`.
  static func register(_ watch: inout DeviceWatch, _ device: String, tags: [String], at: Double)
    throws
  {
    let text = body(device, tags: tags)
    let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(text.utf8))
    _ = watch.record(
      ReceivedRegistration(
        deviceID: device, payload: payload, body: Array(text.utf8), facts: RequestFacts(),
        at: Instant(at), status: 201, retryAfter: nil,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
  }

  /// Two devices: an iOS app that kept to the rules, and a client whose User-Agent is not a
  /// shipped SDK's (so held to the documented contract) that retried at once after a 503.
  static func model() throws -> InspectorModel {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    let ios = "MarketingCloudSdk/10.0.0 (iOS 17.5; en_US; Apple/iPhone15,2) com.example.app/1.0.0"
    let steps: [(String, Double, [String], Int, String)] = [
      ("GOOD", 0, ["a"], 201, ios), ("GOOD", 61, ["a", "b"], 201, ios),
      ("EAGER", 100, ["x"], 503, "okhttp/4.12"), ("EAGER", 101, ["x"], 201, "okhttp/4.12"),
    ]
    for (device, at, tags, status, userAgent) in steps {
      let text = body(device, tags: tags)
      let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(text.utf8))
      _ = watch.record(
        ReceivedRegistration(
          deviceID: device, payload: payload, body: Array(text.utf8),
          facts: RequestFacts(userAgent: userAgent), at: Instant(at), status: status,
          retryAfter: nil,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    }
    return receiverModel(watch, now: 110)
  }

  @Test("first contact: a refused app is listed with the reason and the fix; --any-app says so")
  func refused() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    let body = Self.body("PIXEL-8", tags: ["ALL"])
    let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8))
    let facts = RequestFacts(
      userAgent: "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0")
    _ = watch.recordRefusal(
      Refusal(
        kind: .unauthorized, status: 401, reason: "the bearer token is not this app's",
        payload: payload), facts: facts, at: Instant(5))
    // A body that named no device: a stand-in for its client.
    _ = watch.recordRefusal(
      Refusal(kind: .invalidBody, status: 400, reason: "the body is not JSON"), facts: facts,
      at: Instant(6))
    var model = receiverModel(
      watch, now: 10, width: 140, title: "any app ← real apps",
      notice: "--any-app: the first registration's app id and token become this app's")
    var text = Inspector.view(model).text
    #expect(!text.contains("no app has registered yet"))
    #expect(text.contains("--any-app: the first registration's app id"))
    #expect(text.contains("? com.example.app (Android)") && text.contains("1 violation"))
    _ = Inspector.update(&model, .key(.down))
    text = Inspector.view(model).text
    #expect(text.contains("> PIXEL-8") && text.contains("1 warning"))
    #expect(text.contains("refused 1x (401): the bearer token is"))
    #expect(text.contains("refused") && text.contains("S1"))
    // The fix is read whole in the Findings pane, wrapped.
    #expect(text.contains("--any-app"))
  }

  @Test("the device list scrolls with the selection; the marker stays on screen, with where it is")
  func scrolls() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    for index in 0..<40 {
      try Self.register(&watch, "dev-\(index)", tags: ["ALL"], at: Double(index))
    }
    var model = receiverModel(watch, now: 100, receivingAt: "http://127.0.0.1:8080")
    var text = Inspector.view(model).text
    #expect(text.contains("> dev-39") && text.contains("1-12 of 40 devices"), "\(text)")
    for _ in 0..<25 { _ = Inspector.update(&model, .key(.down)) }
    text = Inspector.view(model).text
    #expect(text.contains("> dev-14"), "\(text)")
    #expect(text.contains("of 40 devices") && !text.contains("1-12 of 40"))
    for _ in 0..<100 { _ = Inspector.update(&model, .key(.down)) }
    text = Inspector.view(model).text
    #expect(text.contains("> dev-0 ") && text.contains("-40 of 40 devices"))
  }

  @Test("the device shown stays chosen, by id, when a registration re-sorts the list under it")
  func selectionFollowsTheDevice() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    for (index, id) in ["dev-a", "dev-b", "dev-c"].enumerated() {
      try Self.register(&watch, id, tags: ["ALL"], at: Double(index))
    }
    func push(_ now: Double, into model: inout InspectorModel) {
      let watched = watch.devices.values.sorted { $0.lastSeen > $1.lastSeen }
      _ = Inspector.update(
        &model,
        .snapshot(.receiver(.init(server: nil, watched: watched, notice: nil, now: Instant(now)))))
    }
    // The newest first: dev-c is shown chosen, though no key was pressed.
    var model = receiverModel(watch, now: 10)
    #expect(Inspector.view(model).text.contains("> dev-c"))
    // dev-b registers again and moves to the top: the cursor stays on dev-c.
    try Self.register(&watch, "dev-b", tags: ["ALL", "news"], at: 20)
    push(20, into: &model)
    #expect(model.selectedDevice?.deviceID == "dev-c")
    #expect(Inspector.view(model).text.contains("> dev-c"))
    // j is the device below dev-c as the list now stands (dev-b, dev-c, dev-a).
    _ = Inspector.update(&model, .key(.character("j")))
    #expect(model.selectedDevice?.deviceID == "dev-a")
    // Chosen by a key, it is held as well: dev-a registering moves it, and the cursor with it.
    try Self.register(&watch, "dev-a", tags: ["ALL", "news"], at: 30)
    push(30, into: &model)
    #expect(model.selectedDevice?.deviceID == "dev-a")
    _ = Inspector.update(&model, .key(.character("j")))
    #expect(model.selectedDevice?.deviceID == "dev-b")
  }

  @Test("a long timeline and many findings say where they are; Page Up goes back through them")
  func timelineScrolls() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    for index in 0..<30 {
      try Self.register(&watch, "HAMMER", tags: ["t\(index)"], at: Double(index))
    }
    var model = receiverModel(watch, now: 40, receivingAt: "http://127.0.0.1:8080")
    var text = Inspector.view(model).text
    // The newest at the bottom of the timeline; the newest findings first.
    #expect(text.contains("21-33 of 33 lines"), "\(text)")
    // The rules the device is judged by end its timeline.
    #expect(text.contains("judged by the documented rules (not a shipped SDK)"), "\(text)")
    _ = Inspector.update(&model, .key(.character("2")))
    _ = Inspector.update(&model, .key(.pageUp))
    text = Inspector.view(model).text
    #expect(text.contains("9-21 of 33 lines"), "\(text)")
    _ = Inspector.update(&model, .key(.pageDown))
    #expect(Inspector.view(model).text.contains("21-33 of 33 lines"))
  }

  @Test("a timeline row says what changed, in regctl judge's words, wrapped and never cut at 80")
  func timelineSaysWhatChanged() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try Self.register(&watch, "PHONE", tags: ["ALL"], at: 0)
    try Self.register(&watch, "PHONE", tags: ["ALL", "sports"], at: 61)
    let long = (1...6).map { "team-number-\($0)" }
    try Self.register(&watch, "PHONE", tags: ["ALL", "sports"] + long, at: 122)
    let device = try #require(watch.devices["PHONE"])
    for width in [120, 80] {
      var model = receiverModel(watch, now: 130, width: width)
      model.height = width == 80 ? 24 : 40
      let lines = ReceiverPanes.lines(
        .timeline, model, width: model.receiverRects[.timeline]!.inner.width
      )
      .map { $0.map(\.0).joined() }
      let text = lines.joined(separator: "\n")
      // The row of the 2nd registration: its interval, answer and change, as judge says it.
      let sports = try #require(CaptureText.changed(device.registrations[1]))
      #expect(sports == "+ tags sports")
      #expect(lines.contains { $0.contains("+1 min 1 s") && $0.hasSuffix(sports) }, "\(text)")
      #expect(text.contains("first registration"), "\(text)")
      // The long change goes on over the rows under it, every tag whole.
      for tag in long { #expect(text.contains("+ tags " + tag), "\(width): \(text)") }
      #expect(!Inspector.view(model).text.contains("team-number-6…"))
    }
  }

  @Test(
    "every receiver pane takes focus (Tab, Shift-Tab, 1-4) and scrolls; g and G choose a device")
  func panesTakeFocus() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    for index in 0..<30 {
      try Self.register(&watch, "HAMMER", tags: ["t\(index)"], at: Double(index))
    }
    for index in 0..<20 { try Self.register(&watch, "dev-\(index)", tags: ["ALL"], at: 100) }
    var model = receiverModel(watch, now: 200, receivingAt: "http://127.0.0.1:8080")
    #expect(model.receiver.focus == .devices)
    for (key, pane) in [
      (Key.tab, ReceiverScreen.Pane.timeline), (.tab, .findings), (.tab, .body), (.tab, .devices),
      (.backTab, .body), (.character("3"), .findings), (.character("1"), .devices),
    ] {
      _ = Inspector.update(&model, .key(key))
      #expect(model.receiver.focus == pane, "\(key)")
    }
    // g and G move the choice, and the list shows it.
    _ = Inspector.update(&model, .key(.character("G")))
    let last = try #require(model.watched?.last?.deviceID)
    #expect(model.selectedDevice?.deviceID == last)
    #expect(Inspector.view(model).text.contains("> \(last)"))
    _ = Inspector.update(&model, .key(.character("g")))
    let first = try #require(model.watched?.first?.deviceID)
    #expect(model.selectedDevice?.deviceID == first)
    #expect(Inspector.view(model).text.contains("> \(first)"))
    // Choose the device with many findings, then scroll the Findings pane.
    while model.selectedDevice?.deviceID != "HAMMER" { _ = Inspector.update(&model, .key(.down)) }
    _ = Inspector.update(&model, .key(.character("3")))
    var text = Inspector.view(model).text
    let findingsLines = ReceiverPanes.lines(.findings, model, width: 74).count
    #expect(findingsLines > 10)
    let before = text
    _ = Inspector.update(&model, .key(.pageDown))
    text = Inspector.view(model).text
    #expect(text != before, "Page Down moves the Findings pane")
    _ = Inspector.update(&model, .key(.character("G")))
    text = Inspector.view(model).text
    #expect(text.contains("of \(findingsLines) lines"), "\(text)")
    #expect(model.selectedDevice?.deviceID == "HAMMER", "G in Findings leaves the device chosen")
    _ = Inspector.update(&model, .key(.character("g")))
    #expect(model.receiver.view(.findings).first == nil)
  }

  @Test("the QA checklist scrolls from its step, and its top stays shown once reached")
  func qaChecklistScrolls() throws {
    var model = InspectorModel(
      width: 120, height: 40, title: "app ← real apps", receivingAt: "http://127.0.0.1:8080")
    var checklist = QAChecklist(
      plan: "long", items: (1...40).map { QAChecklist.Item(summary: "step \($0)") })
    checklist.current = 30
    _ = Inspector.update(&model, .qa(checklist))
    _ = Inspector.update(&model, .key(.character("4")))
    let rect = try #require(ReceiverScreen.rects(width: 120, height: 40)[.body])
    func first() -> Int {
      let count = ReceiverPanes.lines(.body, model, width: rect.inner.width).count
      return ReceiverPanes.start(.body, model, count: count, rect: rect)
    }
    let atStep = first()
    #expect(atStep > 5, "it opens at the step under way")
    _ = Inspector.update(&model, .key(.up))
    #expect(first() == atStep - 1, "one line up from the step, not a jump to the top")
    _ = Inspector.update(&model, .key(.character("g")))
    #expect(first() == 0)
    _ = Inspector.update(&model, .key(.up))
    #expect(first() == 0, "the top stays shown")
    _ = Inspector.update(&model, .key(.character("]")))
    #expect(first() > 0, "opening a step follows it again")
  }

  @Test(
    "while no app has registered, the list says where to point it and the demo app's id and token, whole"
  )
  func emptyListSaysTheApp() {
    var model = InspectorModel(
      width: 120, height: 40,
      title:
        "receiving on http://127.0.0.1:8080 · demo app 0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b, token demo-access-token-012345",
      receivingAt: "http://127.0.0.1:8080")
    model.receivingApp = [
      "with the demo app's id and token:", "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b",
      "demo-access-token-012345",
    ]
    let text = Inspector.view(model).text
    // The title goes on under the clock rather than being cut.
    #expect(model.headerRows == 2)
    let header = text.split(separator: "\n").prefix(2).joined(separator: "\n")
    #expect(header.contains("receiving on http://127.0.0.1:8080"), "\(header)")
    #expect(header.contains("token demo-access-token-012345") && !header.contains("…"), "\(header)")
    #expect(text.contains("  0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"))
    #expect(text.contains("  demo-access-token-012345"))
  }

  @Test("? on the receiver lists only the keys that work there")
  func helpListsWorkingKeys() throws {
    var model = InspectorModel(
      width: 120, height: 40, title: "app ← real apps", receivingAt: "http://127.0.0.1:8080")
    let listed = KeyTable.help(on: model.screen, abilities: model.abilities)
    for binding in listed {
      for key in binding.keys where key != .character("q") && key != .character("?") {
        var copy = model
        _ = Inspector.update(&copy, .key(key))
        #expect(
          copy.flash?.isError != true || copy.flash?.text.contains("QA") == true,
          "\(key.label): \(copy.flash?.text ?? "")")
      }
    }
    let keys = Set(listed.flatMap(\.keys))
    for refused in ["a", "t", "c", "n", "R", "f", " ", "/", "5", "Q", "[", "]"] {
      #expect(!keys.contains(.character(Character(refused))), "\(refused) is listed")
    }
    _ = Inspector.update(&model, .key(.character("?")))
    let text = Inspector.view(model).text
    #expect(text.contains("1-4       Go to that pane") && !text.contains("Edit attributes"))
    #expect(!text.contains("tag add") && !text.contains("QA:"))
    // Every description is read whole at 120 columns: a long one goes on under itself.
    #expect(text.contains("arrive (or back)") && text.contains("fields to the"), "\(text)")
    #expect(!text.split(separator: "\n").contains { $0.contains("…") }, "\(text)")
    // With a QA plan running, its keys are listed, and work.
    var qa = model
    _ = Inspector.update(&qa, .key(.escape))
    _ = Inspector.update(&qa, .qa(QAChecklist(plan: "quick", items: [.init(summary: "s")])))
    #expect(
      KeyTable.help(on: qa.screen, abilities: qa.abilities).contains {
        $0.action(for: .character("Q")) == .qaChecklist
      })
  }

  @Test("real time: n, Space, + and - are refused with the reason; the status bar offers none")
  func realTime() throws {
    var model = InspectorModel(
      width: 120, height: 40, title: "app ← real apps", receivingAt: "http://127.0.0.1:8080")
    let bar = try #require(Inspector.view(model).text.split(separator: "\n").last)
    for hint in ["attrs", "tags", "contact key", "jump", "pause"] {
      #expect(!bar.contains(hint), "\(hint) in \(bar)")
    }
    #expect(bar.contains("quit") && bar.contains("503x3"))
    for key in [Key.character("n"), .character(" "), .character("+"), .character("-")] {
      let effects = Inspector.update(&model, .key(key))
      #expect(effects.isEmpty, "\(key)")
      #expect(model.flash?.text.contains("real time") == true, "\(key)")
    }
    for key in [Key.character("a"), .character("t"), .character("c"), .character("R")] {
      #expect(Inspector.update(&model, .key(key)).isEmpty)
      #expect(model.flash?.text.contains("no simulated device") == true, "\(key)")
    }
    // A simulated device keeps every key.
    var device = InspectorModel(width: 120, height: 40, title: "app → local")
    #expect(Inspector.update(&device, .key(.character("n"))) == [.jumpToNextDeadline])
  }

  @Test("devices with their SDK and findings; the selected one's timeline, rule and countdown")
  func screen() throws {
    var model = try Self.model()
    var text = Inspector.view(model).text
    #expect(
      text.contains("Devices (2)") && text.contains("> EAGER") && text.contains("1 violation"))
    #expect(text.contains("iOS, unknown SDK (documented rules)") && text.contains("receiving"))
    #expect(text.contains("retryTooSoon") && text.contains("R4.1"))
    #expect(text.contains("next allowed in 51 s (R3.2: one a minute)"))
    _ = Inspector.update(&model, .key(.down))
    text = Inspector.view(model).text
    #expect(text.contains("> GOOD") && text.contains("Timeline · GOOD"))
    #expect(text.contains("iOS SDK 10.0.0") && !text.contains("iOS ios"))
    #expect(text.contains("none: this app keeps to the rules so far"))
    #expect(text.contains("+ tags b") && !text.contains("+ + tags"))
  }
}
