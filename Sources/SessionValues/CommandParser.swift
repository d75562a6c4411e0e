import RegistrationCore

/// What is wrong with a command, where (1-based column), and what was expected.
public struct CommandError: Error, Hashable, Sendable, CustomStringConvertible {
  public var column: Int
  public var message: String

  public init(column: Int, message: String) {
    self.column = column
    self.message = message
  }

  public var description: String { "column \(column): \(message)" }
}

/// The one parser of the command language (DESIGN.md, "Commands").
public enum CommandParser {
  /// Every command form, for help and for suggesting the nearest one.
  public static let forms: [String] = [
    "launch", "restart", "foreground", "background", "inbox",
    "contact-key set VALUE", "contact-key clear",
    "attr set KEY VALUE", "attr clear KEY",
    "tag add TAG", "tag remove TAG",
    "system set FIELD VALUE",
    "server fail STATUS [times N] [retry-after SECONDS] [for DURATION]",
    "server down", "server up", "server hang", "server drop",
    "server define-attribute KEY",
  ]

  public static func parse(_ line: String) throws(CommandError) -> Command {
    let words: [CommandWords.Word]
    do {
      words = try CommandWords.split(line)
    } catch {
      throw CommandError(column: error.column, message: error.message)
    }
    var cursor = Cursor(words: words, lineLength: line.count)
    let command = try parse(&cursor)
    if let extra = cursor.peek {
      throw CommandError(
        column: extra.column,
        message:
          "unexpected \"\(extra.text)\" after a complete command; expected the end of the line")
    }
    return command
  }

  private static func parse(_ cursor: inout Cursor) throws(CommandError) -> Command {
    let verb = try cursor.next(expecting: "a command (\(topLevel.joined(separator: ", ")))")
    switch verb.text {
    case "launch": return .launch
    case "restart": return .restart
    case "foreground": return .foreground
    case "background": return .background
    case "inbox": return .inbox
    case "contact-key":
      let action = try cursor.next(expecting: "set or clear")
      switch action.text {
      case "set": return .edit(.setContactKey(try cursor.next(expecting: "the contact key").text))
      case "clear": return .edit(.clearContactKey)
      default: throw unknown(action, among: ["set", "clear"], after: "contact-key")
      }
    case "attr":
      let action = try cursor.next(expecting: "set or clear")
      switch action.text {
      case "set":
        let key = try cursor.next(expecting: "the attribute key").text
        let value = try cursor.next(expecting: "the value (use \"\" for an empty one)").text
        return .edit(.setAttribute(key: key, value: value))
      case "clear":
        return .edit(.clearAttribute(key: try cursor.next(expecting: "the attribute key").text))
      default: throw unknown(action, among: ["set", "clear"], after: "attr")
      }
    case "tag":
      let action = try cursor.next(expecting: "add or remove")
      let tag = try cursor.next(expecting: "the tag").text
      switch action.text {
      case "add": return .edit(.addTag(tag))
      case "remove": return .edit(.removeTag(tag))
      default: throw unknown(action, among: ["add", "remove"], after: "tag")
      }
    case "system":
      let action = try cursor.next(expecting: "set")
      guard action.text == "set" else { throw unknown(action, among: ["set"], after: "system") }
      let fieldWord = try cursor.next(
        expecting: "a field (\(SystemField.allCases.map(\.rawValue).joined(separator: " ")))")
      guard let field = SystemField(rawValue: fieldWord.text) else {
        throw unknown(fieldWord, among: SystemField.allCases.map(\.rawValue), after: "system set")
      }
      return .edit(.setSystem(field, try cursor.next(expecting: "the value").text))
    case "server":
      return .server(try parseServer(&cursor))
    default:
      throw unknown(verb, among: topLevel, after: nil)
    }
  }

  private static let topLevel = [
    "launch", "restart", "foreground", "background", "inbox", "contact-key", "attr", "tag",
    "system", "server",
  ]

  private static func parseServer(_ cursor: inout Cursor) throws(CommandError) -> ServerCommand {
    let actions = ["fail", "down", "up", "hang", "drop", "define-attribute"]
    let action = try cursor.next(expecting: actions.joined(separator: ", "))
    switch action.text {
    case "down": return .down
    case "up": return .up
    case "hang": return .hang
    case "drop": return .drop
    case "define-attribute":
      return .defineAttribute(try cursor.next(expecting: "the attribute name").text)
    case "fail":
      let statusWord = try cursor.next(expecting: "an HTTP status, 400 to 599")
      guard let status = Int(statusWord.text), (400...599).contains(status) else {
        throw CommandError(
          column: statusWord.column,
          message: "expected an HTTP status, 400 to 599; got \"\(statusWord.text)\"")
      }
      var times: Int?
      var retryAfter: Double?
      var duration: Double?
      var seen: Set<String> = []
      while let option = cursor.peek {
        cursor.advance()
        guard seen.insert(option.text).inserted else {
          throw CommandError(
            column: option.column,
            message: "\(TerminalText.escaped(option.text)) is given twice; give each option once")
        }
        switch option.text {
        case "times":
          let word = try cursor.next(expecting: "how many requests")
          guard let count = Int(word.text), (1...ValueLimits.largestCount).contains(count) else {
            throw CommandError(
              column: word.column,
              message:
                "expected a whole number from 1 to \(ValueLimits.largestCount); got \"\(TerminalText.escaped(word.text))\""
            )
          }
          times = count
        case "retry-after":
          let word = try cursor.next(expecting: "seconds (or a duration such as 2m)")
          switch DurationText.parse(word.text) {
          case .success(let seconds): retryAfter = seconds
          case .failure(let problem):
            throw CommandError(column: word.column, message: "retry-after: \(problem)")
          }
        case "for":
          let word = try cursor.next(expecting: "a duration such as 10m")
          switch DurationText.parse(word.text) {
          case .success(let seconds) where seconds > 0: duration = seconds
          case .success:
            throw CommandError(column: word.column, message: "for: the duration must be above 0")
          case .failure(let problem):
            throw CommandError(column: word.column, message: "for: \(problem)")
          }
        default:
          throw unknown(option, among: ["times", "retry-after", "for"], after: "server fail")
        }
      }
      return .fail(status: status, times: times, retryAfter: retryAfter, duration: duration)
    default:
      throw unknown(action, among: actions, after: "server")
    }
  }

  private static func unknown(_ word: CommandWords.Word, among choices: [String], after: String?)
    -> CommandError
  {
    let context = after.map { " after \"\($0)\"" } ?? ""
    var message = "unknown \"\(word.text)\"\(context); expected \(choices.joined(separator: ", "))"
    if let nearest = Suggestion.nearest(to: word.text, in: choices) {
      message += ". Did you mean \"\(nearest)\"?"
    }
    return CommandError(column: word.column, message: message)
  }

  private struct Cursor {
    var words: [CommandWords.Word]
    var index = 0
    var lineLength: Int

    var peek: CommandWords.Word? { index < words.count ? words[index] : nil }

    mutating func advance() { index += 1 }

    mutating func next(expecting what: String) throws(CommandError) -> CommandWords.Word {
      guard let word = peek else {
        throw CommandError(column: lineLength + 1, message: "expected \(what)")
      }
      index += 1
      return word
    }
  }
}
