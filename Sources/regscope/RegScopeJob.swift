import ArgumentParser
import Clocks
import EngagementCore
import EngagementServer
import Foundation
import HAR
import QA
import RegistrationCore
import RegistrationEngine
import Scenarios
import Session
import SessionHTTP
import SessionValues
import StateDumps
import ToolSupport

/// The session regscope opens, with what the screen says about it.
struct OpenedJob {
  var session: any Session
  var title: String
  var warnings: [String]
  var hasLocalServer: Bool
  /// The receiver's address, when the job receives real apps.
  var receivingAt: String?
  /// Demo mode: the scenario to play on the device session.
  var demo: (scenario: Scenario, session: DeviceSession)?
  /// The receiving session itself, when the job receives real apps: its server (for a QA run)
  /// and its front (for what it wrote).
  var receiver: ReceiverSession?
  /// What the receiver's empty device list says of the app to configure, under its address.
  var receivingApp: [String] = []
  /// `--tenant`: each refresh of the tenant's demographics the receiver session makes, to
  /// say on the screen, and what is said at start when it relays.
  var tenantOutcomes: AsyncStream<(said: String, failed: Bool)>? = nil
  var readBackNotice: String? = nil
}

extension RegScope {
  /// One job at a time: a device (the default, or a demo), a receiver, or an import. Options
  /// of one job given to another are an error here, before anything opens.
  func validateJob() throws {
    let jobs = [
      receive ? "--receive" : nil, scenario.map { _ in "--scenario" },
      importState.map { _ in "--import-state" }, capture.map { _ in "--judge" },
      openBundle.map { _ in "--open" },
    ].compactMap { $0 }
    if jobs.count > 1 {
      throw ValidationError("\(jobs.joined(separator: " and ")) are different jobs: give one")
    }
    if (receiver.given || app.given) && !receive {
      throw ValidationError(
        "--port, --listen, --upstream, --tls-cert, --tls-key, --any-app, --har, --app-id, the token, --processing-delay and --defined-attributes go with --receive"
      )
    }
    if (receive || importState != nil || capture != nil || openBundle != nil)
      && (options.server != nil || options.speed != nil)
    {
      throw ValidationError(
        "--server and --speed drive a simulated device; \(jobs[0]) has none (its clock is real time)"
      )
    }
    if receive { try validateReceiver() }
    if tenant.tenant != nil && !receive { throw ValidationError("--tenant goes with --receive") }
    if qa != nil && !receive { throw ValidationError("--qa goes with --receive") }
    if (stepByStep || captionSeconds != DemoPace.defaultCaptionHold) && scenario == nil {
      throw ValidationError("--step and --caption-seconds go with --scenario")
    }
    guard captionSeconds.isFinite, (0...60).contains(captionSeconds) else {
      throw ValidationError("--caption-seconds must be 0 to 60")
    }
    _ = try qaPlan()
    if let scenario, BuiltInScenarios.named(scenario) == nil,
      !FileManager.default.fileExists(atPath: scenario)
    {
      let nearest = Suggestion.nearest(to: scenario, in: BuiltInScenarios.all.map(\.name))
      throw ValidationError(
        "no built-in scenario \"\(scenario)\"\(nearest.map { "; did you mean \"\($0)\"?" } ?? "") (regctl scenarios lists them)"
      )
    }
  }

  private func validateReceiver() throws {
    _ = try receiverApp()
    try tenant.checkAlone(typedTable: app.definedAttributes != nil)
    if let problem = HTTPNetwork.problem(with: receiver.options) {
      throw ValidationError(problem)
    }
  }

  func openJob(folder: String, log: RunLog) async throws -> OpenedJob {
    let factory = SessionFactory(network: HTTPNetwork())
    if let importState {
      let data = try StateDumpImport.load(path: importState)
      let device = ImportedDevice(
        try StateDumpImport.read(data, source: importState), source: importState)
      return OpenedJob(
        session: try await factory.open(.imported(device)).session,
        title: "imported: \(device.source) (read-only)", warnings: [], hasLocalServer: false)
    }
    if receive { return try await openReceiver(factory, log: log) }
    if let openBundle { return try Self.openedBundle(openBundle) }
    if let capture {
      let judge = try HARReader.judge([capture])
      return OpenedJob(
        session: try await factory.open(.capture(judge, sources: [capture])).session,
        title: "capture: \(capture) (read-only)", warnings: [], hasLocalServer: false)
    }
    if let scenario {
      guard let loaded = try BuiltInScenarios.load(scenario) else {
        throw ValidationError("no built-in scenario or file \"\(scenario)\"")
      }
      var setup = loaded.setup
      setup.deviceID = nil
      if let profile = options.sdk.profile { setup.use(profile) }
      let place = try SessionPlace.demo(
        DemoPace(
          rate: options.speed ?? 60, holdsForKey: stepByStep, captionHold: captionSeconds))
      guard let session = try await factory.open(.device(setup, place), log: log).device else {
        throw SessionError.noDevice("demo")
      }
      return OpenedJob(
        session: session, title: "demo: \(loaded.name) → \(session.destination)",
        warnings: session.engineConfiguration.startupWarnings, hasLocalServer: true,
        demo: (loaded, session))
    }
    let persistent = PersistentDevice(
      folder: folder, config: options.config, configName: options.configName,
      server: options.server, speed: options.speed ?? 1, resetState: options.resetState,
      sdk: options.sdk.profile)
    guard let session = try await factory.open(.persistent(persistent), log: log).device else {
      throw SessionError.noDevice("regscope")
    }
    return OpenedJob(
      session: session,
      // The app id in short (the record pane has it whole): the header keeps the server.
      title: "app \(Self.short(session.engineConfiguration.appID)) → \(session.destination)",
      warnings: session.engineConfiguration.startupWarnings, hasLocalServer: !session.isRemote)
  }

  /// The app's own id and token (from its configuration file) are what its requests carry;
  /// without one, the demo's. A receiving session starts afresh: what it judges lives as long
  /// as it runs.
  private func openReceiver(_ factory: SessionFactory, log: RunLog) async throws -> OpenedJob {
    var app = try receiverApp()
    // Said before the screen opens, and again in its header and warnings.
    let table = try await tenant.start(readBackAfter: readBack.readBackAfter) { Output.error($0) }
    table?.apply(to: &app.settings)
    // The session owns the tenant's work; what each refresh says reaches the screen through
    // this stream once it is open.
    let (outcomes, told) = AsyncStream.makeStream(of: (said: String, failed: Bool).self)
    let relayed = receiver.upstream != nil
    let opened = try await factory.open(
      .receiver(
        ReceiverSetup(
          settings: app.settings, options: receiver.options,
          tenant: table?.hookup(relayed: relayed) {
            told.yield(($0.described, $0.failure != nil))
          })), log: log)
    guard let session = opened.receiver else { throw SessionError.noDevice("--receive") }
    let shownApp =
      app.anyApp
      ? "any app"
      : app.source == .demo
        ? "demo app \(app.settings.appID), token \(app.settings.accessToken)"
        : "app \(app.settings.appID)"
    let relay = receiver.upstream.map { ", relayed to " + HTTPNetwork.relayShown($0) } ?? ""
    let demographics = table.map {
      // The set's name is the tenant's text: escaped and clipped, as every line quotes it.
      " · the tenant's \(TerminalText.clipped($0.demographics.setName, limit: 40))"
        + " (\($0.demographics.attributes.count))"
    }
    return OpenedJob(
      // Where to point the app first: a narrow header cuts the end, not the address (the
      // demo app's id and token are whole in the empty device list).
      session: session, title: "\(session.destination)\(relay)\(demographics ?? "") · \(shownApp)",
      warnings: (receiver.exposureWarning.map { [$0] } ?? []) + app.warnings
        + (table?.warnings ?? []),
      hasLocalServer: true,
      receivingAt: session.url, receiver: session,
      receivingApp: app.source == .demo && !app.anyApp
        ? ["with the demo app's id and token:", app.settings.appID, app.settings.accessToken]
        : [], tenantOutcomes: table == nil ? nil : outcomes,
      readBackNotice: relayed ? table?.readBackDescribed : nil)
  }

  /// The app the receiver accepts: `--app-id` and a token, the app's --config, --any-app, or
  /// the demo app.
  func receiverApp() throws -> ReceiverApp {
    try app.receiverApp(
      config: options.config.map { (path: $0, name: options.configName) },
      receiver: receiver, sdk: options.sdk.profile)
  }

  /// The plan `--qa` names: a file that exists first, then a built-in.
  func qaPlan() throws -> QAPlan? {
    guard let qa else { return nil }
    if FileManager.default.fileExists(atPath: qa) {
      let plan: QAPlan
      do {
        plan = try QAPlanParser.parse(file: qa)
      } catch {
        throw ValidationError("--qa: \(error)")
      }
      try checkReadBack(plan)
      return plan
    }
    guard let plan = BuiltInPlans.plan(qa) else {
      throw ValidationError(
        "--qa: no plan file or built-in plan \"\(TerminalText.escaped(qa))\" (regctl qa --list lists them)"
      )
    }
    return plan
  }

  /// A plan whose `expect: arrived` cannot be decided as the receiver starts is refused.
  func checkReadBack(_ plan: QAPlan) throws {
    let readBackAfter =
      tenant.tenant != nil && receiver.upstream != nil ? readBack.readBackAfter : nil
    if let problem = plan.readBackProblem(readBackAfter: readBackAfter) {
      throw ValidationError("--qa: \(problem)")
    }
  }

  /// An app id as a header shows it: a GUID's first group (the record pane has it whole).
  static func short(_ appID: String) -> String {
    appID.count > 12 ? String(appID.prefix(8)) : appID
  }
}
