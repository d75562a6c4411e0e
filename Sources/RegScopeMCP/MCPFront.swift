import Foundation
import MCP

/// What a line of `regctl mcp`'s input is, by the JSON-RPC 2.0 rules, read before the SDK's
/// server sees it. The server answers what it can decode as a request and drops the rest
/// unanswered: a request whose id is `true`, `1.5`, `{}`, `[1]` or too large for 64 bits is
/// taken for a notification, and a line that is not JSON is answered with a made-up id. So
/// every line that is not a request the server will answer is answered here (a parse error
/// or an Invalid Request, with a null id where the id itself cannot be read), and only what
/// the server answers goes on, with the ids it owes an answer to.
enum MCPFront {
  /// What the transport does with one line.
  struct Reading: Sendable {
    /// The message for the server (the line, or a batch without its refused items).
    var forward: Data?
    /// The ids of the requests forwarded: each is owed one answer.
    var asked: [ID] = []
    /// Requests the client cancelled: the server may leave them unanswered.
    var cancelled: [ID] = []
    /// Answers written here: items of one array when `batch`, else at most one.
    var refusals: [Data] = []
    var batch = false
  }

  /// The most messages a batch may hold. Each is answered, so a batch of a million `1`s
  /// (8 MiB) was a million refusals in one line (570 MB); past this the batch is one error.
  /// A batch's answers then hold at most this many tool answers of 256 KB each.
  static let batchLimit = 100

  static func read(_ line: Data) -> Reading {
    guard let first = line.first(where: { !Self.isSpace($0) }) else { return Reading() }
    switch MCPJSONCheck.check(line) {
    case .invalid(let why):
      return Reading(
        refusals: [
          refusal(
            -32700, nil,
            "Parse error: a line is one JSON-RPC message, and this one is not JSON: \(why)")
        ])
    case .valid(let count?) where count > batchLimit:
      return Reading(
        refusals: [
          refusal(
            -32600, nil,
            "Invalid Request: a batch holds at most \(batchLimit) messages; this one holds \(count)"
          )
        ])
    case .valid: break
    }
    let decoded: Line
    do {
      let decoder = JSONDecoder()
      decoded =
        first == UInt8(ascii: "[")
        ? .batch(try decoder.decode([Envelope].self, from: line))
        : .single(try decoder.decode(Envelope.self, from: line))
    } catch {
      return Reading(
        refusals: [
          refusal(
            -32700, nil, "Parse error: a line is one JSON-RPC message, and this one is not JSON")
        ])
    }
    switch decoded {
    case .single(let envelope):
      var reading = Reading()
      take(envelope, into: &reading)
      if reading.refusals.isEmpty && envelope.isMessage { reading.forward = line }
      return reading
    case .batch(let items):
      guard !items.isEmpty else {
        return Reading(refusals: [refusal(-32600, nil, "Invalid Request: an empty batch")])
      }
      var reading = Reading(batch: true)
      var kept: [Int] = []
      for (index, item) in items.enumerated() {
        let refused = reading.refusals.count
        take(item, into: &reading)
        if reading.refusals.count == refused && item.isMessage { kept.append(index) }
      }
      if kept.count == items.count {
        reading.forward = line
      } else if !kept.isEmpty {
        // Rare (a batch with a refused item): the kept items are written again.
        if let values = try? JSONDecoder().decode([Value].self, from: line),
          values.count == items.count
        {
          reading.forward = try? encoder.encode(kept.map { values[$0] })
        }
        if reading.forward == nil {
          reading.refusals += reading.asked.map {
            refusal(-32603, $0, "Internal error: the batch could not be passed on")
          }
          reading.asked = []
        }
      }
      return reading
    }
  }

  /// One message's part of the reading: owed an answer, a notification, or refused.
  private static func take(_ envelope: Envelope, into reading: inout Reading) {
    guard envelope.isObject else {
      reading.refusals.append(
        refusal(
          -32600, nil, "Invalid Request: a message is a JSON object (a batch, an array of them)"))
      return
    }
    // An answer is never answered back; this server asks nothing, so none is awaited either.
    if !envelope.hasMethod && envelope.isAnswer { return }
    let id: ID?
    switch envelope.identity {
    case .absent: id = nil
    case .valid(let valid): id = valid
    case .invalid(let kind):
      reading.refusals.append(
        refusal(
          -32600, nil,
          "Invalid Request: an id is a string or a whole number that fits in 64 bits, not \(kind)"))
      return
    }
    let problem: String? =
      if envelope.hasMethod && envelope.isAnswer {
        "a message has a method (a request) or a result or error (an answer), not both"
      } else if envelope.version != "2.0" {
        "\"jsonrpc\" must be \"2.0\""
      } else if !envelope.hasMethod {
        "a request needs a \"method\""
      } else if envelope.method == nil {
        "\"method\" must be a string"
      } else {
        nil
      }
    if let problem {
      reading.refusals.append(refusal(-32600, id, "Invalid Request: " + problem))
    } else if let id {
      reading.asked.append(id)
    } else if let cancelled = envelope.cancels {
      reading.cancelled.append(cancelled)
    }
  }

  /// A JSON-RPC error answer (`id` nil: null).
  static func refusal(_ code: Int, _ id: ID?, _ message: String) -> Data {
    (try? encoder.encode(Refusal(id: id, code: code, message: message)))
      ?? Data(
        #"{"error":{"code":-32603,"message":"Internal error"},"id":null,"jsonrpc":"2.0"}"#.utf8)
  }

  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
  }

  // MARK: The line as read

  private enum Line {
    case single(Envelope)
    case batch([Envelope])
  }

  /// The parts of a message that say what it is. Decoding never fails: what is not an object
  /// says so, and each key is read on its own. The id is read as the SDK reads it (`ID`), so
  /// what passes here is what its server decodes as a request.
  struct Envelope: Decodable {
    enum Identity {
      case absent
      case valid(ID)
      /// What was there instead: "true", "an object"...
      case invalid(String)
    }

    var isObject = false
    var version: String?
    var identity = Identity.absent
    var hasMethod = false
    var method: String?
    var isAnswer = false
    /// The request a `notifications/cancelled` cancels.
    var cancels: ID?

    var isMessage: Bool { isObject && hasMethod && !isAnswer }

    private enum Key: String, CodingKey { case jsonrpc, id, method, result, error, params }
    private enum ParameterKey: String, CodingKey { case requestId }

    init(from decoder: any Decoder) throws {
      guard let container = try? decoder.container(keyedBy: Key.self) else { return }
      isObject = true
      version = try? container.decode(String.self, forKey: .jsonrpc)
      if container.contains(.id) {
        if (try? container.decodeNil(forKey: .id)) == true {
          identity = .invalid("null")
        } else if let id = try? container.decode(ID.self, forKey: .id) {
          identity = .valid(id)
        } else {
          identity = .invalid(Self.kind(try? container.decode(Value.self, forKey: .id)))
        }
      }
      hasMethod = container.contains(.method)
      method = try? container.decode(String.self, forKey: .method)
      isAnswer = container.contains(.result) || container.contains(.error)
      if method == CancelledNotification.name,
        let parameters = try? container.nestedContainer(keyedBy: ParameterKey.self, forKey: .params)
      {
        cancels = try? parameters.decode(ID.self, forKey: .requestId)
      }
    }

    private static func kind(_ value: Value?) -> String {
      switch value {
      case .bool(let flag): "\(flag)"
      case .double: "a fraction or a number beyond 64 bits"
      case .array: "an array"
      case .object: "an object"
      default: "this"
      }
    }
  }

  private struct Refusal: Encodable {
    var id: ID?
    var code: Int
    var message: String

    private enum Key: String, CodingKey { case jsonrpc, id, error }
    private enum ErrorKey: String, CodingKey { case code, message }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode("2.0", forKey: .jsonrpc)
      if let id {
        try container.encode(id, forKey: .id)
      } else {
        try container.encodeNil(forKey: .id)
      }
      var error = container.nestedContainer(keyedBy: ErrorKey.self, forKey: .error)
      try error.encode(code, forKey: .code)
      try error.encode(message, forKey: .message)
    }
  }
}
