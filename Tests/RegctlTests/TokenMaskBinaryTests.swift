import Foundation
import TestSupport
import Testing

/// Subscriber tokens are masked in every output (docs/captures.md, #51): the live API's device
/// views as a judged capture, and a capture RegScope wrote (whose tokens are masks already) is
/// judged with those masks as they are, never masked again.
@Suite("subscriber tokens, masked once, everywhere", .serialized, .timeLimit(.minutes(10)))
struct TokenMaskBinaryTests {
  /// The token a 2xx handed out (its `X-Subscriber-Token` header).
  static func issuedToken(_ answer: String) -> String? {
    answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-subscriber-token:") }
      .map { $0.dropFirst("x-subscriber-token:".count).trimmingCharacters(in: .whitespaces) }
  }

  static func get(_ serve: ServeProcess, _ path: String) async throws -> String {
    try await serve.request("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
  }

  /// `rs-0…(35 chars) #1a2b3c4d`: four characters, the length, a fingerprint.
  static func isMask(_ text: String, of token: String) -> Bool {
    text.hasPrefix(String(token.prefix(4)) + "…(\(token.count) chars) #")
      && text.wholeMatch(of: /.{4}…\(\d+ chars\) #[0-9a-f]{8}/) != nil
  }

  @Test("GET /api/devices and a device's registrations show the token masked, never whole")
  func liveAPI() async throws {
    let serve = try await ServeProcess.start()
    let answer = try await serve.request(
      ServeBinaryTests.androidRegistration(device: "MASK-1", app: "app", token: ServeProcess.token))
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
    let token = try #require(Self.issuedToken(answer), "\(answer)")
    #expect(token.count > 12)
    for path in ["/api/devices", "/api/devices/MASK-1/registrations"] {
      let view = try await Self.get(serve, path)
      #expect(view.hasPrefix("HTTP/1.1 200"), "\(path): \(view)")
      #expect(!view.contains(token), "\(path) shows the token whole")
      let body = try #require(view.range(of: "\r\n\r\n").map { String(view[$0.upperBound...]) })
      let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
      let client =
        ((object?["devices"] as? [[String: Any]])?.first ?? object)?["client"] as? [String: Any]
      let shown = client?["subscriberToken"] as? String ?? ""
      #expect(Self.isMask(shown, of: token), "\(path): \(shown)")
    }
    try await serve.stop()
  }

  @Test("judge --json of a capture serve wrote: its masks shown as they are, not masked again")
  func judgedCapture() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "masked-\(UUID().uuidString).har"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let serve = try await ServeProcess.start(["--har", path])
    let first = try await serve.request(
      ServeBinaryTests.androidRegistration(device: "MASK-2", app: "app", token: ServeProcess.token))
    let token = try #require(Self.issuedToken(first), "\(first)")
    try await serve.stop()
    let capture = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!capture.contains(token))
    let judged = try await regctl(["judge", "--json", "--fail-on", "never", path])
    #expect(judged.status == 0, "\(judged.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(judged.stdout.utf8)) as? [String: Any]
    let shown = (object?["client"] as? [String: Any])?["subscriberToken"] as? String ?? ""
    // The mask the capture holds, once: a mask of it would say 25 characters and another
    // fingerprint.
    #expect(Self.isMask(shown, of: token), "\(shown)")
    #expect(capture.contains(shown), "\(shown) is not the capture's mask")
  }
}
