import Foundation
import Scenarios
import Testing
import YAMLFiles

/// A YAML file is bounded before it is read and checked in one pass (#43): a megabyte of NUL
/// bytes is refused at once with its place, and no error quotes a line whole.
@Suite("YAML files: bounded, and errors that say the place, not the line")
struct YAMLBoundsTests {
  static func file(_ bytes: [UInt8], _ name: String = "scenario.yaml") throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "yaml-bounds-\(UUID().uuidString)-\(name)")
    try Data(bytes).write(to: url)
    return url.path
  }

  static func error(_ path: String) -> String {
    do {
      _ = try ScenarioParser.parse(file: path)
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test("a megabyte of NUL bytes: refused at line 1, column 1, in a short message")
  func nulBytes() throws {
    let path = try Self.file([UInt8](repeating: 0, count: YAMLText.largestFile - 1))
    let message = Self.error(path)
    #expect(message.hasPrefix("\(path):1:1: holds the control character U+0000"), "\(message)")
    #expect(message.utf8.count < 300)
  }

  @Test("a control character after good lines is placed by line and column")
  func placed() throws {
    let path = try Self.file(Array("name: x\nsteps:\n  - at: 0s\u{7}\n".utf8))
    #expect(Self.error(path).hasPrefix("\(path):3:11: holds the control character U+0007"))
  }

  @Test("a file over the limit, a FIFO, a directory: refused before they are read")
  func notRead() throws {
    let large = try Self.file([UInt8](repeating: 0x20, count: YAMLText.largestFile + 1))
    #expect(Self.error(large).contains("is \(YAMLText.largestFile + 1) bytes; at most"))
    let fifo = FileManager.default.temporaryDirectory
      .appendingPathComponent("yaml-fifo-\(UUID().uuidString)").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: fifo) }
    #expect(Self.error(fifo).contains("is not a regular file"))
    #expect(Self.error(FileManager.default.temporaryDirectory.path).contains("is a directory"))
  }

  @Test("text that is not UTF-8 says where")
  func notUTF8() throws {
    let path = try Self.file(Array("name: x\n".utf8) + [0x61, 0xFF, 0x62])
    #expect(Self.error(path).hasPrefix("\(path):2:2: is not UTF-8 text"), "\(Self.error(path))")
  }

  @Test("a YAML error on a 600 KB line quotes at most a bounded part of it")
  func longLine() throws {
    let line = "name: [" + String(repeating: "a, ", count: 200_000) + "\n  : ]\n"
    let message = Self.error(try Self.file(Array(line.utf8)))
    #expect(message.contains("is not valid YAML"), "\(message.prefix(300))")
    #expect(message.utf8.count < 600)
  }
}
