import InspectorUI
import RegistrationCore
import Session
import SessionValues
import Testing

/// The model changes only in `update`: outcomes, the clock and the look arrive as messages.
@Suite("messages into update")
struct MessageTests {
  @Test("commands finished: the outcomes worded once, joined, an error if any failed")
  func commandsFinished() {
    var m = InspectorModel(width: 120, height: 40, title: "t")
    let done = CommandResult(command: .launch, outcome: .success(.launched))
    let failed = CommandResult(
      command: .edit(.addTag("x")), outcome: .failure(SessionError.notLaunched("tag add x")))
    _ = Inspector.update(&m, .commandsFinished([done]))
    #expect(m.flash?.text == "launched" && m.flash?.isError == false)
    _ = Inspector.update(&m, .commandsFinished([done, failed]))
    #expect(m.flash?.isError == true)
    #expect(m.flash?.text.hasPrefix("launched; tag add x: ") == true)
  }

  @Test("a pushed snapshot sets the device, the server, the time and the pause")
  func snapshot() async throws {
    let session = try await DeviceSession.start(SessionSetup())
    _ = try await session.execute(.launch)
    var m = InspectorModel(width: 120, height: 40, title: "t")
    guard case .device(var view) = await session.snapshot() else {
      Issue.record("a device session pushes a device snapshot")
      return
    }
    view.rate = 0
    _ = Inspector.update(&m, .snapshot(.device(view)))
    #expect(m.device != nil && m.server != nil)
    #expect(m.paused && m.rate == 1)
    view.rate = 60
    view.now = Instant(42)
    _ = Inspector.update(&m, .snapshot(.device(view)))
    #expect(!m.paused && m.rate == 60 && m.now == Instant(42))
    _ = Inspector.update(&m, .clock(now: Instant(43)))
    #expect(m.now == Instant(43) && m.device != nil)
    await session.stop()
  }

  @Test("the clock's controls, the theme and the glyphs are messages too")
  func looks() {
    var m = InspectorModel(width: 120, height: 40, title: "t")
    _ = Inspector.update(&m, .rateSet(0, accepted: true))
    #expect(m.flash?.text == "time paused")
    _ = Inspector.update(&m, .rateSet(10, accepted: false))
    #expect(m.flash?.isError == true)
    _ = Inspector.update(&m, .jumped(to: nil))
    #expect(m.flash?.text == "nothing is scheduled")
    let themes = Theme.builtInNames.prefix(2).compactMap { ThemeLoader.builtIn($0)?.theme }
    #expect(themes.count == 2)
    var themed = InspectorModel(
      width: 120, height: 40, title: "t", themeName: themes[0].name, themes: themes,
      monochrome: true)
    let effects = Inspector.update(&themed, .key(.character("T")))
    #expect(themed.themeName == themes[1].name && themed.flash?.text.contains("monochrome") == true)
    #expect(effects == [InspectorEffect.applyTheme(themes[1])])
    _ = Inspector.update(&themed, .key(.character("T")))
    #expect(themed.themeName == themes[0].name, "round again")
    _ = Inspector.update(&m, .glyphs(.ascii))
    #expect(m.glyphs == .ascii)
  }

  @Test("what the inspector opens with: the receiver's app, a demo's captions, the zone")
  func opening() {
    let zone = LocalZone { _ in 3600 }
    var m = InspectorModel(width: 120, height: 40, title: "t", zone: zone)
    #expect(m.zone.offsetFromUTC(0) == 3600 && m.timeStyle == .wallClock && m.demo == nil)
    _ = Inspector.update(&m, .receivingApp(["app id 1234", "token abcd"]))
    #expect(m.receivingApp == ["app id 1234", "token abcd"])
    let captions = DemoCaptions(name: "retry", description: "a 503, then a retry", steps: 3)
    #expect(Inspector.update(&m, .demoStarted(captions)).isEmpty)
    #expect(m.demo == captions && m.timeStyle == .elapsed)
  }

  @Test("--fleet opens the Fleet view in any mode and at any size, computing the fleet once")
  func openFleet() {
    // Too small for any key but q: a faked F press would be dropped here.
    var m = InspectorModel(width: 40, height: 10, title: "t")
    #expect(Inspector.update(&m, .openFleet) == [.runFleet])
    #expect(m.screen == .fleet)
    // The model does not know --fleet-devices: no count is said until the fleet is ready.
    #expect(m.flash?.text == "running the fleet through the three strategies…")
    // In the help overlay, F would close nothing and open nothing.
    var help = InspectorModel(width: 120, height: 40, title: "t")
    _ = Inspector.update(&help, .key(.character("?")))
    #expect(Inspector.update(&help, .openFleet) == [.runFleet])
    #expect(help.screen == .fleet)
    // Asked again it stays open (F would close it), and the fleet is not computed twice.
    _ = Inspector.update(
      &help,
      .fleetReady(FleetShow(plan: FleetShow.defaultPlans()[0], reports: [], startedAt: .zero)))
    #expect(Inspector.update(&help, .openFleet).isEmpty)
    #expect(help.screen == .fleet)
    var large = FleetShow.defaultPlans()[0]
    large.devices = 100_000
    _ = Inspector.update(&m, .fleetReady(FleetShow(plan: large, reports: [], startedAt: .zero)))
    #expect(m.flash?.text == "fleet: 100,000 devices, playing")
  }
}
