import DebugBundle
import EngagementCore
import Foundation
import HAR
import OutboundHTTP
import RegistrationCore

/// `make_bundle` (#54): a device's debug bundle, asked of the receiver
/// (`POST /api/devices/{id}/bundle`, with the app's token) and written where the assistant
/// says, by the one writer and its refusals; and `judge_capture` on a bundle, which judges the
/// capture inside.
extension RegScopeTools {
  func makeBundle(token: String, deviceID: String, path: String, redact: Bool) async -> Answer {
    guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      return .error(
        "the token \(TerminalText.escaped(TokenText.masked(token))) holds a space, a line break or a character other than visible ASCII; an access token is one word"
      )
    }
    if let problem = BundleTarget.problem(path, force: false) { return .error(problem) }
    let base = receiver.absoluteString
    let id =
      deviceID.addingPercentEncoding(
        withAllowedCharacters: CharacterSet(
          charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))
      ?? ""
    var request = BoundedFetch.Request(
      url: (base.hasSuffix("/") ? String(base.dropLast()) : base)
        + "/api/devices/\(id)/bundle" + (redact ? "?redact=true" : ""))
    request.method = .POST
    request.headers.add(name: "Authorization", value: "Bearer \(token)")
    let fetch = BoundedFetch(deadline: deadline, largest: DebugBundle.largestBytes + (8 << 20))
    let answer: BoundedFetch.Answer
    switch await fetch.send(request) {
    case .failure(let failure):
      return .error(
        "the receiver at \(TerminalText.escaped(base)) did not answer the bundle (\(TerminalText.escaped("\(failure)"))): start one with regscope --receive or regctl serve, or give regctl mcp --receiver URL"
      )
    case .success(let got): answer = got
    }
    guard answer.status == 200 else {
      let said =
        (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["message"]
        as? String
      return .error(
        "the receiver answered \(answer.status) to the bundle of \"\(TerminalText.escaped(deviceID))\": \(TerminalText.escaped((said ?? "no message").replacingOccurrences(of: token, with: TokenText.masked(token))))"
      )
    }
    do {
      try BundleTarget.write(answer.body, to: path, force: false)
    } catch {
      return .error(error.message)
    }
    return Answer(text: Self.summary(of: answer.body, path: path), isError: false)
  }

  /// The bundle as written: its files, and its README's first lines (the ticket in words).
  static func summary(of zip: [UInt8], path: String) -> String {
    let shown = TerminalText.escaped(path)
    guard let bundle = try? BundleReader.read(zip, name: path) else {
      return "bundle written: \(shown) (\(zip.count) bytes)"
    }
    let readme = String(decoding: bundle.files[DebugBundle.readmePath] ?? [], as: UTF8.self)
    var text =
      "bundle written: \(shown) (\(bundle.files.count) files, \(NumberText.grouped(zip.count)) bytes; tokens masked\(bundle.redacted ? "; contact keys, device ids, push tokens and attribute values redacted" : ""))\n\n"
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      let escaped = TerminalText.escaped(String(line))
      guard text.utf8.count + escaped.utf8.count < answerLimit - 1_024 else {
        text += "(the rest in the bundle's README.md)"
        break
      }
      text += escaped + "\n"
    }
    return text
  }

  /// A HAR file judged as it is; a debug bundle's capture judged with its demographics table.
  static func judged(_ path: String) throws -> (CaptureJudge, String) {
    guard BundleReader.isBundle(path) else { return (try HARReader.judge([path]), path) }
    let bundle = try BundleReader.open(path)
    guard let capture = bundle.capture else {
      throw BundleError(.notABundle, "\(TerminalText.escaped(path)) holds no capture to judge")
    }
    let defined = bundle.definedAttributes
    let judge = try HARReader.judge(
      sources: [.document(name: path + ":" + DebugBundle.capturePath, bytes: Data(capture))],
      definedAttributes: defined)
    return (judge, "the capture in the \(bundle.described)")
  }
}
