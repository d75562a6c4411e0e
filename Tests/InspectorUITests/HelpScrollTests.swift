import EngagementCore
import TestSupport
import Testing

@testable import InspectorUI

/// The help on a screen too short for every key: it scrolls, and says where it is (a new
/// user's walk found the receiver's commands unreachable at 80x24).
@Suite("the help scrolls when its keys do not fit")
struct HelpScrollTests {
  @Test("a receiver at 80x24: the help says it scrolls; j reaches the commands, and stops there")
  func scrolls() {
    var model = receiverModel(
      DeviceWatch(makeToken: seededTokens(1)), now: 10, width: 80,
      receivingAt: "http://127.0.0.1:8080")
    model.hasLocalServer = true
    _ = Inspector.update(&model, .resize(width: 80, height: 24))
    _ = Inspector.update(&model, .key(.character("?")))
    var screen = Inspector.view(model).text
    #expect(screen.contains("Keys (j k scroll, Esc closes)"), "\(screen)")
    #expect(screen.contains(" 1-20 of "), "\(screen)")
    #expect(!screen.contains("Commands: server fail 503 times 3"), "\(screen)")
    for _ in 0..<40 { _ = Inspector.update(&model, .key(.character("j"))) }
    screen = Inspector.view(model).text
    #expect(screen.contains("Commands: server fail 503 times 3"), "\(screen)")
    let last = model.helpScroll
    _ = Inspector.update(&model, .key(.character("k")))
    #expect(model.helpScroll == last - 1, "one k scrolls back at once from the end")
    _ = Inspector.update(&model, .key(.escape))
    _ = Inspector.update(&model, .key(.character("?")))
    #expect(model.helpScroll == 0, "opened again, the help starts at its top")
  }
}
