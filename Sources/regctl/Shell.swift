import ArgumentParser
import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Scenarios
import Session
import SessionHTTP
import SessionValues
import StateDumps
import ToolSupport

struct Shell: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Type commands against a persistent engine in real or scaled time.",
    discussion: """
      Reads one command a line, from a terminal or a pipe, and prints events as they happen. \
      The app is launched when the shell starts. With no --server and no --config the local \
      server runs in process; with them the engine talks to that endpoint, a real Marketing \
      Cloud tenant included. Besides the command language: help, state, wait DURATION, \
      jump (to the next deadline), quit.
      """)

  @OptionGroup var options: SessionOptions

  @Flag(help: "Print everything as JSON lines: events, messages, help and state.")
  var json = false

  func run() async throws {
    let json = self.json
    let folder = StateDirectory.resolve(options.state)
    let speed = options.speed ?? 1
    let session: DeviceSession
    do {
      let persistent = PersistentDevice(
        folder: folder, config: options.config, configName: options.configName,
        server: options.server, speed: speed, resetState: options.resetState,
        sdk: options.sdk.profile)
      let opened = try await SessionFactory(network: HTTPNetwork()).open(
        .persistent(persistent),
        log: RunLog(limit: RunLog.liveLimit) { event in
          let line = LiveLine.event(event, json: json, in: .system)
          if json { Output.jsonLine(line) } else { Output.line(line) }
        })
      guard let device = opened.device else { throw SessionError.noDevice("shell") }
      session = device
    } catch {
      Output.error("regctl: \(error)")
      throw ExitCode(2)
    }
    if !json {
      let target = session.engineConfiguration
      Output.line(
        "regctl shell: app \(target.appID) -> \(session.destination), sdk \(target.profile.spelled), token \(target.accessToken.masked), state \(session.storeLocation), speed \(speed)x"
      )
      for warning in target.startupWarnings { Output.line("warning: \(warning)") }
      Output.line("Type a command (help lists them), quit to leave.")
    }
    _ = try await session.execute(.launch)
    for await line in StandardInput.lines() {
      let text = InputRules.trimmed(line)
      if text.isEmpty || text.hasPrefix("#") { continue }
      if try await !ShellCommands.handle(text, session: session, json: json) { break }
    }
    await session.stop()
  }
}

/// The shell's own words around the command language.
enum ShellCommands {
  /// Returns false to quit.
  static func handle(_ text: String, session: DeviceSession, json: Bool) async throws -> Bool {
    // The shell's own words in any case, as a person types them ("QUIT").
    switch text.split(separator: " ").first.map { $0.lowercased() } ?? "" {
    case "quit", "exit":
      return false
    case "help":
      if json {
        let forms = CommandParser.forms.map(JSONText.quoted).joined(separator: ",")
        let shell = ["help", "state", "wait DURATION", "jump", "quit"].map(JSONText.quoted)
        Output.jsonLine(
          #"{"type":"help","commands":[\#(forms)],"shell":[\#(shell.joined(separator: ","))]}"#)
      } else {
        Output.line("Commands:\n  " + CommandParser.forms.joined(separator: "\n  "))
        Output.line("Shell: help, state, wait DURATION, jump, quit")
      }
      return true
    case "state":
      if let snapshot = try await session.deviceSnapshot() {
        let history = try await session.engine?.history(limit: 10) ?? []
        if json {
          // One line: the state record, as `regctl state --json` prints it, under its type.
          let state = StateReport.json(snapshot, history: history, compact: true)
          Output.jsonLine(#"{"type":"state","state":\#(state)}"#)
        } else {
          Output.line(StateReport.json(snapshot, history: history))
        }
      }
      return true
    case "wait":
      let argument = text.dropFirst(4).trimmingCharacters(in: .whitespaces)
      let seconds: Double
      switch DurationText.parse(argument) {
      case .success(let value): seconds = value
      case .failure(let problem):
        report("wait: \(problem)", json: json)
        return true
      }
      try? await session.sleep(until: session.now + seconds)
      return true
    case "jump":
      if await session.jumpToNextDeadline() == nil { report("nothing is scheduled", json: json) }
      return true
    default:
      break
    }
    let command: Command
    do {
      command = try CommandParser.parse(text)
    } catch {
      report("error: \(error); the shell's own: help, state, wait DURATION, jump, quit", json: json)
      return true
    }
    do {
      if let message = try await session.execute(command).unsaid { report(message, json: json) }
    } catch {
      report("error: \(error)", json: json)
    }
    return true
  }

  static func report(_ message: String, json: Bool) {
    if json {
      Output.jsonLine(#"{"type":"message","message":\#(JSONText.quoted(message))}"#)
    } else {
      Output.line(TerminalText.escaped(message))
    }
  }
}

/// Lines from standard input, read on a thread of their own so no task blocks on them.
enum StandardInput {
  static func lines() -> AsyncStream<String> {
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    let thread = Thread {
      while let line = readLine(strippingNewline: true) { continuation.yield(line) }
      continuation.finish()
    }
    thread.start()
    return stream
  }
}
