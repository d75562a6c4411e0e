import RegistrationCore

/// A QA run's checklist, in the receiver's layout: each step with its verdict, the running one
/// highlighted with its instruction and countdown, and the step opened with `[`/`]` showing its
/// evidence.
enum QAPane {
  static func title(_ qa: QAChecklist) -> String {
    let passed = qa.items.filter { $0.verdict == "pass" }.count
    let state =
      qa.finished
      ? (passed == qa.items.count ? "passed" : "failed") + ", \(passed) of \(qa.items.count)"
      : "\(passed) of \(qa.items.count) passed"
    return "QA · \(TerminalText.escaped(qa.plan)) (\(state))"
  }

  /// The lines, and the row to keep in view (the running or the opened step).
  static func lines(_ model: InspectorModel, _ qa: QAChecklist, width: Int)
    -> (lines: [Line], focusRow: Int)
  {
    var lines: [Line] = []
    var focusRow = 0
    for (index, item) in qa.items.enumerated() {
      let running = index == qa.current
      let opened = index == model.receiver.qaOpened
      if running || opened { focusRow = lines.count }
      let (mark, role) = self.mark(item.verdict, running: running, glyphs: model.glyphs)
      lines.append([
        (mark + " ", role),
        (
          TextWidth.truncate(
            "\(index + 1). \(TerminalText.escaped(item.summary))", to: max(10, width - 2)),
          running ? .accent : item.verdict == nil ? .dim : .normal
        ),
      ])
      if running { lines += runningLines(model, qa, width: width) }
      if opened {
        let evidence = item.evidence.isEmpty ? ["(not decided yet)"] : item.evidence
        lines += evidence.map {
          [("     " + TextWidth.truncate(TerminalText.escaped($0), to: max(10, width - 5)), .dim)]
        }
      }
    }
    if qa.finished {
      lines.append([("the run is over: [ and ] open each step's evidence", .dim)])
    }
    return (lines, focusRow)
  }

  static func runningLines(_ model: InspectorModel, _ qa: QAChecklist, width: Int)
    -> [Line]
  {
    if let ask = qa.ask {
      return TextWidth.wrap(TerminalText.escaped(ask), width: max(10, width - 5)).map {
        [("     " + $0, .normal)]
      } + [[("     press Enter when done", .countdown)]]
    }
    guard let deadline = qa.deadline else { return [] }
    var text = "     time left \(DurationText.describe(max(0, deadline - model.now).rounded(.up)))"
    if let next = qa.nextAllowed {
      let left = next - model.now
      text +=
        left > 0
        ? "; the SDK may register in \(DurationText.describe(left.rounded(.up)))"
        : "; the SDK may register now"
    }
    return [[(text, .countdown)]]
  }

  static func mark(_ verdict: String?, running: Bool, glyphs: Glyphs) -> Span {
    switch verdict {
    case "pass": (glyphs.check, .success)
    case "fail": (glyphs.cross, .error)
    case "timed out": ("!", .warning)
    default: (running ? ">" : glyphs.bullet, running ? .accent : .dim)
    }
  }
}
