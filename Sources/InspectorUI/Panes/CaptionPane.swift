import RegistrationCore

/// What a demo tells the screen as it plays (`regscope --scenario`).
public enum DemoNote: Sendable, Hashable {
  /// A step's `say:` line, and the instant of its step.
  case caption(step: Int, text: String, at: Instant? = nil)
  /// A step's checks, each with its verdict and, when it failed, what was found.
  case checks(step: Int, [DemoCheck])
  /// A step's command could not be carried out.
  case stepFailed(step: Int, message: String)
  /// The quiet stretch up to the next thing was fast-forwarded.
  case fastForward(seconds: Double)
  /// The demo ended: how its checks went.
  case finished(passed: Int, failed: Int, errors: Int)
}

public struct DemoCheck: Sendable, Hashable {
  public var text: String
  public var passed: Bool
  public var actual: String

  public init(text: String, passed: Bool, actual: String) {
    self.text = text
    self.passed = passed
    self.actual = actual
  }
}

/// A demo's caption area: the current `say:` line and the one before it, the last checks, and
/// how the demo stands. Captions live here, not in the status bar, so the next message never
/// overwrites the sentence a marketer is reading.
public struct DemoCaptions: Sendable, Hashable {
  public enum Found: Sendable, Hashable {
    case checks([DemoCheck])
    case stepFailed(String)
    case fastForward(Double)
  }

  public var name: String
  public var steps: Int
  /// `--step`: Space takes the demo on.
  public var stepByStep: Bool
  public var current: String?
  /// The instant the current caption's step came at: once the clock has walked on past it,
  /// the caption says when it was true (a long stretch of retries follows some captions).
  public var currentAt: Instant?
  public var previous: String?
  public var step = 0
  /// The last thing the demo found: a step's checks, a failed command, a fast-forward.
  public var found: Found?
  public var passed = 0
  public var failed = 0
  public var finished = false

  public init(name: String, description: String, steps: Int, stepByStep: Bool = false) {
    self.name = name
    self.steps = steps
    self.stepByStep = stepByStep
    current = description
  }

  /// Rows the area takes: a box around the previous caption, the current one (two rows) and
  /// the checks.
  static func rows(height: Int) -> Int { height >= 30 ? 6 : 5 }

  mutating func take(_ note: DemoNote) {
    switch note {
    case .caption(let step, let text, let at):
      if current != text { (previous, current) = (current, text) }
      currentAt = at
      self.step = step
      found = nil
    case .checks(let step, let checks):
      self.step = step
      passed += checks.filter(\.passed).count
      failed += checks.filter { !$0.passed }.count
      found = .checks(checks)
    case .stepFailed(let step, let message):
      self.step = step
      failed += 1
      found = .stepFailed(message)
    case .fastForward(let seconds):
      found = .fastForward(seconds)
    case .finished:
      finished = true
    }
  }

  func title(_ glyphs: Glyphs) -> String {
    let progress = finished ? "finished" : "step \(step)/\(steps)"
    let checks =
      passed + failed == 0
      ? "" : " · checks \(passed) \(glyphs.check) \(failed) \(glyphs.cross)"
    return "Demo \(name) · \(progress)\(checks)\(stepByStep && !finished ? " · Space: next" : "")"
  }
}

extension Panes {
  static func captions(
    _ demo: DemoCaptions, _ rect: Rect, _ canvas: inout Canvas, now: Instant,
    format: (Instant) -> String
  ) {
    canvas.box(rect, title: TerminalText.escaped(demo.title(canvas.glyphs)), focused: false)
    let inner = rect.inner
    var lines: [Line] = []
    if inner.height >= 4 {
      lines.append([("  " + TerminalText.escaped(demo.previous ?? ""), .dim)])
    }
    var said = TerminalText.escaped(demo.current ?? "")
    if let at = demo.currentAt, now > at { said = "At \(format(at)): " + said }
    let current = TextWidth.wrap(said, width: max(1, inner.width - 2))
    for row in current.prefix(2) { lines.append([("  " + row, .accent)]) }
    if current.count < 2 { lines.append([("", .normal)]) }
    if let found = demo.found { lines.append(foundLine(found, canvas.glyphs)) }
    for (row, segments) in lines.prefix(inner.height).enumerated() {
      canvas.line(inner, row, segments)
    }
  }
}

extension Panes {
  static func foundLine(_ found: DemoCaptions.Found, _ glyphs: Glyphs) -> Line {
    switch found {
    case .checks(let checks):
      var line: Line = [("  ", .normal)]
      for check in checks {
        line.append(
          check.passed
            ? ("\(glyphs.check) \(text(check.text))   ", .success)
            : ("\(glyphs.cross) \(text(check.text)) (\(text(check.actual)))   ", .error))
      }
      return line
    case .stepFailed(let message):
      return [("  \(glyphs.cross) \(text(message))", .error)]
    case .fastForward(let seconds):
      return [
        (
          "  fast-forward \(DurationText.describe(seconds.rounded())): nothing happens meanwhile",
          .dim
        )
      ]
    }
  }
}
