import Clocks
import EngagementCore
import EngagementServer
import RegistrationCore
import Session
import SessionValues
import Testing

@testable import Scenarios

@Suite("the command language")
struct CommandParserTests {
  @Test(
    "every form of DESIGN.md parses",
    arguments: [
      ("launch", Command.launch), ("restart", .restart), ("foreground", .foreground),
      ("background", .background),
      ("contact-key set user@example.com", .edit(.setContactKey("user@example.com"))),
      ("contact-key clear", .edit(.clearContactKey)),
      ("attr set CODE FREE99", .edit(.setAttribute(key: "CODE", value: "FREE99"))),
      (
        #"attr set "Favorite Color" "deep blue""#,
        .edit(.setAttribute(key: "Favorite Color", value: "deep blue"))
      ),
      (#"attr set CODE """#, .edit(.setAttribute(key: "CODE", value: ""))),
      ("attr clear CODE", .edit(.clearAttribute(key: "CODE"))),
      ("tag add sports", .edit(.addTag("sports"))),
      ("tag remove sports", .edit(.removeTag("sports"))),
      ("system set timezone -14400", .edit(.setSystem(.timezone, "-14400"))),
      ("system set push-enabled false", .edit(.setSystem(.pushEnabled, "false"))),
      ("server fail 503", .server(.fail(status: 503, times: nil, retryAfter: nil, duration: nil))),
      (
        "server fail 503 times 3",
        .server(.fail(status: 503, times: 3, retryAfter: nil, duration: nil))
      ),
      (
        "server fail 429 retry-after 120 for 10m",
        .server(.fail(status: 429, times: nil, retryAfter: 120, duration: 600))
      ),
      ("server down", .server(.down)), ("server up", .server(.up)), ("server hang", .server(.hang)),
      ("server define-attribute CODE", .server(.defineAttribute("CODE"))),
      (#"  tag   add   'it''s'  "#, .edit(.addTag("its"))),
      (#"tag add it\'s"#, .edit(.addTag("it's"))),
    ])
  func parses(line: String, expected: Command) throws {
    #expect(try CommandParser.parse(line) == expected)
  }

  @Test("a command prints back as a line that parses to itself")
  func roundTrip() throws {
    for command: Command in [
      .edit(.setAttribute(key: "Favorite Color", value: "say \"hi\" \\ now")),
      .edit(.addTag("plain")), .server(.fail(status: 429, times: 2, retryAfter: 60, duration: nil)),
      .edit(.setSystem(.locale, "fr_FR")), .edit(.setAttribute(key: "EMPTY", value: "")),
    ] {
      #expect(try CommandParser.parse(command.description) == command)
    }
  }

  @Test(
    "errors give the column and what was expected",
    arguments: [
      ("tga add sports", 1, "Did you mean \"tag\"?"),
      ("tag ad sports", 5, "Did you mean \"add\"?"),
      ("attr set CODE", 14, "expected the value"),
      ("system set timezon 0", 12, "Did you mean \"timezone\"?"),
      ("server fail 200", 13, "400 to 599"),
      ("server fail 503 times x", 23, "whole number"),
      ("server fail 503 tims 3", 17, "Did you mean \"times\"?"),
      (#"tag add "unclosed"#, 9, "never closed"),
      ("launch now", 8, "expected the end of the line"),
      ("", 1, "expected a command"),
    ])
  func errors(line: String, column: Int, says: String) {
    #expect {
      _ = try CommandParser.parse(line)
    } throws: { error in
      guard let error = error as? CommandError else { return false }
      return error.column == column && error.message.contains(says)
    }
  }

  @Test("S7 via the command language: server commands become the server's faults")
  func serverCommands() async throws {
    let clock = VirtualClock(start: Instant(100))
    let server = try LocalEngagementServer(
      settings: ServerSettings(appID: "app", accessToken: "t"), store: ServerStore.inMemory(),
      clock: clock)
    try await CommandParser.parse("server fail 429 retry-after 120 for 10m").server?.apply(
      to: server)
    #expect(
      await server.fault == ServerFault(kind: .status(429, retryAfter: 120), until: Instant(700)))
    try await CommandParser.parse("server down").server?.apply(to: server)
    #expect(await server.isDown())
    try await CommandParser.parse("server up").server?.apply(to: server)
    #expect(await server.fault == nil)
    try await CommandParser.parse("server define-attribute CODE").server?.apply(to: server)
    #expect(await server.settings.definedAttributes == ["CODE"])
  }
}

extension Command {
  var server: ServerCommand? {
    if case .server(let command) = self { return command }
    return nil
  }
}

@Suite("server fail options, each once")
struct ServerFailOptionTests {
  @Test("an option given twice is an error naming it and its column")
  func twice() {
    #expect {
      _ = try CommandParser.parse("server fail 503 times 2 times 3")
    } throws: { error in
      "\(error)".contains("times is given twice")
    }
  }
}
