import Foundation
import TestSupport
import Testing

/// `regscope --help` and `regctl --help` read as their manual pages do (scripts/manual-page.sh
/// makes the same EXAMPLES and EXIT STATUS paragraphs the page's sections): what the tool is,
/// its usage, its options, examples that run, and what each exit status means.
@Suite("the tools' help, as their manual pages", .timeLimit(.minutes(10)))
struct HelpPagesTests {
  @Test("the help has the page's sections, and the exit statuses every command uses")
  func sections() async throws {
    for tool in ["regscope", "regctl"] {
      let help = try await runProcess(builtProduct(tool), ["--help"]).stdout
      for heading in ["OVERVIEW:", "USAGE:", "OPTIONS:", "EXAMPLES:", "EXIT STATUS:"] {
        #expect(help.contains(heading), "\(tool) --help has no \(heading)")
      }
      let statuses = paragraph(after: "EXIT STATUS:", in: help).compactMap {
        $0.split(separator: " ").first.flatMap { Int($0) }
      }
      // 64 is ArgumentParser's for a wrong option; 130 a QA run stopped.
      #expect(statuses == [0, 1, 2, 64, 130], "\(tool): \(statuses)")
    }
  }

  @Test("every example names a subcommand that exists and options its help lists")
  func examplesParse() async throws {
    for tool in ["regscope", "regctl"] {
      let help = try await runProcess(builtProduct(tool), ["--help"]).stdout
      let examples = paragraph(after: "EXAMPLES:", in: help).compactMap {
        ShownCommand($0.trimmingCharacters(in: .whitespaces), source: "\(tool) --help")
      }
      #expect(examples.count >= 5, "\(tool): \(examples)")
      for example in examples {
        #expect(example.tool == tool, "\(example)")
        let arguments = (example.subcommand.map { [$0] } ?? []) + ["--help-hidden"]
        let output = try await runProcess(builtProduct(tool), arguments)
        #expect(output.status == 0, "\(example): \(output.stderr)")
        // The options only, after the usage: the top command's help holds the examples too.
        let usageOn = output.stdout.components(separatedBy: "USAGE:").last ?? ""
        let options = usageOn.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
        for flag in example.flags {
          #expect(
            options.contains(flag + " ") || options.contains(flag + "\n")
              || options.contains(flag + ","), "\(example): \(flag) is not an option")
        }
      }
    }
  }

  /// The indented lines under a heading of the help, up to the next empty line.
  private func paragraph(after heading: String, in help: String) -> [String] {
    let after = help.components(separatedBy: heading + "\n").dropFirst().first ?? ""
    return after.split(separator: "\n", omittingEmptySubsequences: false)
      .prefix { !$0.isEmpty }.map(String.init).filter {
        $0.hasPrefix("  ") && !$0.hasPrefix("    ")
      }
  }
}
