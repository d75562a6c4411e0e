import ArgumentParser
import Foundation
import Testing
import ToolSupport

/// `--config` and `--config-name`, spelled the same in `regscope`, `regctl shell`, `serve` and
/// `qa`: a file with one configuration needs no name.
@Suite("--config and --config-name")
struct ConfigOptionsTests {
  static func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/\(name)").path
  }

  @Test("--config alone is enough; --config-name chooses among several")
  func configAlone() throws {
    let session = try SessionOptions.parse(["--config", "app.json"])
    #expect(session.config == "app.json" && session.configName == nil)
    let named = try SessionOptions.parse(["--config", "sdk.json", "--config-name", "production"])
    #expect(named.configName == "production")
    let receiver = try AppConfigFile.parse(["--config", "config.xml"])
    #expect(receiver.chosen?.path == "config.xml" && receiver.chosen?.name == nil)
  }

  @Test("--config-name needs --config")
  func nameNeedsFile() {
    #expect {
      _ = try SessionOptions.parse(["--config-name", "production"])
    } throws: { error in
      SessionOptions.message(for: error).contains("--config-name needs --config")
    }
    #expect {
      _ = try AppConfigFile.parse(["--config-name", "production"])
    } throws: { error in
      AppConfigFile.message(for: error).contains("--config-name needs --config")
    }
  }

  @Test("a receiver takes the app of an Expo app.json with no --config-name")
  func receiverFromExpo() throws {
    let path = Self.fixture("expo-app.json")
    let app = try AppCredentials.parse([]).receiverApp(
      config: (path: path, name: nil), receiver: try ReceiverArguments.parse([]))
    #expect(app.source == .configFile(path))
    #expect(app.brief.contains("0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"))
    #expect(app.warnings.isEmpty)
  }
}
