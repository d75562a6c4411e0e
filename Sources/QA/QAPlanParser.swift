import Foundation
import RegistrationCore
import SessionValues
import YAMLFiles
import Yams

/// Reads a QA plan (YAML). Every error names the file, line and column, and what was expected.
public enum QAPlanParser {
  /// A step's time-out is at most a day.
  public static let longestTimeout: Double = 86_400

  public static func parse(file path: String) throws(QAPlanError) -> QAPlan {
    // Bounded, a regular file, UTF-8: refused before it is read otherwise (YAMLText).
    try parse(YAMLText.read(path), source: path)
  }

  public static func parse(_ yaml: String, source: String) throws(QAPlanError) -> QAPlan {
    let reader = YAMLReader(source: source)
    let root = try reader.compose(yaml, ifEmpty: "a plan needs name and steps")
    var name: String?
    var description = ""
    var device = QAPlan.DeviceChoice.first
    var steps: [QAStep] = []
    for (key, _, value) in try reader.mapping(
      root, "the plan", keys: ["name", "description", "device", "steps"])
    {
      switch key {
      case "name": name = try reader.string(value, "name")
      case "description": description = try reader.string(value, "description")
      case "device": device = try deviceChoice(reader, value)
      default:
        guard let list = value.sequence else {
          throw QAPlanError(reader.position(value), "steps must be a list")
        }
        for node in list { steps.append(try step(reader, node, number: steps.count + 1)) }
      }
    }
    guard let name, !name.isEmpty else {
      throw QAPlanError(reader.position(root), "the plan needs a name")
    }
    guard !steps.isEmpty else {
      throw QAPlanError(reader.position(root), "the plan has no steps")
    }
    return QAPlan(
      name: name, description: description, device: device, steps: steps, source: source)
  }

  static func deviceChoice(_ reader: YAMLReader, _ node: Node) throws(QAPlanError)
    -> QAPlan.DeviceChoice
  {
    let text = try reader.string(node, "device")
    return text == "first" ? .first : .id(text)
  }

  static func step(_ reader: YAMLReader, _ node: Node, number: Int) throws(QAPlanError)
    -> QAStep
  {
    let fields = try reader.mapping(
      node, "step \(number)",
      keys: ["ask", "fault", "expect", "timeout", "device", "tags", "attributes", "app"])
    let kinds = fields.filter { ["ask", "fault", "expect"].contains($0.key) }
    guard kinds.count == 1, let kind = kinds.first else {
      throw QAPlanError(
        reader.position(node), "step \(number) needs exactly one of ask:, fault: or expect:")
    }
    var timeout: Double?
    var device: QAPlan.DeviceChoice?
    var tags: [String] = []
    var attributes: [String: String?] = [:]
    var keepsAppOpen = false
    for (key, _, value) in fields {
      switch key {
      case "app":
        guard kind.key == "ask", try reader.string(value, "app") == "stays-open" else {
          throw QAPlanError(
            reader.position(value),
            "app: is said on an ask:, and takes stays-open (the tester keeps the app open and in the foreground until the next ask: no relaunch, no trip to the background)"
          )
        }
        keepsAppOpen = true
      case "timeout": timeout = try self.timeout(reader, value)
      case "device": device = try deviceChoice(reader, value)
      case "tags":
        guard let list = value.sequence else {
          throw QAPlanError(reader.position(value), "tags must be a list")
        }
        for item in list { tags.append(try reader.string(item, "a tag")) }
      case "attributes":
        for (name, _, attribute) in try reader.mapping(value, "attributes", keys: nil) {
          let text = attribute.scalar?.string
          attributes[name] = (text == "*" || text == nil) ? .some(nil) : text
        }
      default: break
      }
    }
    let action: QAStep.Action
    switch kind.key {
    case "ask": action = .ask(try reader.string(kind.value, "ask"))
    case "fault":
      let text = try reader.string(kind.value, "fault")
      guard let fault = QAFaultText.parse(text) else {
        throw QAPlanError(
          reader.position(kind.value),
          "unknown fault \"\(TerminalText.escaped(text))\"; the receiver's faults are STATUS [xN] [retry-after S] [for DURATION], down [DURATION], hang, drop, up"
        )
      }
      action = .fault(fault)
    default:
      action = .expect(try expectation(reader, kind.value, tags: tags, attributes: attributes))
    }
    if case .fault = action {
    } else if timeout == nil {
      throw QAPlanError(
        reader.position(node), "step \(number) needs a timeout: (how long it may take, e.g. 5m)")
    }
    return QAStep(
      number: number, position: reader.position(node), action: action, timeout: timeout,
      device: device, keepsAppOpen: keepsAppOpen)
  }

  static func expectation(
    _ reader: YAMLReader, _ node: Node, tags: [String], attributes: [String: String?]
  ) throws(QAPlanError) -> QAExpectation {
    let name = try reader.string(node, "expect")
    switch name {
    case "registration": return .registration
    case "no-violation": return .noViolation
    case "retries-keep-minimum": return .retriesKeepMinimum
    case "retry-after-respected": return .retryAfterRespected
    case "token-returned": return .tokenReturned
    case "sdk-upgrade-keeps-data": return .upgradeKeepsData
    case "arrived": return .arrived
    case "body-has":
      guard !tags.isEmpty || !attributes.isEmpty else {
        throw QAPlanError(
          reader.position(node), "expect: body-has needs tags: [...] or attributes: {KEY: VALUE}")
      }
      return .bodyHas(tags: tags, attributes: attributes)
    default:
      var message =
        "the judge cannot evaluate \"\(TerminalText.escaped(name))\"; expectations are \(QAExpectation.names.joined(separator: ", "))"
      if let nearest = Suggestion.nearest(to: name, in: QAExpectation.names) {
        message += ". Did you mean \"\(nearest)\"?"
      }
      throw QAPlanError(reader.position(node), message)
    }
  }

  static func timeout(_ reader: YAMLReader, _ node: Node) throws(QAPlanError) -> Double {
    let text = try reader.string(node, "timeout")
    switch DurationText.parse(text) {
    case .failure(let problem):
      throw QAPlanError(reader.position(node), "timeout: \(problem)")
    case .success(let seconds):
      guard seconds > 0 else {
        throw QAPlanError(reader.position(node), "timeout must be above 0 (e.g. 30s, 5m)")
      }
      guard seconds <= longestTimeout else {
        throw QAPlanError(reader.position(node), "timeout is at most a day (24h)")
      }
      return seconds
    }
  }
}

/// The receiver's faults as a plan writes them.
enum QAFaultText {
  static func parse(_ text: String) -> QAFault? {
    var words = InputRules.trimmed(text).lowercased().split(separator: " ").map(String.init)
    guard let first = words.first else { return nil }
    let kind: QAFault.Kind
    switch first {
    case "up": kind = .up
    case "hang": kind = .hang
    case "drop": kind = .drop
    case "down":
      guard words.count <= 2 else { return nil }
      let duration = words.count == 2 ? DurationText.seconds(words[1]) : nil
      if words.count == 2 && (duration == nil || duration! <= 0 || duration! > 86_400) {
        return nil
      }
      kind = .down(duration)
    default:
      if first == "fail" { words.removeFirst() }
      guard let statusText = words.first, let status = Int(statusText), (400...599).contains(status)
      else { return nil }
      var times: Int?
      var retryAfter: Double?
      var duration: Double?
      var index = 1
      var seen: Set<String> = []
      while index < words.count {
        let word = words[index]
        // Each option once: `503 x3 x5` says two things, and neither is taken.
        let option = word.hasPrefix("x") ? "times" : word
        guard seen.insert(option == "times" || option == "x" ? "times" : option).inserted else {
          return nil
        }
        if word.hasPrefix("x"), let count = Int(word.dropFirst()), (1...1_000).contains(count) {
          times = count
          index += 1
        } else if index + 1 < words.count, word == "times", let count = Int(words[index + 1]),
          (1...1_000).contains(count)
        {
          times = count
          index += 2
        } else if index + 1 < words.count, word == "retry-after",
          words[index + 1].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
          let seconds = Double(words[index + 1]), seconds >= 0, seconds <= 86_400
        {
          retryAfter = seconds
          index += 2
        } else if index + 1 < words.count, word == "for",
          let seconds = DurationText.seconds(words[index + 1]), seconds > 0, seconds <= 86_400
        {
          duration = seconds
          index += 2
        } else {
          return nil
        }
      }
      kind = .status(status, times: times, retryAfter: retryAfter, duration: duration)
    }
    return QAFault(kind: kind, text: InputRules.trimmed(text))
  }
}
