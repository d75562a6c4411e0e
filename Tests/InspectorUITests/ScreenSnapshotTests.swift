import InspectorUI
import RegistrationCore
import Scenarios
import Session
import SessionValues
import Testing

@Suite("golden screens")
struct ScreenSnapshotTests {
  static let sizes = [(80, 24), (120, 40)]

  @Test("fresh: launched, the initial registration sent", arguments: sizes)
  func fresh(size: (Int, Int)) async throws {
    let m = try await model(width: size.0, height: size.1, until: 5)
    expectSnapshot(Inspector.view(m), "fresh-\(size.0)x\(size.1)")
  }

  @Test("pending with a countdown: two edits waiting for the window", arguments: sizes)
  func pending(size: (Int, Int)) async throws {
    let m = try await model(
      width: size.0, height: size.1, until: 30,
      [(10, "tag add sports"), (20, "attr set CODE FREE99")])
    let screen = Inspector.view(m)
    #expect(screen.text.contains("next send in 40 s"))
    #expect(screen.text.contains("+ sports"))
    expectSnapshot(screen, "pending-\(size.0)x\(size.1)")
  }

  @Test("backoff after failures: the ladder and the next retry", arguments: sizes)
  func backoff(size: (Int, Int)) async throws {
    let m = try await model(
      width: size.0, height: size.1, until: 200, before: ["server fail 503 times 5"])
    let screen = Inspector.view(m)
    #expect(screen.text.contains("3 failures in a row"))
    #expect(screen.text.contains("HTTP 503"))
    expectSnapshot(screen, "backoff-\(size.0)x\(size.1)")
  }

  @Test("delayed for a contact key (R3.5)", arguments: sizes)
  func delayed(size: (Int, Int)) async throws {
    var setup = SessionSetup()
    setup.delayRegistrationUntilContactKeyIsSet = true
    let m = try await model(
      width: size.0, height: size.1, setup: setup, until: 30, [(10, "tag add early")])
    let screen = Inspector.view(m)
    #expect(screen.text.contains("waiting for a contact key"))
    expectSnapshot(screen, "delayed-\(size.0)x\(size.1)")
  }

  @Test("the attribute editor open with an error in a cell", arguments: sizes)
  func editorError(size: (Int, Int)) async throws {
    var m = try await model(width: size.0, height: size.1, until: 5, [(1, "attr set CODE FREE99")])
    _ = Inspector.update(&m, .key(.character("a")))
    _ = Inspector.update(&m, .key(.control("n")))
    for character in "platform" { _ = Inspector.update(&m, .key(.character(character))) }
    let screen = Inspector.view(m)
    #expect(screen.text.contains("reserved word"))
    expectSnapshot(screen, "editor-error-\(size.0)x\(size.1)")
  }

  @Test(
    "android inside its throttle: the attempt is answered 429 on the device, and when it leaves")
  func androidThrottled() async throws {
    var setup = SessionSetup()
    setup.use(.android)
    // A send at 0:00:00 (the first launch); a tag at 0:00:10 is due 1 s later, inside the
    // 60 s throttle: answered on the device, sent with the alarm 60 s after that.
    let m = try await model(width: 120, height: 40, setup: setup, until: 10, [(10, "tag add news")])
    let screen = Inspector.view(m).text
    #expect(screen.contains("next attempt in 1 s"), "\(screen)")
    #expect(screen.contains("answered 429 on the device"))
    #expect(screen.contains("sent in 1 min 1 s"))
    #expect(screen.contains("opened by tag news"))
    // No hint in the status panes is cut off.
    for line in screen.split(separator: "\n") {
      let panes = line.split(separator: "│", omittingEmptySubsequences: false)
      #expect(panes.count != 7 || !panes[3].hasSuffix("…"), "\(line)")
    }
  }

  @Test("the help overlay", arguments: sizes)
  func help(size: (Int, Int)) async throws {
    var m = try await model(width: size.0, height: size.1, until: 5)
    _ = Inspector.update(&m, .key(.character("?")))
    expectSnapshot(Inspector.view(m), "help-\(size.0)x\(size.1)")
  }

  @Test("too small: a clear message where q still works")
  func tooSmall() async throws {
    var m = try await model(width: 60, height: 20, until: 5)
    let screen = Inspector.view(m)
    #expect(screen.text.contains("too small: need 80x24"))
    expectSnapshot(screen, "too-small-60x20")
    #expect(Inspector.update(&m, .key(.character(":"))) == [])
    #expect(Inspector.update(&m, .key(.character("q"))) == [.quit])
  }
}
