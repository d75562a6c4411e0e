import Fleet
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("fleet options and reports")
struct FleetTextTests {
  @Test("outages as people write them; anything else is refused with what was expected")
  func outages() throws {
    let plain = try FleetText.outage("5d+6h:503").get()
    #expect(plain.start == 432_000 && plain.duration == 21_600 && plain.kind == .status(503))
    #expect(try FleetText.outage("1d+2h").get().kind == .status(503))
    #expect(
      try FleetText.outage("2d+30m:429@120").get().kind == .retryAfter(status: 429, seconds: 120))
    #expect(try FleetText.outage("1d+2h:down").get().kind == .down)
    for bad in ["5d", "x+6h", "5d+0s", "5d+6h:200", "5d+6h:abc", "5d+6h:429@x", "", "1e400d+1h"] {
      guard case .failure(let problem) = FleetText.outage(bad) else {
        Issue.record("accepted \(bad)")
        continue
      }
      #expect(!problem.description.isEmpty)
    }
  }

  @Test("the JSON has the issue's keys and the series in virtual seconds; the CSV a row a minute")
  func reports() async throws {
    let plan = FleetPlan(
      devices: 300, strategy: .both, duration: 2 * 86_400,
      outage: FleetPlan.Outage(start: 86_400, duration: 3_600, kind: .status(503)))
    let report = await FleetRun.run(plan)
    let object =
      try JSONSerialization.jsonObject(with: Data(FleetText.json([report]).utf8)) as? [String: Any]
    let first = try #require((object?["strategies"] as? [[String: Any]])?.first)
    for key in [
      "strategy", "devices", "distinctContacts", "orphanedContacts", "madeUpContacts",
      "neverRegistered", "registrationsSent", "registrationsSkipped", "peakPerMinute",
      "peakAfterOutagePerMinute", "catchUpSeconds", "series",
    ] {
      #expect(first[key] != nil, "\(key)")
    }
    let series = try #require(first["series"] as? [[String: Int]])
    #expect(series.reduce(0) { $0 + ($1["registrations"] ?? 0) } == report.registrationsSent)
    #expect(series.allSatisfy { ($0["t"] ?? -1) % 60 == 0 })
    let csv = FleetText.csv([report]).split(separator: "\n")
    #expect(csv.first == "t,both")
    #expect(csv.count == report.perMinute.count + 1)
  }

  @Test("an outage that reaches or passes the end of the run is cut to it, and the report says so")
  func outagePastTheEnd() async throws {
    for text in ["29d+2d:503", "30d+1h:503", "0s+366d:503", "31d+1d:503"] {
      let outage = try FleetText.outage(text).get()
      let plan = FleetPlan(devices: 50, strategy: .both, outage: outage)
      #expect(plan.outageAsked == outage, "\(text)")
      #expect((plan.outage?.end ?? .infinity) <= plan.duration, "\(text)")
      let report = await FleetRun.run(plan)
      _ = report.catchUpSeconds
      _ = report.peakAfterOutagePerMinute
      let lines = FleetText.summary([report], plan: plan)
      #expect(lines.contains { $0.contains("cut to the run") }, "\(text): \(lines)")
    }
    let inside = FleetPlan(
      devices: 10, strategy: .both, outage: try FleetText.outage("5d+6h:503").get())
    #expect(inside.outageAsked == nil)
  }

  @Test("the chart is as wide and tall as asked, and its tallest column is full")
  func chart() {
    let rows = FleetText.chart([0, 1, 2, 3, 8, 2, 1, 0], width: 8, height: 4)
    #expect(rows.count == 4 && rows.allSatisfy { $0.count == 8 })
    #expect(rows.allSatisfy { Array($0)[4] == "█" })
    #expect(rows.first.map { Array($0)[0] } == " ")
  }
}

@Suite("the fleet picture")
struct FleetPictureTests {
  @Test("the SVG is well-formed XML with each strategy's numbers, chart and the outage shaded")
  func svg() async throws {
    let outage = FleetPlan.Outage(start: 86_400, duration: 3_600, kind: .status(503))
    let plan = FleetPlan(devices: 300, strategy: .both, duration: 2 * 86_400, outage: outage)
    let reports = await [
      FleetRun.run(plan),
      FleetRun.run(
        {
          var p = plan
          p.strategy = .knownOnly
          return p
        }()),
    ]
    let svg = FleetText.svg(reports, plan: plan)
    let parser = XMLParser(data: Data(svg.utf8))
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(svg.contains(">both: registrations a minute") && svg.contains(">known-only"))
    #expect(svg.contains(##"fill="#f6d5d5""##))
    #expect(svg.contains(">\(reports[0].distinctContacts)<"))
  }
}
