import EngagementCore
import Foundation
import HAR
import QA
import RegistrationCore
import Scenarios
import Session
import SessionHTTP
import SystemCalls

/// The tools that need no receiver: captures and scenarios from files, and the plans. A path
/// is the assistant's to choose, so each file is checked for its kind and size before a byte
/// of it is read: a 1 GB capture or scenario is refused with the limit, not held in memory.
extension RegScopeTools {
  func judgeCapture(_ path: String) -> Answer {
    let shown = TerminalText.escaped(path)
    switch SystemCalls.fileInfo(path) {
    case .failure(let failure):
      return .error("\(shown): cannot be read (\(TerminalText.escaped("\(failure)")))")
    case .success(let file):
      guard file.kind == .regular else {
        return .error("\(shown): not a regular file that can be read")
      }
      guard file.size <= Int64(Self.largestCapture) else {
        return .error(
          "\(shown) is \(file.size) bytes; judge_capture reads captures up to \(Self.largestCapture >> 20) MiB, as regctl judge does (the largest capture --har writes)"
        )
      }
    }
    do {
      let (judge, source) = try Self.judged(path)
      return Answer(text: CaptureText.report(judge, sources: [source]), isError: false)
    } catch {
      return .error(TerminalText.escaped("\(error)"))
    }
  }

  func runScenario(_ name: String) async -> Answer {
    let scenario: Scenario
    do {
      // The order both tools use (`BuiltInScenarios.load`): a file first, then a built-in.
      if FileManager.default.fileExists(atPath: name) || name.hasSuffix(".yaml")
        || name.hasSuffix(".yml")
      {
        scenario = try ScenarioParser.parse(try scenarioFile(name), source: name)
      } else if let entry = BuiltInScenarios.named(name) {
        scenario = try BuiltInScenarios.scenario(entry)
      } else {
        return .error(
          "no scenario file or built-in named \"\(TerminalText.escaped(name))\"; the built-ins are \(BuiltInScenarios.all.map(\.name).joined(separator: ", "))"
        )
      }
    } catch let refusal as Answer {
      return refusal
    } catch {
      return .error(TerminalText.escaped("\(error)"))
    }
    do {
      let report = try await ScenarioRunner.run(
        scenario, factory: SessionFactory(network: HTTPNetwork()), overHTTP: false, sdk: nil
      ) { _ in }
      return Answer(text: TimelinePrinter.summary(report), isError: false)
    } catch {
      return .error(TerminalText.escaped("\(error)"))
    }
  }

  /// A scenario file's text, read only when it is a regular file of at most
  /// `largestScenario` bytes.
  private func scenarioFile(_ path: String) throws(Answer) -> String {
    let shown = TerminalText.escaped(path)
    switch SystemCalls.readFile(path, atMost: Self.largestScenario) {
    case .failure(.tooLarge(let size, _)):
      throw .error(
        "\(shown) is \(size) bytes; run_scenario reads scenario files up to \(Self.largestScenario >> 20) MiB"
      )
    case .failure(.notRegular), .failure(.directory):
      throw .error("\(shown): not a regular file that can be read")
    case .failure(let refusal):
      throw .error("\(shown) \(TerminalText.escaped(refusal.description))")
    case .success(let bytes):
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw .error("\(shown) is not UTF-8 text")
      }
      return text
    }
  }

  func listPlans() -> Answer {
    let lines = BuiltInPlans.names.compactMap { name in
      BuiltInPlans.plan(name).map { "\(name): \($0.description)" }
    }
    return Answer(
      text: lines.joined(separator: "\n") + "\n(run one on a real app with regctl qa NAME)",
      isError: false)
  }
}
