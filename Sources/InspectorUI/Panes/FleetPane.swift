import Fleet
import RegistrationCore
import SessionValues

/// A computed fleet as the Fleet view plays it: the whole run in `playSeconds` of the clock.
public struct FleetShow: Sendable {
  public static let defaultDevices = 10_000
  public var plan: FleetPlan
  public var reports: [FleetReport]
  public var startedAt: Instant
  public var playSeconds: Double

  public init(
    plan: FleetPlan, reports: [FleetReport], startedAt: Instant, playSeconds: Double = 60
  ) {
    self.plan = plan
    self.reports = reports
    self.startedAt = startedAt
    self.playSeconds = playSeconds
  }

  /// The default fleet: the three strategies on one population.
  public static func defaultPlans(outage: FleetPlan.Outage? = nil) -> [FleetPlan] {
    FleetPlan.Strategy.allCases.map {
      FleetPlan(devices: defaultDevices, strategy: $0, outage: outage)
    }
  }

  /// How far into the run the view has played, in the fleet's virtual seconds.
  public func cursor(at now: Instant) -> Double {
    min(plan.duration, max(0, (now - startedAt) / playSeconds * plan.duration))
  }
}

/// The Fleet view: each strategy's registrations a minute drawn up to the play cursor, its
/// counters so far, and the end-of-run comparison a marketer reads.
enum FleetPane {
  static func draw(_ model: InspectorModel, _ show: FleetShow, _ canvas: inout Canvas) {
    let cursor = show.cursor(at: model.now)
    let minute = Int(cursor / 60)
    let days = max(1, Int((show.plan.duration / 86_400).rounded(.up)))
    let top = model.headerRows
    let tableHeight = 8
    let chartsHeight = model.height - 1 - top - tableHeight
    let each = max(4, chartsHeight / max(1, show.reports.count))
    for (index, report) in show.reports.enumerated() {
      let rect = Rect(x: 0, y: top + index * each, width: model.width, height: each)
      let played = Array(report.perMinute.prefix(minute + 1))
      let sent = played.reduce(0, +)
      let title =
        "\(report.strategy.rawValue) · day \(min(Int(cursor / 86_400) + 1, days)) of \(days) · registrations so far \(sent) · busiest minute so far \(played.max() ?? 0)"
      canvas.box(rect, title: title, focused: index == 0)
      let inner = rect.inner
      // Columns cover the whole run; only those up to the cursor are drawn yet.
      let all = FleetText.chart(report.perMinute, width: inner.width, height: inner.height)
      let shownColumns = Int(Double(inner.width) * cursor / show.plan.duration)
      for (row, line) in all.enumerated() {
        canvas.line(inner, row, [(String(line.prefix(shownColumns)), .accent)])
      }
      if let outage = report.outage {
        let from = Int(Double(inner.width) * outage.start / show.plan.duration)
        let to = Int(Double(inner.width) * min(1, outage.end / show.plan.duration))
        canvas.buffer.setRole(
          .error, x: inner.x + from, y: inner.y + inner.height - 1, count: max(1, to - from))
      }
    }
    let table = Rect(
      x: 0, y: top + show.reports.count * each, width: model.width,
      height: model.height - 1 - (top + show.reports.count * each))
    canvas.box(table, title: "At the end of the run (\(show.plan.devices) devices)", focused: false)
    let columns = show.reports.map { TextWidth.column($0.strategy.rawValue, 16) }.joined()
    var lines: [Line] = [[(TextWidth.column("", 38) + columns, .header)]]
    func row(_ label: String, _ value: (FleetReport) -> Int, _ role: StyleRole) {
      lines.append([
        (TextWidth.column(label, 38), .dim),
        (show.reports.map { TextWidth.column("\(value($0))", 16) }.joined(), role),
      ])
    }
    row("contacts billed (distinct)", \.distinctContacts, .normal)
    row("orphaned: unreachable, still billed", \.orphanedContacts, .warning)
    row("made up by the server", \.madeUpContacts, .normal)
    row("devices never registered", \.neverRegistered, .warning)
    row("peak registrations a minute", \.peakPerMinute, .normal)
    for (index, segments) in lines.enumerated() { canvas.line(table.inner, index, segments) }
  }
}
