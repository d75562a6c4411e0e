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

  /// The screen's rows as text.
  static func rows(_ model: InspectorModel) -> [String] {
    Inspector.view(model).text.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
  }

  @Test("at 80x24 nothing is cut: the header, the Events tab's title, the help, a long message")
  func fitsAt80x24() async throws {
    var m = try await model(width: 80, height: 24, until: 5)
    var rows = Self.rows(m)
    // The header: the title whole, on a second row under the clock rather than cut.
    let header = rows.prefix(m.headerRows).joined(separator: "\n")
    #expect(m.headerRows == 2 && !header.contains("…"), "\(header)")
    #expect(header.contains("app demo → the local server (in process)"), "\(header)")
    #expect(header.contains("sdk documented") && header.contains("foreground"), "\(header)")
    // The tabs fill the title; the events' state is said under them.
    #expect(rows.contains { $0.contains("─ 5 Events · 6 server · 7 payload ─") }, "\(rows)")
    #expect(rows.contains { $0.hasSuffix("─ following ─┘") }, "\(rows)")
    // The status bar: whole hints, none cut.
    let bar = try #require(rows.last)
    #expect(!bar.contains("…") && bar.hasPrefix(" q quit  ? help"), "\(bar)")
    // The help: every key and its description whole, and the commands.
    _ = Inspector.update(&m, .key(.character("?")))
    rows = Self.rows(m)
    let overlay = rows.dropFirst(1).dropLast(1).map { line in
      // The dialog's columns, less the panes' borders either side.
      String(line.dropFirst(2).dropLast(2))
    }
    #expect(!overlay.contains { $0.contains("…") }, "\(rows.joined(separator: "\n"))")
    let words = overlay.joined(separator: " ").split(separator: " ").joined(separator: " ")
    for binding in KeyTable.help(on: .device, abilities: m.abilities) {
      let said = binding.help.split(separator: " ").joined(separator: " ")
      #expect(words.contains(said) || overlay.joined().contains(binding.keysLabel), "\(said)")
      for word in binding.help.split(separator: " ") {
        #expect(words.contains(word), "\(word) of \(binding.help)")
      }
    }
    #expect(words.contains("server fail 503 times 3"), "\(rows.joined(separator: "\n"))")
    // A message wider than the bar goes on over the row above it.
    _ = Inspector.update(&m, .key(.escape))
    let notice =
      "demo backoff-30-day-outage finished: all 13 checks passed; n goes on to what is still due, q quits"
    _ = Inspector.update(&m, .notice(notice, isError: false))
    rows = Self.rows(m)
    #expect(
      rows.suffix(2).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        == notice, "\(rows.suffix(2))")
  }

  @Test("a tenant receiver's header holds its whole title at 140 columns")
  func tenantHeaderAt140() {
    let title =
      "receiving on http://127.0.0.1:8080, relayed to https://mc-x1y2z3.device.marketingcloudapis.com · the tenant's MobilePush Demographics (12) · app 0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"
    let m = InspectorModel(
      width: 140, height: 40, title: title, receivingAt: "http://127.0.0.1:8080")
    let rows = Self.rows(m)
    let header = rows.prefix(m.headerRows).map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(m.headerRows == 2 && !header.joined().contains("…"), "\(header)")
    // The clock and speed on the first row ("receiving" is the title's own first word); the
    // title begins beside the brand and goes on under it.
    #expect(header[0].hasSuffix("00:00  1x"), "\(header)")
    let first = header[0].dropLast("00:00  1x".count).trimmingCharacters(in: .whitespaces)
    #expect(first.hasPrefix("RegScope  receiving on http://127.0.0.1:8080"), "\(header)")
    #expect(
      first.dropFirst("RegScope  ".count) + " " + header[1] == title, "\(header)")
    // The panes start under it.
    #expect(rows[2].hasPrefix("┌─ 1 Devices"), "\(rows[2])")
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
