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
  /// The expression as the scenario wrote it (`server.distinctContacts == 1`).
  public var text: String
  public var passed: Bool
  public var actual: String
  /// What it proves, in words ("the server holds 1 distinct contact"); nil: the expression
  /// is all there is to show.
  public var sentence: String?

  public init(text: String, passed: Bool, actual: String, sentence: String? = nil) {
    self.text = text
    self.passed = passed
    self.actual = actual
    self.sentence = sentence
  }

  /// What the caption area shows of it: the words, or with `x` the expression.
  func shown(expressions: Bool) -> String { expressions ? text : sentence ?? text }
}

/// A demo's caption area: the current `say:` line and the one before it, the last checks, and
/// how the demo stands. Captions live here, not in the status bar, so the next message never
/// overwrites the sentence a marketer is reading.
public struct DemoCaptions: Sendable, Hashable {
  public enum Found: Sendable, Hashable {
    case checks([DemoCheck])
    case stepFailed(String)
    case fastForward(FastForward)
  }

  /// The quiet stretches fast-forwarded since the last caption or checks: each ends just
  /// before the next thing due (a retry, a processing), which then happens on screen, so the
  /// area says how many there were and what happened between them, never "nothing".
  public struct FastForward: Sendable, Hashable {
    /// Virtual seconds skipped, in all.
    public var skipped: Double
    public var count: Int
    /// The demo's clock when the first of them began.
    public var since: Instant
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
  public var previousAt: Instant?
  /// `x`: the checks as the scenario's expressions rather than in words.
  public var showsExpressions = false
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

  /// Rows the area takes: a box around the previous caption, the current one and the checks,
  /// each wrapped. At 80x24 one more row than the three a caption and its checks need, so a
  /// short previous caption still shows.
  static func rows(height: Int) -> Int { height >= 30 ? 7 : 6 }

  mutating func take(_ note: DemoNote, now: Instant) {
    switch note {
    case .caption(let step, let text, let at):
      if current != text { (previous, previousAt, current) = (current, currentAt, text) }
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
      if case .fastForward(var stretches) = found {
        stretches.skipped += seconds
        stretches.count += 1
        found = .fastForward(stretches)
      } else {
        found = .fastForward(FastForward(skipped: seconds, count: 1, since: now))
      }
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
  /// The caption area. The current caption comes first, then the checks (wrapped, or summed
  /// up when they cannot all fit), then, when the rows left hold it whole, the caption
  /// before: a sentence is never cut.
  static func captions(
    _ demo: DemoCaptions, _ rect: Rect, _ canvas: inout Canvas, now: Instant,
    format: (Instant) -> String, events: [ShownEvent] = []
  ) {
    canvas.box(rect, title: TerminalText.escaped(demo.title(canvas.glyphs)), focused: false)
    let inner = rect.inner
    let width = max(1, inner.width - 2)
    func said(_ text: String?, at: Instant?) -> [String] {
      var said = TerminalText.escaped(text ?? "")
      if let at, now > at { said = "At \(format(at)): " + said }
      return TextWidth.wrap(said, width: width)
    }
    var left = inner.height
    let whole = said(demo.current, at: demo.currentAt)
    var current = Array(whole.prefix(max(1, left - 1)))
    if current.count < whole.count { current[current.count - 1] += canvas.glyphs.ellipsis }
    left -= current.count
    let found =
      demo.found.map {
        foundLines(
          $0, canvas.glyphs, width: width, rows: left, expressions: demo.showsExpressions,
          events: events)
      } ?? []
    left -= found.count
    let previous = said(demo.previous, at: demo.previousAt)
    var lines: [Line] = []
    if demo.previous != nil, previous.count <= left {
      lines += previous.map { [("  " + $0, .dim)] }
    }
    lines += current.map { [("  " + $0, .accent)] }
    lines += found
    for (row, segments) in lines.prefix(inner.height).enumerated() {
      canvas.line(inner, row, segments)
    }
  }
}

extension Panes {
  /// What the demo found, in at most `rows` rows `width` wide (after a two-column margin):
  /// every check whole, wrapped between checks; when they do not fit, the failures whole, the
  /// checks that held as far as they fit and how many more held; when even that does not
  /// fit, the counts alone.
  static func foundLines(
    _ found: DemoCaptions.Found, _ glyphs: Glyphs, width: Int, rows: Int, expressions: Bool,
    events: [ShownEvent] = []
  ) -> [Line] {
    guard rows > 0 else { return [] }
    switch found {
    case .checks(let checks):
      let items = checks.map { check -> Span in
        let shown = text(check.shown(expressions: expressions))
        return check.passed
          ? ("\(glyphs.check) \(shown)", .success)
          : ("\(glyphs.cross) \(shown) (\(text(check.actual)))", .error)
      }
      let full = flow(items, width: width)
      if full.count <= rows { return full }
      // Too many to show whole: every failure, as many of the checks that held as fit, and
      // how many more held.
      let held = checks.filter(\.passed).count
      for shownHeld in stride(from: held - 1, through: 0, by: -1) {
        var kept: [Span] = []
        var heldSoFar = 0
        for (check, item) in zip(checks, items) {
          if check.passed {
            heldSoFar += 1
            if heldSoFar > shownHeld { continue }
          }
          kept.append(item)
        }
        let more = held - shownHeld
        kept.append(("\(glyphs.check) \(more)\(shownHeld > 0 ? " more" : "") held", .success))
        let lines = flow(kept, width: width)
        if lines.count <= rows { return lines }
      }
      return [
        [
          ("  ", .normal), ("\(glyphs.check) \(held) held", .success),
          ("   \(glyphs.cross) \(checks.count - held) failed", .error),
        ]
      ]
    case .stepFailed(let message):
      return Array(
        TextWidth.wrap("\(glyphs.cross) \(text(message))", width: width).prefix(rows).map {
          [("  " + $0, .error)]
        })
    case .fastForward(let stretches):
      return Array(
        TextWidth.wrap(fastForwarded(stretches, events: events), width: width).prefix(rows).map {
          [("  " + $0, .dim)]
        })
    }
  }

  /// "fast-forwarded 3 times (7 h 58 min in all), each to just before the next thing due;
  /// meanwhile 3 sends failed": what the skipping did, and what happened between the skips
  /// (the sends since the first, from the events).
  static func fastForwarded(_ stretches: DemoCaptions.FastForward, events: [ShownEvent])
    -> String
  {
    let skipped = DurationText.describe(stretches.skipped.rounded())
    var said =
      stretches.count == 1
      ? "fast-forwarded \(skipped), to just before the next thing due"
      : "fast-forwarded \(stretches.count) times (\(skipped) in all), each to just before the next thing due"
    var (failed, sent) = (0, 0)
    for event in events.reversed() {
      // What happened at the instant the first skip began came before it.
      guard event.event.t > stretches.since else { break }
      if event.kind == .failed { failed += 1 }
      if event.kind == .sent { sent += 1 }
    }
    let sends = { (count: Int) in "\(count) send\(count == 1 ? "" : "s")" }
    switch (failed, sent) {
    case (0, 0): break
    case (_, 0): said += "; meanwhile \(sends(failed)) failed"
    case (0, _): said += "; meanwhile \(sends(sent)) went through"
    default: said += "; meanwhile \(sends(failed)) failed and \(sent) went through"
    }
    return said
  }

  /// Items laid out left to right, three spaces apart, a row as wide as `width`; an item wider
  /// than a row goes on over the next ones.
  static func flow(_ items: [Span], width: Int) -> [Line] {
    var lines: [Line] = []
    var line: Line = []
    var used = 0
    for (text, role) in items {
      let wide = TextWidth.of(text)
      if used > 0, used + 3 + wide > width {
        lines.append([("  ", .normal)] + line)
        (line, used) = ([], 0)
      }
      if wide > width {
        if !line.isEmpty { lines.append([("  ", .normal)] + line) }
        lines += TextWidth.wrap(text, width: width).map { [("  " + $0, role)] }
        (line, used) = ([], 0)
        continue
      }
      if used > 0 {
        line.append(("   ", .normal))
        used += 3
      }
      line.append((text, role))
      used += wide
    }
    if !line.isEmpty { lines.append([("  ", .normal)] + line) }
    return lines
  }
}
