import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import Session
import SessionValues
import TestSupport
import Testing

@testable import InspectorUI

#if canImport(Glibc)
  import Glibc
#endif

/// What a terminal draws, by the C library's wcwidth: the reference the cell buffer must agree
/// with, or a row spills into the next pane and cells of an earlier frame survive.
struct TerminalModel {
  var rows: [[String]]
  let width: Int

  init(width: Int, height: Int) {
    self.width = width
    rows = Array(repeating: Array(repeating: " ", count: width), count: height)
  }

  /// The C library's wcwidth, looked up at run time (Swift's Glibc module leaves the X/Open
  /// functions out), in a UTF-8 locale.
  static let wcwidth: @convention(c) (Int32) -> Int32 = {
    _ = setlocale(LC_CTYPE, "C.UTF-8")
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "wcwidth") else {
      Issue.record("wcwidth is not in the C library")
      return { _ in 1 }
    }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
  }()

  static func columns(_ scalar: Unicode.Scalar) -> Int {
    max(0, Int(wcwidth(Int32(bitPattern: scalar.value))))
  }

  /// Writes `text` from column `x` as a terminal does: scalar by scalar, each advancing the
  /// cursor by its wcwidth; a zero-width scalar joins the cell before it.
  mutating func write(_ text: String, x: Int, y: Int) {
    var column = x
    for scalar in text.unicodeScalars {
      let columns = Self.columns(scalar)
      if columns == 0 {
        if column > 0, column - 1 < width { rows[y][column - 1] += String(scalar) }
        continue
      }
      guard column + columns <= width else { return }
      rows[y][column] = String(scalar)
      if columns == 2 { rows[y][column + 1] = "" }
      column += columns
    }
  }

  /// Every row's width as the terminal counts it.
  static func rowWidths(_ buffer: CellBuffer) -> [Int] {
    (0..<buffer.height).map { row in
      buffer.line(row).unicodeScalars.reduce(0) { $0 + columns($1) }
    }
  }
}

@Suite("hostile text on screen: widths the terminal agrees with")
struct HostileTextTests {
  static let hostile = [
    "a\u{200B}\u{200B}\u{200B}b", "e" + String(repeating: "\u{0301}", count: 30),
    "設備標識符中文", "\u{202E}evil\u{202C}", "\u{200F}rtl-mark", "👨\u{200D}👩\u{200D}👧\u{200D}👦",
    "🇫🇷flag", "❤\u{FE0F}heart", "soft\u{00AD}hyphen", "bom\u{FEFF}", "👍🏽thumb",
  ]

  static func model(_ ids: [String], selected: String?) throws -> InspectorModel {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    for (index, id) in ids.enumerated() {
      let body = #"{"deviceID":"DEVICE","etAppId":"app","platform":"iOS","tags":["ALL"]}"#
      var payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8))
      payload.deviceID = id
      payload.subscriberKey = id
      _ = watch.record(
        ReceivedRegistration(
          deviceID: id, payload: payload, body: Array(body.utf8), facts: RequestFacts(),
          at: Instant(Double(index) * 100), status: 201, retryAfter: nil,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    }
    var model = receiverModel(watch, now: 5_000, receivingAt: "http://127.0.0.1:8080")
    if let selected { model.receiver.selectedDeviceID = selected }
    return model
  }

  @Test("hostile ids: every row exactly the frame's width, and no cell of an earlier frame left")
  func hostileIDs() throws {
    var terminal = TerminalModel(width: 120, height: 40)
    var previous: CellBuffer?
    for selected in Self.hostile + ["plain"] {
      let model = try Self.model(Self.hostile + ["plain"], selected: selected)
      let frame = Inspector.view(model)
      #expect(
        TerminalModel.rowWidths(frame).allSatisfy { $0 == 120 },
        "\(selected.unicodeScalars.map { String($0.value, radix: 16) }): \(TerminalModel.rowWidths(frame))"
      )
      for run in frame.changes(since: previous) { terminal.write(run.text, x: run.x, y: run.y) }
      var fresh = TerminalModel(width: 120, height: 40)
      for run in frame.changes(since: nil) { fresh.write(run.text, x: run.x, y: run.y) }
      #expect(
        terminal.rows == fresh.rows, "stale cells after selecting \(selected.debugDescription)")
      previous = frame
    }
  }

  @Test("invisible and width-ambiguous characters are shown escaped; plain text is untouched")
  func escaped() {
    #expect(TerminalText.escaped("a\u{200B}bc") == "a\\u{200B}bc")
    #expect(TerminalText.escaped("a\u{200B}bc") != TerminalText.escaped("abc"))
    #expect(TerminalText.escaped("👨\u{200D}👩") == "👨\\u{200D}👩")
    #expect(TerminalText.escaped("\u{FEFF}x\u{2060}") == "\\u{FEFF}x\\u{2060}")
    #expect(TerminalText.escaped("e\u{301}") == "e\u{301}")
    #expect(TerminalText.escaped("設備 café ü") == "設備 café ü")
    let piled = TerminalText.escaped("e" + String(repeating: "\u{301}", count: 6))
    #expect(piled == "e\u{301}\u{301}\u{301}\u{301}\\u{301}\\u{301}")
  }
}
