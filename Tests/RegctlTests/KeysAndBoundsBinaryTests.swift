import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Where a user meets #51 and #52 in the binary: `regctl serve` and `regctl judge` read a key
/// by its bytes, as the tenant does (`"subscriber\u212Aey"` is not `subscriberKey`), and
/// `regctl judge` refuses a file past its bound by its size, before reading it.
@Suite("keys by their bytes, files by their size: regctl", .serialized, .timeLimit(.minutes(10)))
struct KeysAndBoundsBinaryTests {
  /// A body with `extra` members after the SDK's own, for device `device`.
  static func body(_ device: String, _ extra: String) -> String {
    #"{"deviceID":"\#(device)","etAppId":"app","platform":"Android","tags":["ALL"],"timeZone":"0",\#(extra)}"#
  }

  @Test(
    "#51 regctl serve: subscriber\\u212Aey is ignored, never the contact key nor a second subscriberKey"
  )
  func serveKelvin() async throws {
    let serve = try await ServeProcess.start()
    // Escaped beside the real key, and raw UTF-8 alone.
    for body in [
      Self.body("K1", #""subscriberKey":"alice","subscriber\u212Aey":"mallory""#),
      Self.body("K2", "\"subscriber\u{212A}ey\":\"mallory\""),
    ] {
      let answer = try await BodyReadingBinaryTests.post(serve, body)
      #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
    }
    let devices = try await BodyReadingBinaryTests.devices(serve)
    let beside = try #require(devices.first { $0["deviceID"] as? String == "K1" })
    #expect(beside["contactKey"] as? String == "alice")
    let client = try #require(beside["client"] as? [String: Any])
    #expect(client["findings"] as? [String: Int] == [:], "not a key twice: \(client)")
    let alone = try #require(devices.first { $0["deviceID"] as? String == "K2" })
    #expect(alone["contactKey"] as? String == nil, "\(alone)")
    try await serve.stop()
  }

  @Test("#51 regctl judge: the same body in a capture is read the same, and passes the gate")
  func judgeKelvin() async throws {
    let body = Self.body("K1", #""subscriberKey":"alice","subscriber\u212Aey":"mallory""#)
    let capture =
      #"{"log":{"version":"1.2","entries":[{"startedDateTime":"2026-11-22T10:00:00.000Z","time":1,"request":{"method":"POST","url":"https://mc.example.com/device/v1/registration","headers":[],"postData":{"mimeType":"application/json","text":\#(jsonLiteral(body))}},"response":{"status":201,"headers":[],"content":{"size":0,"text":""}}}]}}"#
    let path = try temporaryFile("kelvin.har", capture)
    let output = try await regctl(["judge", "--fields", path])
    #expect(output.status == 0, "no violation: \(output.stdout)\(output.stderr)")
    #expect(!output.stdout.contains("duplicateKey"), "\(output.stdout)")
    #expect(output.stdout.contains(#""contactKey":"alice""#), "\(output.stdout)")
    #expect(!output.stdout.contains(#""value":"mallory""#), "\(output.stdout)")
  }

  @Test(
    "#52 regctl judge: a 1 GiB file is refused by its size before a byte is read, the bound said")
  func judgeHugeFile() async throws {
    let path = try temporaryFile("huge.har", "")
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Sparse: a gigabyte long, no disk taken. Read whole, it was 1 GB resident and then
    // "not JSON".
    #expect(truncate(path, 1 << 30) == 0)
    let output = try await regctl(["judge", path])
    #expect(output.status == 2, "\(output.stderr)")
    #expect(
      output.stderr.contains("is 1073741824 bytes; a capture is read up to 512 MiB"),
      "\(output.stderr)")
    #expect(!output.stderr.contains("not JSON"), "\(output.stderr)")
  }
}
