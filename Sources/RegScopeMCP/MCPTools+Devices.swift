import Foundation
import NIOHTTP1
import OutboundHTTP
import RegistrationCore

/// The tools that ask a running receiver. What it answers is data like any app's: escaped
/// before it is told (a sentence, an error, a cursor), its JSON kept valid with its invisible
/// characters written as `\uXXXX`.
extension RegScopeTools {
  func listDevices(limit: Int, before: String?) async -> Answer {
    let cursor = before.map { "&before=" + Self.percentEncoded($0) } ?? ""
    let fetched = await fetch.get("api/devices?limit=\(limit)" + cursor)
    guard case .success(let answer) = fetched else {
      return failure(
        fetched, narrower: "ask for fewer: list_devices with limit \(max(1, limit / 4))")
    }
    guard answer.status == 200,
      let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
      let devices = object["devices"] as? [[String: Any]]
    else { return .error(receiverSaid(answer, "GET /api/devices")) }
    guard !devices.isEmpty else {
      return Answer(
        text: before == nil
          ? "no device has registered with the receiver at \(TerminalText.escaped(receiver.absoluteString)) yet"
          : "no devices after that cursor", isError: false)
    }
    // Written here, not passed on: the API's device carries tokens, which stay out. Each
    // line escaped on its own: the line breaks between them stay line breaks.
    let lines = devices.map { TerminalText.escaped(Self.deviceLine($0)) }
    var text = lines.joined(separator: "\n")
    if let next = object["next"] as? String {
      text += "\n(more devices: list_devices with before \"\(TerminalText.escaped(next))\")"
    }
    let size = text.utf8.count
    guard size <= Self.answerLimit else {
      let fit = max(1, lines.count * Self.answerLimit * 9 / 10 / size)
      return .error(
        "the \(lines.count) devices of this page take \(size) bytes, more than the \(Self.answerLimit) an answer holds: ask for fewer, list_devices with limit \(fit) (then before, with the cursor it ends with)"
      )
    }
    return Answer(text: text, isError: false)
  }

  private static func deviceLine(_ device: [String: Any]) -> String {
    let client = device["client"] as? [String: Any] ?? [:]
    let severities = client["severities"] as? [String: Int] ?? [:]
    let sdk = [client["sdk"] as? String, client["sdkVersion"] as? String].compactMap { $0 }
    let counted = ["violation", "warning", "note"].map { severity in
      let count = severities[severity] ?? 0
      return "\(count) \(severity)\(count == 1 ? "" : "s")"
    }
    return [
      device["deviceID"] as? String ?? "?",
      "sdk " + (sdk.isEmpty ? "not seen by this run" : sdk.joined(separator: " ")),
      (client["profile"] as? String).map { "judged as \($0)" },
      (device["contactKey"] as? String).map { "contact \($0)" } ?? "no contact yet",
      "findings: " + counted.joined(separator: ", "),
    ].compactMap { $0 }.joined(separator: "  ")
  }

  func explainDevice(_ deviceID: String) async -> Answer {
    let fetched = await fetch.get("api/devices/\(Self.percentEncoded(deviceID))/explain")
    guard case .success(let answer) = fetched else {
      return failure(fetched, narrower: "device_fields with a field tells one field's story")
    }
    guard answer.status == 200 else { return unknownDevice(deviceID, answer) }
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
      let said = object["sentences"] as? [String]
    else { return .error(receiverSaid(answer, "GET /api/devices/{id}/explain")) }
    let sentences = said.map(TerminalText.escaped)
    let text = sentences.joined(separator: "\n")
    guard text.utf8.count > Self.answerLimit else { return Answer(text: text, isError: false) }
    // Most important first: the sentences that fit come with the refusal.
    var shown: [String] = []
    var size = 0
    for sentence in sentences {
      size += sentence.utf8.count + 1
      guard size <= Self.answerLimit - 4_096 else { break }
      shown.append(sentence)
    }
    return .error(
      "device \"\(TerminalText.escaped(deviceID))\" is explained in \(sentences.count) sentences, \(text.utf8.count) bytes, more than the \(Self.answerLimit) an answer holds: ask device_fields with deviceID and field for one field's story. The first \(shown.count), most important first:\n"
        + shown.joined(separator: "\n"))
  }

  func deviceFields(_ deviceID: String, field: String?) async -> Answer {
    let fetched = await fetch.get("api/devices/\(Self.percentEncoded(deviceID))/fields")
    guard case .success(let answer) = fetched else {
      return failure(fetched, narrower: "explain_device tells the same in sentences")
    }
    guard answer.status == 200 else { return unknownDevice(deviceID, answer) }
    guard
      var story = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
    else { return .error(receiverSaid(answer, "GET /api/devices/{id}/fields")) }
    let fields = story["fields"] as? [[String: Any]] ?? []
    let names = fields.compactMap { $0["name"] as? String }
    var json = answer.body
    if let field {
      let kept = fields.filter { $0["name"] as? String == field }
      guard !kept.isEmpty else {
        return .error(
          "device \"\(TerminalText.escaped(deviceID))\" has no field \"\(TerminalText.escaped(field))\"; \(Self.named(names))"
        )
      }
      story["fields"] = kept
      guard
        let written = try? JSONSerialization.data(
          withJSONObject: story, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      else { return .error("the field's story could not be written as JSON") }
      json = Array(written)
    }
    json = JSONText.escapingInvisibles(json)
    guard json.count <= Self.answerLimit else {
      guard let field else {
        return .error(
          "device \"\(TerminalText.escaped(deviceID))\"'s field stories are \(json.count) bytes, more than the \(Self.answerLimit) an answer holds: ask for one field's, device_fields with deviceID and field (\(Self.named(names))), or explain_device for the sentences"
        )
      }
      return .error(
        "field \"\(TerminalText.escaped(field))\"'s story is \(json.count) bytes, more than the \(Self.answerLimit) an answer holds: read it from the receiver, GET \(TerminalText.escaped(receiver.absoluteString))/api/devices/{id}/fields"
      )
    }
    return Answer(text: String(decoding: json, as: UTF8.self), isError: false)
  }

  /// "its fields: A, B, C and 40 more": enough names to ask for one.
  private static func named(_ names: [String]) -> String {
    guard !names.isEmpty else { return "it has no fields" }
    let shown = names.prefix(20).map { TerminalText.escaped($0) }.joined(separator: ", ")
    return "its fields: " + shown + (names.count > 20 ? " and \(names.count - 20) more" : "")
  }

  func injectFault(token: String, fault: String) async -> Answer {
    // A header is one line of visible characters: anything else would be refused by the client
    // with the whole header in its error, token and all.
    guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      return .error(
        "the token \(TerminalText.escaped(TokenText.masked(token))) holds a space, a line break or a character other than visible ASCII; an access token is one word"
      )
    }
    var request = BoundedFetch.Request(
      url: receiver.appendingPathComponent("api/faults").absoluteString)
    request.method = .POST
    request.headers.add(name: "Authorization", value: "Bearer \(token)")
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = Array(fault.utf8)
    let fetched = await fetch.execute(request)
    guard case .success(let answer) = fetched else {
      return failure(
        fetched, narrower: "the receiver's answer to a fault is a few bytes", token: token)
    }
    let text = TerminalText.escaped(
      String(decoding: answer.body, as: UTF8.self).replacingOccurrences(
        of: token, with: TokenText.masked(token)))
    guard answer.status == 200 else {
      return .error("the receiver refused the fault (\(answer.status)): \(text)")
    }
    return Answer(text: text, isError: false)
  }

  // MARK: What the receiver said

  /// A fetch that brought no answer, said for the tool; `narrower` is how to ask for less.
  private func failure(
    _ result: Result<ReceiverFetch.Answer, ReceiverFetch.Failure>, narrower: String,
    token: String? = nil
  ) -> Answer {
    guard case .failure(let failure) = result else { return .error("no answer") }
    let text: String =
      switch failure {
      case .unreachable(let why):
        "the receiver at \(receiver) did not answer (\(why)): start one with regscope --receive or regctl serve, or give regctl mcp --receiver URL"
      case .late:
        "the receiver at \(receiver) did not answer in whole within \(DurationText.describe(deadline)); give it longer with regctl mcp --receiver-deadline"
      case .tooLarge:
        "the receiver's answer is more than the \(ReceiverFetch.largestAnswer >> 20) MiB read: \(narrower)"
      case .notHTTP(let why):
        "the receiver at \(receiver) did not answer with HTTP RegScope can take (\(why)): is it a RegScope receiver?"
      case .unsendableHeader(let name):
        "the \(name) header holds a control character, so nothing was sent"
      }
    let masked = token.map { text.replacingOccurrences(of: $0, with: TokenText.masked($0)) } ?? text
    return .error(TerminalText.escaped(masked))
  }

  private func unknownDevice(_ deviceID: String, _ answer: ReceiverFetch.Answer) -> Answer {
    .error(
      "device \"\(TerminalText.escaped(deviceID))\": \(receiverSaid(answer, "the device")) (list_devices shows the devices)"
    )
  }

  /// The receiver's own error message, escaped, or its status.
  private func receiverSaid(_ answer: ReceiverFetch.Answer, _ what: String) -> String {
    let message =
      (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["message"]
      as? String
    let said =
      message
      ?? (answer.status == 200
        ? "the receiver's answer to \(what) is not the JSON a RegScope receiver gives"
        : "the receiver answered \(answer.status) to \(what)")
    return TerminalText.escaped(said)
  }

  private static func percentEncoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
