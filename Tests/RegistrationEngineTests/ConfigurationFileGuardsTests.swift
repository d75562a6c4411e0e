import Foundation
import RegistrationEngine
import Testing

/// A configuration file is read only when it is a regular file of a sane size, and XML only as
/// UTF-8 (#43): libxml2 honours a declared encoding, which would bring back an entity the
/// checks on the bytes refuse.
@Suite("R7 configuration files: what is refused before it is parsed")
struct ConfigurationFileGuardsTests {
  static func temporary(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "config-guard-\(UUID().uuidString)-\(name)")
  }

  /// `text` in UTF-7 as libxml2 reads it: `<` as `+ADw-`, `>` as `+AD4-`, `"` as `+ACI-`.
  static func utf7(_ text: String) -> String {
    text.replacingOccurrences(of: "<", with: "+ADw-").replacingOccurrences(
      of: ">", with: "+AD4-"
    ).replacingOccurrences(of: "\"", with: "+ACI-")
  }

  @Test("an XML declaration naming another encoding (UTF-7 carrying an entity) is refused, named")
  func utf7Entity() {
    let hidden = Self.utf7(
      #"<!DOCTYPE widget [<!ENTITY id "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b">]>"#)
    let text =
      "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n\(hidden)\n<widget id=\"x\"><preference name=\"com.salesforce.marketingcloud.app_id\" value=\"&id;\"/></widget>"
    #expect {
      _ = try ConfigurationFile.parse(Data(text.utf8), source: "config.xml")
    } throws: { error in
      "\(error)".contains("declares the encoding \"UTF-7\"") && "\(error)".contains("UTF-8 only")
    }
  }

  @Test("a UTF-16 config.xml is named as such, not called broken JSON", arguments: [true, false])
  func utf16(littleEndian: Bool) {
    let text = "<?xml version=\"1.0\" encoding=\"utf-16\"?>\n<widget id=\"x\"/>"
    var data = Data(littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF])
    data += text.data(using: littleEndian ? .utf16LittleEndian : .utf16BigEndian) ?? Data()
    #expect {
      _ = try ConfigurationFile.parse(data, source: "config.xml")
    } throws: { error in
      "\(error)".contains("is XML in UTF-16") && !"\(error)".contains("JSON")
    }
  }

  @Test("a UTF-8 declaration in any case is read as before")
  func utf8Declared() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <widget id="com.example.x">
        <preference name="com.salesforce.marketingcloud.app_id" value="0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b" />
        <preference name="com.salesforce.marketingcloud.access_token" value="abcdefghijklmnopqrstuvwx" />
        <preference name="com.salesforce.marketingcloud.tenant_specific_endpoint" value="https://mc.example.com/" />
      </widget>
      """
    let loaded = try ConfigurationFile.parse(Data(text.utf8), source: "config.xml")
    #expect(loaded.appID == "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b")
  }

  @Test("a FIFO, a device, a directory and a file over 1 MB are refused before they are read")
  func notRead() throws {
    let fifo = Self.temporary("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: fifo) }
    let large = Self.temporary("large.json")
    try Data(count: ConfigurationFile.largestFile + 1).write(to: large)
    defer { try? FileManager.default.removeItem(at: large) }
    for (path, says) in [
      (fifo, "is not a regular file"), ("/dev/zero", "is not a regular file"),
      (FileManager.default.temporaryDirectory.path, "is a directory"),
      (large.path, "is \(ConfigurationFile.largestFile + 1) bytes; at most 1048576 are read"),
      ("/nonexistent/config.json", "cannot be read (No such file or directory)"),
    ] {
      #expect {
        _ = try ConfigurationFile.load(path: path)
      } throws: { error in
        "\(error)".contains(says)
      }
    }
  }
}
