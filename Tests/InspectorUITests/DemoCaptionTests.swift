import InspectorUI
import RegistrationCore
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
