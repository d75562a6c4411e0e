import EngagementCore
import Foundation
import HAR
import MCP
import QA
import RegistrationCore
import Scenarios
import Session
import SessionHTTP

/// The tools `regctl mcp` offers. Each answers in text (JSON where the data is JSON), never
/// throws: a bad argument, an unknown device or an unreachable receiver is a tool error that
/// says what and where. Nothing here writes a file but make_bundle (a new one, by the one
/// writer), or prints a token whole. An answer is whole or refused with how to ask for less:
/// never cut short.
/// The tools `regctl mcp` offers a coding assistant, each answered in text with the SDK's
/// rules; the executable wraps them in the MCP SDK's server (`MCPCommand`).
public struct RegScopeTools: Sendable {
  /// The longest argument taken, and the longest answer given.
  static let argumentLimit = 4_096
  static let answerLimit = 256 << 10
  /// The largest capture `judge_capture` reads (it holds the file in memory while it judges),
  /// as `regctl judge`.
  static let largestCapture = 512 << 20
  /// The largest scenario file `run_scenario` reads: a real one is a few kilobytes.
  static let largestScenario = 1 << 20

  let receiver: URL
  /// Seconds the receiver has for a whole answer (`--receiver-deadline`).
  var deadline: Double = 10

  public init(receiver: URL, deadline: Double = 10) {
    self.receiver = receiver
    self.deadline = deadline
  }

  var fetch: ReceiverFetch { ReceiverFetch(receiver: receiver, deadline: deadline) }

  public struct Answer: Error, Sendable {
    public var text: String
    public var isError: Bool
    static func error(_ text: String) -> Answer { Answer(text: text, isError: true) }
  }

  public static let list: [Tool] = [
    tool(
      "list_devices",
      "The devices a running RegScope receiver has seen, newest first, a page at a time: SDK, version, the profile they are judged by, findings by severity.",
      [
        "before":
          "the cursor a page ends with (\"more devices: ... before\"), for the page after it"
      ],
      integers: ["limit": "how many devices, 1 to 1000 (100 unless given)"]),
    tool(
      "explain_device",
      "Why a device's attributes, tags or contact key did or did not arrive, in sentences, most important first, each rejection with its fix (SPEC S2, S5, R2.5, R3.2, R8).",
      ["deviceID": "the device's id, as /api/devices lists it"], required: ["deviceID"]),
    tool(
      "device_fields",
      "Each field's story for a device as JSON: every value sent, when, in which registration, what processing did with it and why, what the contact holds now.",
      [
        "deviceID": "the device's id",
        "field": "only this field's story: an attribute's name, a tag, or the contact key's name",
      ], required: ["deviceID"]),
    tool(
      "judge_capture",
      "Judge a HAR capture of an app's traffic by the SDK rules: each device's timeline with findings and fixes.",
      ["path": "a HAR file (a regular file; at most \(largestCapture >> 20) MiB)"],
      required: ["path"]),
    tool(
      "run_scenario",
      "Run a scenario in virtual time (a built-in name such as throttle-coalesces, or a YAML file) and report whether its expectations held.",
      [
        "name":
          "a built-in scenario's name, or a scenario file's path (at most \(largestScenario >> 20) MiB)"
      ], required: ["name"]),
    tool("list_qa_plans", "The built-in QA plans and what each proves.", [:]),
    tool(
      "inject_fault",
      "Make the receiver answer the next registrations with a fault (POST /api/faults). Needs the receiver's access token.",
      [
        "token": "the receiver's access token (the app's)",
        "fault":
          "the fault as JSON: {\"status\": 503, \"times\": 3}, {\"status\": 429, \"retryAfter\": 120}, {\"mode\": \"hang\"}, {\"mode\": \"down\", \"seconds\": 60}",
      ], required: ["token", "fault"]),
    tool(
      "make_bundle",
      "Write a device's debug bundle for a ticket (one zip: README in words with each finding's rule and fix, the capture as HAR, timeline, field stories, settings, a manifest of SHA-256s; tokens masked), as regctl bundle makes it. judge_capture reads it back. Needs the receiver's access token.",
      [
        "token": "the receiver's access token (the app's)",
        "deviceID": "the device's id, as list_devices shows it",
        "path": "where to write the zip: a new file (never over an existing one or a link)",
        "redact":
          "\"true\" to replace contact keys, device ids, push tokens and attribute values with keyed hashes",
      ], required: ["token", "deviceID", "path"]),
  ]

  static func tool(
    _ name: String, _ description: String, _ strings: [String: String],
    integers: [String: String] = [:], required: [String] = []
  ) -> Tool {
    let properties =
      strings.mapValues { ["type": "string", "description": .string($0)] as Value }
      .merging(integers.mapValues { ["type": "integer", "description": .string($0)] }) { $1 }
    let schema: Value = [
      "type": "object",
      "properties": .object(properties),
      "required": .array(required.map { .string($0) }),
    ]
    return Tool(name: name, description: description, inputSchema: schema)
  }

  public func call(_ name: String, _ arguments: [String: Value]) async -> Answer {
    do throws(Answer) {
      return try await answer(name, arguments)
    } catch {
      return error
    }
  }

  /// A tool's answer; a missing or oversized argument is thrown as the tool's error.
  private func answer(_ name: String, _ arguments: [String: Value]) async throws(Answer) -> Answer {
    func optional(_ key: String) throws(Answer) -> String? {
      guard let given = arguments[key], given != .null else { return nil }
      guard let value = given.stringValue, !value.isEmpty else {
        throw .error("\"\(key)\" is a string, not empty")
      }
      guard value.utf8.count <= Self.argumentLimit else {
        throw .error(
          "\"\(key)\" is \(value.utf8.count) bytes; at most \(Self.argumentLimit) are taken")
      }
      return value
    }
    func argument(_ key: String) throws(Answer) -> String {
      guard let value = try optional(key) else {
        throw .error("\(name) needs the argument \"\(key)\" (a string)")
      }
      return value
    }
    func count(_ key: String, _ range: ClosedRange<Int>) throws(Answer) -> Int? {
      guard let given = arguments[key], given != .null else { return nil }
      let number = given.intValue ?? given.stringValue.flatMap { Int($0) }
      guard let number, range.contains(number) else {
        throw .error(
          "\"\(key)\" is a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return number
    }
    switch name {
    case "list_devices":
      return await listDevices(
        limit: try count("limit", 1...1000) ?? 100, before: try optional("before"))
    case "explain_device": return await explainDevice(try argument("deviceID"))
    case "device_fields":
      return await deviceFields(try argument("deviceID"), field: try optional("field"))
    case "judge_capture": return judgeCapture(try argument("path"))
    case "run_scenario": return await runScenario(try argument("name"))
    case "list_qa_plans": return listPlans()
    case "inject_fault":
      return await injectFault(token: try argument("token"), fault: try argument("fault"))
    case "make_bundle":
      return await makeBundle(
        token: try argument("token"), deviceID: try argument("deviceID"),
        path: try argument("path"), redact: try optional("redact") == "true")
    default:
      throw .error(
        "no tool \"\(TerminalText.escaped(name))\"; the tools are \(Self.list.map(\.name).joined(separator: ", "))"
      )
    }
  }
}
