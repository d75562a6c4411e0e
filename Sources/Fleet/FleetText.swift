import Foundation
import RegistrationCore

/// A fleet option that cannot be read, with what was expected.
public struct FleetProblem: Error, CustomStringConvertible, Hashable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// A fleet's results in words, a terminal chart, JSON, CSV and SVG.
public enum FleetText {
  /// `5d+6h:503`, `2d+30m:429@120` (Retry-After 120 s), `1d+2h:down`.
  public static func outage(_ text: String) -> Result<FleetPlan.Outage, FleetProblem> {
    let (window, kindText) =
      text.split(separator: ":", maxSplits: 1).map(String.init).splitFirst()
    let parts = window.split(separator: "+", maxSplits: 1).map(String.init)
    guard parts.count == 2 else {
      return .failure(
        FleetProblem(
          "expected START+DURATION[:STATUS], e.g. 5d+6h:503; got \"\(TerminalText.escaped(text))\"")
      )
    }
    guard case .success(let start) = DurationText.parse(parts[0]) else {
      return .failure(
        FleetProblem(
          "the start \"\(TerminalText.escaped(parts[0]))\" is not a duration (90s, 5m, 2h, 3d)"))
    }
    guard case .success(let duration) = DurationText.parse(parts[1]), duration > 0 else {
      return .failure(
        FleetProblem("the duration \"\(TerminalText.escaped(parts[1]))\" is not a duration above 0")
      )
    }
    let kind: FleetPlan.OutageKind
    switch kindText {
    case nil: kind = .status(503)
    case "down"?: kind = .down
    case let spec?:
      let pieces = spec.split(separator: "@", maxSplits: 1).map(String.init)
      guard let status = Int(pieces[0]), (400...599).contains(status) else {
        return .failure(
          FleetProblem(
            "the status \"\(TerminalText.escaped(pieces[0]))\" is not 400 to 599 (or down)"))
      }
      if pieces.count == 2 {
        guard case .success(let seconds) = DurationText.parse(pieces[1]) else {
          return .failure(
            FleetProblem("Retry-After \"\(TerminalText.escaped(pieces[1]))\" is not a duration"))
        }
        kind = .retryAfter(status: status, seconds: seconds)
      } else {
        kind = .status(status)
      }
    }
    return .success(FleetPlan.Outage(start: start, duration: duration, kind: kind))
  }

  /// Registrations a minute over the run in `width` columns of block bars, `height` rows:
  /// each column is the average minute of its stretch of time (the peaks are given apart).
  public static func chart(_ perMinute: [Int], width: Int = 72, height: Int = 8) -> [String] {
    guard !perMinute.isEmpty, width > 0 else { return [] }
    let size = max(1, (perMinute.count + width - 1) / width)
    let columns = stride(from: 0, to: perMinute.count, by: size).map { start -> Double in
      let slice = perMinute[start..<min(perMinute.count, start + size)]
      return Double(slice.reduce(0, +)) / Double(slice.count)
    }
    let top = max(1e-9, columns.max() ?? 1)
    let blocks = Array(" ▁▂▃▄▅▆▇█")
    return (0..<height).reversed().map { row in
      String(
        columns.map { value in
          let scaled = value / top * Double(height)
          let fill = min(8, max(0, Int(((scaled - Double(row)) * 8).rounded(.down))))
          return blocks[fill]
        })
    }
  }

  public static func summary(_ reports: [FleetReport], plan: FleetPlan) -> [String] {
    var lines: [String] = []
    let days = DurationText.describe(plan.duration)
    lines.append(
      "\(plan.devices) devices over \(days), seed \(plan.seed): \(Int(plan.loginShare * 100))% log in within \(DurationText.describe(plan.loginWithin)), \(Int(plan.sharedShare * 100))% shared phones, \(Int(plan.reinstallShare * 100))% reinstall"
    )
    if plan.jitter > 0 {
      lines.append(
        "WHAT-IF, not what the SDKs do: each retry spread by up to ±\(Int(plan.jitter * 100))% of its wait"
      )
    }
    if let outage = plan.outage {
      lines.append(
        "outage from \(DurationText.describe(outage.start)) for \(DurationText.describe(outage.duration)): \(describe(outage.kind))"
          + (plan.outageAsked.map {
            " (cut to the run: \(DurationText.describe($0.duration)) asked, the run ends at \(DurationText.describe(plan.duration)))"
          } ?? ""))
    }
    lines.append("")
    let names = reports.map(\.strategy.rawValue)
    func row(_ label: String, _ values: [String]) -> String {
      label.padding(toLength: 34, withPad: " ", startingAt: 0)
        + values.map { $0.padding(toLength: 16, withPad: " ", startingAt: 0) }.joined()
    }
    lines.append(row("", names))
    lines.append(row("contacts billed (distinct)", reports.map { "\($0.distinctContacts)" }))
    lines.append(row("  orphaned (unreachable, billed)", reports.map { "\($0.orphanedContacts)" }))
    lines.append(row("  made up by the server", reports.map { "\($0.madeUpContacts)" }))
    lines.append(row("devices never registered", reports.map { "\($0.neverRegistered)" }))
    lines.append(row("registrations sent", reports.map { "\($0.registrationsSent)" }))
    lines.append(row("  skipped (unchanged, R3.4)", reports.map { "\($0.registrationsSkipped)" }))
    lines.append(row("peak per minute", reports.map { "\($0.peakPerMinute)" }))
    if plan.outage != nil {
      lines.append(
        row(
          "peak per minute after the outage", reports.map { "\($0.peakAfterOutagePerMinute ?? 0)" })
      )
      lines.append(
        row(
          "back to normal after",
          reports.map { $0.catchUpSeconds.map { DurationText.describe($0) } ?? "not in the run" }))
    }
    for report in reports {
      lines.append("")
      let columns = chart(report.perMinute)
      let size = max(1, (report.perMinute.count + 71) / 72)
      let top =
        stride(from: 0, to: report.perMinute.count, by: size).map { start in
          let slice = report.perMinute[start..<min(report.perMinute.count, start + size)]
          return Double(slice.reduce(0, +)) / Double(slice.count)
        }.max() ?? 0
      lines.append(
        "\(report.strategy.rawValue): registrations a minute, averaged over \(DurationText.describe(Double(size) * 60)) a column (top \(NumberText.compact((top * 10).rounded() / 10))), 0 to \(days)"
      )
      lines += columns.map { "  │" + $0 }
    }
    return lines
  }

  static func describe(_ kind: FleetPlan.OutageKind) -> String {
    switch kind {
    case .status(let status): "every registration answered \(status)"
    case .retryAfter(let status, let seconds):
      "every registration answered \(status) with Retry-After \(DurationText.describe(seconds))"
    case .down: "the server is down (connection refused)"
    }
  }

  /// The issue's JSON: `{"strategies": [{...}]}`, `t` in virtual seconds.
  public static func json(_ reports: [FleetReport]) -> String {
    let items = reports.map { report -> String in
      let series = report.perMinute.enumerated().filter { $0.element > 0 }
        .map { #"{"t":\#($0.offset * 60),"registrations":\#($0.element)}"# }.joined(separator: ",")
      let afterOutage = report.peakAfterOutagePerMinute.map(String.init) ?? "null"
      let catchUp = report.catchUpSeconds.map { NumberText.compact($0) } ?? "null"
      return
        #"{"strategy":"\#(report.strategy.rawValue)","devices":\#(report.devices),"distinctContacts":\#(report.distinctContacts),"orphanedContacts":\#(report.orphanedContacts),"madeUpContacts":\#(report.madeUpContacts),"neverRegistered":\#(report.neverRegistered),"registrationsSent":\#(report.registrationsSent),"registrationsSkipped":\#(report.registrationsSkipped),"peakPerMinute":\#(report.peakPerMinute),"peakAfterOutagePerMinute":\#(afterOutage),"catchUpSeconds":\#(catchUp),"series":[\#(series)]}"#
    }
    return #"{"strategies":[\#(items.joined(separator: ","))]}"#
  }

  /// One row a minute: `t,<strategy>,<strategy>...` for a spreadsheet.
  public static func csv(_ reports: [FleetReport]) -> String {
    var lines = ["t," + reports.map(\.strategy.rawValue).joined(separator: ",")]
    let minutes = reports.map(\.perMinute.count).max() ?? 0
    for minute in 0..<minutes {
      lines.append(
        "\(minute * 60),"
          + reports.map { "\(minute < $0.perMinute.count ? $0.perMinute[minute] : 0)" }
          .joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension FleetText {
  /// A picture for a slide: the strategies' numbers side by side, and each one's
  /// registrations a minute over the run, with the outage shaded.
  public static func svg(_ reports: [FleetReport], plan: FleetPlan) -> String {
    let width = 1060.0
    let chartHeight = 140.0
    let top = 150.0
    let height = top + Double(reports.count) * (chartHeight + 40) + 20
    var parts: [String] = []
    parts.append(
      #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(width))" height="\#(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="13">"#
    )
    parts.append(#"<rect width="100%" height="100%" fill="white"/>"#)
    parts.append(
      #"<text x="20" y="28" font-size="18" font-weight="bold">\#(xml("\(plan.devices) devices over \(DurationText.describe(plan.duration))"))</text>"#
    )
    let columns = [
      "strategy", "billed", "orphaned", "made up", "never registered", "peak/min",
      "peak after outage",
    ]
    for (column, title) in columns.enumerated() {
      parts.append(
        #"<text x="\#(20 + column * 145)" y="60" font-weight="bold">\#(xml(title))</text>"#)
    }
    for (row, report) in reports.enumerated() {
      let values = [
        report.strategy.rawValue, "\(report.distinctContacts)", "\(report.orphanedContacts)",
        "\(report.madeUpContacts)", "\(report.neverRegistered)", "\(report.peakPerMinute)",
        report.peakAfterOutagePerMinute.map(String.init) ?? "-",
      ]
      for (column, value) in values.enumerated() {
        parts.append(
          #"<text x="\#(20 + column * 145)" y="\#(84 + row * 20)">\#(xml(value))</text>"#)
      }
    }
    for (index, report) in reports.enumerated() {
      let y = top + Double(index) * (chartHeight + 40)
      let plotWidth = width - 40
      parts.append(
        #"<text x="20" y="\#(y + 14)" font-weight="bold">\#(xml(report.strategy.rawValue)): registrations a minute (peak \#(report.peakPerMinute))</text>"#
      )
      let base = y + 20 + chartHeight
      if let outage = report.outage {
        let x0 = 20 + outage.start / plan.duration * plotWidth
        let x1 = 20 + min(1, outage.end / plan.duration) * plotWidth
        parts.append(
          ##"<rect x="\##(x0)" y="\##(y + 20)" width="\##(max(1, x1 - x0))" height="\##(chartHeight)" fill="#f6d5d5"/>"##
        )
      }
      let buckets = 480
      let size = max(1, (report.perMinute.count + buckets - 1) / buckets)
      let values = stride(from: 0, to: report.perMinute.count, by: size).map {
        report.perMinute[$0..<min(report.perMinute.count, $0 + size)].max() ?? 0
      }
      let peak = Double(max(1, values.max() ?? 1))
      let step = plotWidth / Double(max(1, values.count))
      var path = "M 20 \(base)"
      for (bucket, value) in values.enumerated() {
        let x = 20 + Double(bucket) * step
        path += " L \(x) \(base - Double(value) / peak * chartHeight)"
      }
      path += " L \(20 + plotWidth) \(base) Z"
      parts.append(##"<path d="\##(path)" fill="#4a78b5" stroke="none"/>"##)
      parts.append(
        ##"<line x1="20" y1="\##(base)" x2="\##(20 + plotWidth)" y2="\##(base)" stroke="#333"/>"##)
    }
    parts.append("</svg>")
    return parts.joined(separator: "\n") + "\n"
  }

  static func xml(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}

extension Array where Element == String {
  fileprivate func splitFirst() -> (String, String?) {
    (first ?? "", count > 1 ? self[1] : nil)
  }
}
