import InspectorUI
import RegistrationCore
import Scenarios
import Session
import SessionValues
import Testing

@Suite("update")
struct UpdateTests {
  func type(_ text: String, into model: inout InspectorModel) -> [InspectorEffect] {
    var effects: [InspectorEffect] = []
    for character in text { effects += Inspector.update(&model, .key(.character(character))) }
    return effects
  }

  @Test("the : line parses with the one command parser and remembers history")
  func commandLine() async throws {
    var m = try await model(width: 120, height: 40, until: 1)
    _ = Inspector.update(&m, .key(.character(":")))
    #expect(m.keyContext == .commandLine)
    #expect(type("tag add sports", into: &m).isEmpty)
    #expect(Inspector.update(&m, .key(.enter)) == [.run(.edit(.addTag("sports")))])
    #expect(m.keyContext == .normal)
    _ = Inspector.update(&m, .key(.character(":")))
    _ = Inspector.update(&m, .key(.up))
    guard case .commandLine(let line) = m.mode else {
      Issue.record("not on the command line")
      return
    }
    #expect(line.text == "tag add sports")
  }

  @Test("a bad command: an error naming the column and the fix, and nothing run")
  func badCommand() async throws {
    var m = try await model(width: 120, height: 40, until: 1)
    _ = Inspector.update(&m, .key(.character(":")))
    _ = type("tga add x", into: &m)
    #expect(Inspector.update(&m, .key(.enter)).isEmpty)
    #expect(m.flash?.isError == true)
    #expect(m.flash?.text.contains("Did you mean \"tag\"?") == true)
    #expect(Inspector.view(m).text.contains("column 1"))
  }

  @Test("focus: Tab, Shift-Tab, 1-7")
  func focus() async throws {
    var m = try await model(width: 120, height: 40, until: 1)
    _ = Inspector.update(&m, .key(.tab))
    #expect(m.deviceScreen.focus == .pending)
    _ = Inspector.update(&m, .key(.backTab))
    _ = Inspector.update(&m, .key(.backTab))
    #expect(m.deviceScreen.focus == .payload)
    _ = Inspector.update(&m, .key(.character("4")))
    #expect(m.deviceScreen.focus == .backoff)
  }

  @Test("with a remote server the fault keys are not advertised, and pressing one says why")
  func faultKeysNeedLocalServer() async throws {
    var m = try await model(width: 120, height: 40, until: 1)
    #expect(Inspector.view(m).text.contains("503x3"))
    m.hasLocalServer = false
    #expect(!Inspector.view(m).text.contains("503x3"))
    #expect(!Inspector.view(m).text.contains("down/up"))
    for key in ["e", "w", "h", "d"] {
      #expect(Inspector.update(&m, .key(.character(Character(key)))).isEmpty, "\(key)")
      #expect(m.flash?.text.contains("remote") == true && m.flash?.isError == true)
    }
    // The rest of the keys work as before.
    #expect(Inspector.update(&m, .key(.character("n"))) == [.jumpToNextDeadline])
  }

  @Test("time and fault keys become effects")
  func timeAndFaults() async throws {
    var m = try await model(width: 120, height: 40, until: 1)
    #expect(Inspector.update(&m, .key(.character(" "))) == [.setRate(0)])
    #expect(Inspector.update(&m, .key(.character("+"))) == [.setRate(10)])
    #expect(Inspector.update(&m, .key(.character("n"))) == [.jumpToNextDeadline])
    #expect(
      Inspector.update(&m, .key(.character("e")))
        == [.run(.server(.fail(status: 503, times: 3, retryAfter: nil, duration: nil)))])
    #expect(Inspector.update(&m, .key(.character("d"))) == [.run(.server(.down))])
    #expect(Inspector.update(&m, .key(.character("f"))) == [.run(.background)])
    #expect(Inspector.update(&m, .key(.character("R"))) == [.run(.restart)])
    #expect(Inspector.update(&m, .key(.character("q"))) == [.quit])
    let down = try await model(width: 120, height: 40, until: 1, before: ["server down"])
    var downModel = down
    #expect(Inspector.update(&downModel, .key(.character("d"))) == [.run(.server(.up))])
  }

  @Test("contact key editor: a generic key asks again before applying (R2.4)")
  func contactKeyWarns() async throws {
    var m = try await model(width: 120, height: 40, until: 1)
    _ = Inspector.update(&m, .key(.character("c")))
    _ = type("test", into: &m)
    #expect(Inspector.update(&m, .key(.enter)).isEmpty)
    #expect(Inspector.view(m).text.contains("generic"))
    #expect(Inspector.update(&m, .key(.enter)) == [.run(.edit(.setContactKey("test")))])
  }

  @Test(":help opens the help, as ? does")
  func commandLineHelp() async throws {
    var m = try await model(width: 120, height: 40, until: 1)
    _ = Inspector.update(&m, .key(.character(":")))
    _ = type("help", into: &m)
    #expect(Inspector.update(&m, .key(.enter)).isEmpty)
    #expect(Inspector.view(m).text.contains("Keys (Esc closes)"))
  }

  @Test("the command line asks again, as the editor does, before a key that orphans a contact")
  func commandLineAsksAgain() async throws {
    // Launched and registered without a key: the server made one up (R8.2).
    var m = try await model(width: 120, height: 40, until: 1)
    _ = Inspector.update(&m, .key(.character(":")))
    _ = type("contact-key set alice@example.com", into: &m)
    #expect(Inspector.update(&m, .key(.enter)).isEmpty)
    let said = try #require(m.flash)
    #expect(said.isError && said.text.contains("orphans that contact (R8.2)"), "\(said.text)")
    // Run again (recalled from the history): applied.
    _ = Inspector.update(&m, .key(.character(":")))
    _ = Inspector.update(&m, .key(.up))
    #expect(
      Inspector.update(&m, .key(.enter)) == [.run(.edit(.setContactKey("alice@example.com")))])
  }

  @Test("the command line's warning holds for the very next run of the same line only")
  func commandLineWarningIsForTheNextRun() async throws {
    var m = try await model(width: 120, height: 40, until: 1)
    for text in ["contact-key set alice@example.com", "tag add x"] {
      _ = Inspector.update(&m, .key(.character(":")))
      _ = type(text, into: &m)
      _ = Inspector.update(&m, .key(.enter))
    }
    // Another command ran in between: the warning is said again, nothing applied.
    _ = Inspector.update(&m, .key(.character(":")))
    _ = type("contact-key set alice@example.com", into: &m)
    #expect(Inspector.update(&m, .key(.enter)).isEmpty)
    #expect(m.flash?.text.contains("not applied") == true)
  }

  @Test(
    "contact key editor: a warning wraps inside the dialog instead of being cut",
    arguments: [80, 120])
  func contactKeyWarningWraps(width: Int) async throws {
    var m = try await model(width: width, height: 24, until: 1)
    _ = Inspector.update(&m, .key(.character("c")))
    _ = type("test", into: &m)
    _ = Inspector.update(&m, .key(.enter))
    let screen = Inspector.view(m).text
    // The end of the message, which a cut at the dialog's edge used to lose.
    #expect(screen.contains("one contact (R2.4)"), "\(screen)")
    #expect(screen.contains("Enter again applies anyway"))
  }

  @Test("contact key editor: an empty key cannot be applied (R2.1); Esc changes nothing")
  func contactKeyEmpty() async throws {
    var m = try await model(width: 120, height: 40, until: 1)
    _ = Inspector.update(&m, .key(.character("c")))
    // Opened, nothing typed yet: no error before the user has done anything.
    #expect(!Inspector.view(m).text.contains("empty after trimming"))
    #expect(Inspector.update(&m, .key(.enter)).isEmpty)
    #expect(Inspector.view(m).text.contains("empty"))
    #expect(Inspector.update(&m, .key(.escape)).isEmpty)
    #expect(m.keyContext == .normal)
  }

  @Test("attribute editor: invalid cells block applying; valid edits become commands")
  func attributeEditor() async throws {
    var m = try await model(
      width: 120, height: 40, until: 1, [(0, "attr set OLD x"), (0, "attr set CODE A")])
    _ = Inspector.update(&m, .key(.character("a")))
    // Rows are sorted: CODE, OLD. Change CODE's value, delete OLD, add NEW = 1.
    _ = Inspector.update(&m, .key(.tab))
    _ = Inspector.update(&m, .key(.backspace))
    _ = type("B", into: &m)
    _ = Inspector.update(&m, .key(.down))
    _ = Inspector.update(&m, .key(.control("d")))
    _ = Inspector.update(&m, .key(.control("n")))
    _ = type("contactKey", into: &m)
    #expect(Inspector.update(&m, .key(.enter)).isEmpty, "a reserved key must block applying")
    for _ in 0..<10 { _ = Inspector.update(&m, .key(.backspace)) }
    _ = type("NEW", into: &m)
    _ = Inspector.update(&m, .key(.tab))
    _ = type("1", into: &m)
    let effects = Inspector.update(&m, .key(.enter))
    #expect(
      effects == [
        .runAll([
          .edit(.clearAttribute(key: "OLD")), .edit(.setAttribute(key: "CODE", value: "B")),
          .edit(.setAttribute(key: "NEW", value: "1")),
        ])
      ])
  }

  @Test("tag editor: locked tags refuse removal with the reason (R2.7); adds apply on Enter")
  func tagEditor() async throws {
    var m = try await model(width: 120, height: 40, until: 1, [(0, "tag add old")])
    _ = Inspector.update(&m, .key(.character("t")))
    _ = Inspector.update(&m, .key(.control("d")))
    #expect(Inspector.view(m).text.contains("cannot be removed"))
    _ = Inspector.update(&m, .key(.down))
    _ = Inspector.update(&m, .key(.down))
    _ = Inspector.update(&m, .key(.control("d")))
    _ = type("sports", into: &m)
    #expect(Inspector.update(&m, .key(.enter)).isEmpty)
    #expect(
      Inspector.update(&m, .key(.enter)) == [
        .runAll([.edit(.removeTag("old")), .edit(.addTag("sports"))])
      ])
  }

  @Test("the events filter narrows the list; Esc clears it")
  func filter() async throws {
    var m = try await model(width: 120, height: 40, until: 70, [(10, "tag add sports")])
    _ = Inspector.update(&m, .key(.character("/")))
    _ = type("sent", into: &m)
    #expect(
      m.deviceScreen.visibleEvents.allSatisfy {
        $0.type.contains("sen") || $0.detail.lowercased().contains("sent")
      })
    #expect(m.deviceScreen.visibleEvents.count < m.deviceScreen.events.count)
    _ = Inspector.update(&m, .key(.escape))
    #expect(m.deviceScreen.eventFilter.isEmpty)
  }

  @Test("the status bar and the help come from the key table")
  func keyTableDrivesHints() async throws {
    var m = try await model(width: 200, height: 60, until: 1)
    let status = Inspector.view(m).line(59)
    for (key, hint) in KeyTable.hints(.normal, abilities: m.abilities) {
      #expect(status.contains("\(key) \(hint)"), "\(key) \(hint) missing from the status bar")
    }
    _ = Inspector.update(&m, .key(.character("?")))
    let help = Inspector.view(m).text
    for binding in KeyTable.bindings(.normal) where binding.isEnabled(m.abilities) {
      #expect(help.contains(binding.help), "\(binding.help) missing from help")
    }
  }

  @Test("a device pane scrolled past its end comes back at the first Up: view and keys agree")
  func devicePaneScrolls() async throws {
    var m = try await model(
      width: 80, height: 24, until: 70,
      (1...12).map { (Double($0), "attr set KEY_\($0) value-\($0)") })
    _ = Inspector.update(&m, .key(.character("1")))
    let top = Inspector.view(m).text
    for _ in 0..<20 { _ = Inspector.update(&m, .key(.pageDown)) }
    let bottom = Inspector.view(m).text
    #expect(bottom != top, "Page Down moved the record")
    _ = Inspector.update(&m, .key(.up))
    #expect(Inspector.view(m).text != bottom, "one Up after the end moves at once")
    _ = Inspector.update(&m, .key(.character("g")))
    #expect(Inspector.view(m).text == top)
  }

  @Test("data with escape sequences is shown escaped, never raw")
  func escapedData() async throws {
    let m = try await model(
      width: 120, height: 40, until: 70,
      [
        (1, "attr set NOTE \"\u{1B}[2J\u{07}x\u{9B}1m\u{202E}\""),
        (2, "tag add \"\u{2066}t\u{7F}\""),
      ])
    let screen = Inspector.view(m)
    #expect(screen.text.contains("\\e[2J\\x07x\\x9B1m"))
    #expect(screen.text.contains("t\\x7F"))
    #expect(
      !screen.cells.contains { $0.text.unicodeScalars.contains(where: TerminalText.isUnsafe) })
  }
}
