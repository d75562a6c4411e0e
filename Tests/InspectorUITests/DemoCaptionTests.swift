import InspectorUI
import RegistrationCore
import Scenarios
import Session
import SessionValues
import Testing

@Suite("a demo's caption area")
struct DemoCaptionTests {
  func model(width: Int = 120, height: Int = 40) -> InspectorModel {
    var model = InspectorModel(width: width, height: height, title: "demo")
    model.timeStyle = .elapsed
    model.demo = DemoCaptions(name: "orphan-shared-device", description: "A then B", steps: 4)
    return model
  }

  @Test("the current caption and the one before stay; checks and the end show in the box")
  func keeps() {
    var model = model()
    _ = Inspector.update(&model, .demo(.caption(step: 1, text: "User A logs in on a phone.")))
    _ = Inspector.update(&model, .demo(.caption(step: 2, text: "User B logs in: A is orphaned.")))
    _ = Inspector.update(
      &model,
      .demo(
        .checks(
          step: 3,
          [
            DemoCheck(text: "orphaned == 1", passed: true, actual: "orphaned = 1"),
            DemoCheck(text: "sent == 3", passed: false, actual: "sent = 2"),
          ])))
    // A notice in the status bar does not touch the caption.
    _ = Inspector.update(&model, .notice("tag added", isError: false))
    let text = Inspector.view(model).text
    #expect(text.contains("User B logs in: A is orphaned."))
    #expect(text.contains("User A logs in on a phone."))
    #expect(text.contains("✓ orphaned == 1"))
    #expect(text.contains("✗ sent == 3 (sent = 2)"))
    #expect(text.contains("Demo orphan-shared-device · step 3/4 · checks 1 ✓ 1 ✗"))
    _ = Inspector.update(&model, .demo(.finished(passed: 1, failed: 1, errors: 0)))
    #expect(Inspector.view(model).text.contains("· finished ·"))
  }

  @Test("a long caption wraps over two rows at 80 columns, and the panes still fit")
  func wraps() {
    var model = model(width: 80, height: 24)
    let caption =
      "The app registers before anyone logs in: the server invents a contact for this phone, and it counts for billing."
    _ = Inspector.update(&model, .demo(.caption(step: 1, text: caption)))
    let text = Inspector.view(model).text
    #expect(text.contains("The app registers before anyone logs in"))
    #expect(text.contains("counts for billing."))
    #expect(text.contains("1 Contact record"))
    #expect(text.split(separator: "\n").count == 24)
  }

  @Test("a caption says when it was true once the clock has walked on past its step")
  func saysWhenOnceOld() {
    var model = model()
    _ = Inspector.update(&model, .clock(now: Instant(60)))
    _ = Inspector.update(
      &model, .demo(.caption(step: 2, text: "It now waits 2 minutes.", at: Instant(60))))
    #expect(!Inspector.view(model).text.contains("At 0:01:00"))
    // Hours of retries later, the ladder shows 2 h: the caption is of then, and says so.
    _ = Inspector.update(&model, .clock(now: Instant(15_258)))
    let text = Inspector.view(model).text
    #expect(text.contains("At 0:01:00: It now waits 2 minutes."), "\(text)")
  }

  /// The caption area's rows: from its title down.
  static func captionArea(_ model: InspectorModel) -> String {
    Inspector.view(model).text.split(separator: "\n").drop { !$0.contains("─ Demo ") }
      .joined(separator: "\n")
  }

  static let words: [DemoCheck] = [
    DemoCheck(
      text: "server.distinctContacts == 1", passed: true, actual: "server.distinctContacts = 1",
      sentence: "the server holds 1 distinct contact"),
    DemoCheck(
      text: "sent == 3", passed: false, actual: "sent = 2", sentence: "3 registrations sent"),
  ]

  @Test("checks say in words what they prove; x shows the expressions, and back")
  func checksInWords() {
    var model = model()
    _ = Inspector.update(&model, .demo(.checks(step: 2, Self.words)))
    var text = Inspector.view(model).text
    #expect(text.contains("✓ the server holds 1 distinct contact"), "\(text)")
    #expect(text.contains("✗ 3 registrations sent (sent = 2)"))
    #expect(!text.contains("server.distinctContacts == 1"))
    #expect(text.contains("x expressions"))
    #expect(Inspector.update(&model, .key(.character("x"))).isEmpty)
    text = Inspector.view(model).text
    #expect(text.contains("✓ server.distinctContacts == 1"), "\(text)")
    #expect(text.contains("✗ sent == 3 (sent = 2)"))
    #expect(!text.contains("the server holds 1 distinct contact"))
    _ = Inspector.update(&model, .key(.character("x")))
    #expect(Inspector.view(model).text.contains("✓ the server holds 1 distinct contact"))
    // The key comes from the one table: the help lists it in a demo...
    _ = Inspector.update(&model, .key(.character("?")))
    #expect(Inspector.view(model).text.contains("Demo: show the checks as the scenario's"))
    // ...and anywhere else it is refused with the reason, and neither hinted nor listed.
    var plain = InspectorModel(width: 120, height: 40, title: "app → local")
    #expect(Inspector.update(&plain, .key(.character("x"))).isEmpty)
    #expect(plain.flash?.text.contains("no demo plays here") == true)
    #expect(!Inspector.view(plain).text.contains("x expressions"))
  }

  /// A step with more checks than one row holds.
  static let many: [DemoCheck] = (1...8).map { index in
    DemoCheck(
      text: "lastSent.tags has tag-\(index)", passed: index != 5,
      actual: "lastSent.tags = [ALL]",
      sentence: "the last one carried tag-number-\(index)")
  }

  @Test("many checks wrap over rows at 120x40 and are summed up, failures whole, at 80x24")
  func manyChecks() {
    var wide = model()
    _ = Inspector.update(&wide, .demo(.caption(step: 3, text: "Eight tags travel together.")))
    _ = Inspector.update(&wide, .demo(.checks(step: 3, Self.many)))
    let text = Inspector.view(wide).text
    for index in 1...8 {
      #expect(text.contains("tag-number-\(index)"), "check \(index) missing:\n\(text)")
    }
    #expect(text.contains("Eight tags travel together."))
    var small = model(width: 80, height: 24)
    _ = Inspector.update(&small, .demo(.caption(step: 3, text: "Eight tags travel together.")))
    _ = Inspector.update(&small, .demo(.checks(step: 3, Self.many)))
    let screen = Self.captionArea(small)
    #expect(screen.contains("✗ the last one carried tag-number-5"), "\(screen)")
    #expect(screen.contains("more held"), "\(screen)")
    #expect(!screen.contains("…"), "a check is cut:\n\(screen)")
    #expect(Inspector.view(small).text.split(separator: "\n").count == 24)
  }

  @Test(
    "the caption before is wrapped whole at any width, says when it was true, and shows at 80x24")
  func previousCaption() {
    let long =
      "User A logged out and User B logged in on the same phone. Once the server processes this, A has no phone left: unreachable, and still billed for as long as the contact stays."
    var wide = model(width: 140, height: 40)
    _ = Inspector.update(&wide, .clock(now: Instant(600)))
    _ = Inspector.update(&wide, .demo(.caption(step: 2, text: long, at: Instant(600))))
    _ = Inspector.update(&wide, .clock(now: Instant(1200)))
    _ = Inspector.update(
      &wide, .demo(.caption(step: 3, text: "A is orphaned.", at: Instant(1200))))
    let text = Self.captionArea(wide)
    #expect(text.contains("At 0:10:00: User A logged out"), "\(text)")
    #expect(text.contains("as long as the contact stays."), "\(text)")
    #expect(!text.contains("…"))
    var small = model(width: 80, height: 24)
    _ = Inspector.update(&small, .clock(now: Instant(600)))
    _ = Inspector.update(
      &small, .demo(.caption(step: 1, text: "User A logs in on a phone.", at: Instant(600))))
    _ = Inspector.update(&small, .clock(now: Instant(1200)))
    _ = Inspector.update(
      &small, .demo(.caption(step: 2, text: "User B logs in: A is orphaned.", at: Instant(1200))))
    _ = Inspector.update(&small, .demo(.checks(step: 2, [Self.words[0]])))
    let screen = Self.captionArea(small)
    #expect(screen.contains("At 0:10:00: User A logs in on a phone."), "\(screen)")
    #expect(screen.contains("User B logs in: A is orphaned."))
    #expect(screen.contains("✓ the server holds 1 distinct contact"))
  }

  @Test("the header's clock shows whole seconds, never a float's .999")
  func headerClock() {
    var model = model()
    _ = Inspector.update(&model, .clock(now: Instant(69.999)))
    var header = Inspector.view(model).line(0)
    #expect(header.contains(" 0:01:09 ") && !header.contains(".999"), "\(header)")
    // A clock that float arithmetic left a hair short of 70 s reads 70.
    _ = Inspector.update(&model, .clock(now: Instant(69.9999999)))
    header = Inspector.view(model).line(0)
    #expect(header.contains(" 0:01:10 "), "\(header)")
  }

  @Test("with --step, Space takes the demo on instead of pausing")
  func stepSpace() {
    var model = model()
    model.demo?.stepByStep = true
    #expect(Inspector.update(&model, .key(.character(" "))) == [.demoProceed])
    model.demo?.stepByStep = false
    #expect(Inspector.update(&model, .key(.character(" "))) == [.setRate(0)])
  }

  @Test("a demo refuses the keys that would take it off script, saying why; time keys work")
  func offScript() {
    var model = model()
    for key in ["e", "d", "a", "t", "c", ":"] {
      #expect(Inspector.update(&model, .key(.character(Character(key)))).isEmpty, "\(key)")
      #expect(model.flash?.text.contains("off script") == true, "\(key)")
      #expect(model.flash?.isError == true)
    }
    #expect(Inspector.update(&model, .key(.character("+"))).isEmpty == false)
  }
}

/// #51: a fast-forward no longer says "nothing happens meanwhile" over a month of daily
/// failed retries: it says how far it went, to what, and the sends between the skips.
@Suite("a demo's fast-forward")
struct FastForwardCaptionTests {
  @Test("skips of an outage say what happened between them, never 'nothing happens'")
  func saysWhatHappens() async throws {
    let simulation = try await DeviceSession.start(SessionSetup())
    _ = try await simulation.execute(try CommandParser.parse("server down"))
    _ = try await simulation.execute(.launch)
    try await simulation.advance(to: Instant(60))
    var model = InspectorModel(width: 80, height: 24, title: "demo: outage")
    model.timeStyle = .elapsed
    model.demo = DemoCaptions(name: "outage", description: "The server is down.", steps: 3)
    _ = Inspector.update(&model, .events(simulation.log.all))
    _ = Inspector.update(&model, .snapshot(await simulation.snapshot()))
    var seen = simulation.log.all.count
    // The pace skips to just before each retry; each retry then fails on screen.
    for _ in 1...3 {
      guard case .due(let next, _, _) = await simulation.snapshot().device?.plan else {
        Issue.record("no retry due")
        return
      }
      _ = Inspector.update(
        &model, .demo(.fastForward(seconds: next.seconds - 2 - model.now.seconds)))
      try await simulation.advance(to: next + 1)
      let all = simulation.log.all
      _ = Inspector.update(&model, .events(Array(all.dropFirst(seen))))
      _ = Inspector.update(&model, .snapshot(await simulation.snapshot()))
      seen = all.count
    }
    await simulation.stop()
    let area = DemoCaptionTests.captionArea(model)
    #expect(!area.contains("nothing happens"), "\(area)")
    #expect(area.contains("fast-forwarded 3 times"), "\(area)")
    #expect(area.contains("meanwhile 3 sends failed"), "\(area)")
    #expect(!area.contains("…"), "\(area)")
    // A caption starts afresh.
    _ = Inspector.update(&model, .demo(.caption(step: 2, text: "It waits longer each time.")))
    #expect(!DemoCaptionTests.captionArea(model).contains("fast-forward"))
  }
}
