import ArgumentParser
import Fleet
import Foundation
import RegistrationCore
import Synchronization
import SystemCalls
import ToolSupport

struct FleetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fleet",
    abstract: "Run many devices through the rules: billed and orphaned contacts, server load.",
    discussion: """
      Each device is the same pure machine as one simulated device, in virtual time: installs \
      spread over the run, a contact-key strategy (R8.4), logins, shared phones (R8.3), \
      reinstalls, and an optional outage. The same seed gives the same numbers.

      Outage: START+DURATION[:STATUS], e.g. 5d+6h:503, 2d+30m:429@120 (Retry-After 120 s), \
      1d+2h:down.
      """)

  @Option(parsing: .unconditional, help: "How many devices.") var devices: Int = 10_000
  @Option(help: "anonymous-only, known-only, both, or all (the three side by side).")
  var strategy: String = "all"
  @Option(parsing: .unconditional, help: "How long the run is, in days.") var days: Double = 30
  @Option(parsing: .unconditional, help: "Share of users who log in (0 to 1).")
  var loginShare: Double = 0.6
  @Option(parsing: .unconditional, help: "Users log in within this many days of installing.")
  var loginWithin: Double = 7
  @Option(parsing: .unconditional, help: "Share of phones whose user changes after logging in.")
  var sharedShare: Double = 0.05
  @Option(parsing: .unconditional, help: "Share of installations reinstalled (a new deviceID).")
  var reinstallShare: Double = 0.05
  @Option(parsing: .unconditional, help: "An outage: START+DURATION[:STATUS|:429@SECONDS|:down].")
  var outage: String?
  @Option(
    parsing: .unconditional,
    help:
      "Each device's push token is refreshed about this often, in days (0: never; else 1/24 to 366)."
  )
  var tokenRefreshDays: Double = 0
  @Option(help: "The seed: the same seed gives the same numbers.") var seed: UInt64 = 1
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "What-if, not what the SDKs do: spread each retry by up to ± this share of its wait.",
      discussion:
        "The shipped SDKs retry on the exact ladder; jitter shows what spreading retries would do to the load after an outage."
    ))
  var jitter: Double = 0
  @OptionGroup var sdk: SDKOption
  @Flag(help: "Print the results as JSON.") var json = false
  @Option(help: "Write the per-minute series as CSV to this file.") var csv: String?
  @Option(help: "Write the comparison and the charts as an SVG picture to this file.")
  var svg: String?

  static let largestFleet = 10_000_000

  func validate() throws {
    guard (1...Self.largestFleet).contains(devices) else {
      throw ValidationError("--devices must be 1 to \(Self.largestFleet)")
    }
    guard days.isFinite, days > 0, days <= 366 else {
      throw ValidationError("--days must be above 0 and at most 366")
    }
    guard loginWithin.isFinite, loginWithin >= 0, loginWithin <= 366 else {
      throw ValidationError("--login-within must be 0 to 366 days")
    }
    for (name, share) in [
      ("--login-share", loginShare), ("--shared-share", sharedShare),
      ("--reinstall-share", reinstallShare),
    ] where !(share.isFinite && (0...1).contains(share)) {
      throw ValidationError("\(name) must be a share from 0 to 1")
    }
    // Refreshes far more often than hourly would make billions of events, not a fleet.
    guard tokenRefreshDays.isFinite,
      tokenRefreshDays == 0 || (1.0 / 24...366).contains(tokenRefreshDays)
    else {
      throw ValidationError("--token-refresh-days must be 0 (never), or from 1/24 (an hour) to 366")
    }
    guard jitter.isFinite, (0...0.9).contains(jitter) else {
      throw ValidationError("--jitter must be a share from 0 to 0.9")
    }
    _ = try strategies()
    if let outage {
      switch FleetText.outage(outage) {
      case .failure(let problem): throw ValidationError("--outage: \(problem)")
      case .success(let planned) where planned.start >= days * 86_400:
        // Cut to the run's end, it would be an outage of no time at all.
        throw ValidationError(
          "--outage \(TerminalText.escaped(outage)): it starts after the run ends (--days \(NumberText.compact(days))); start it earlier or run longer"
        )
      case .success: break
      }
    }
  }

  func strategies() throws -> [FleetPlan.Strategy] {
    if strategy == "all" { return FleetPlan.Strategy.allCases }
    guard let one = FleetPlan.Strategy(rawValue: strategy) else {
      throw ValidationError(
        "--strategy \(TerminalText.escaped(strategy)): expected anonymous-only, known-only, both or all"
      )
    }
    return [one]
  }

  func run() async throws {
    let outagePlan = try outage.map { try FleetText.outage($0).get() }
    var reports: [FleetReport] = []
    let started = ContinuousClock.now
    let progress = ProgressLine(total: devices * (try strategies()).count)
    for strategy in try strategies() {
      let plan = FleetPlan(
        devices: devices, strategy: strategy, duration: days * 86_400, loginShare: loginShare,
        loginWithin: loginWithin * 86_400, sharedShare: sharedShare,
        reinstallShare: reinstallShare, outage: outagePlan,
        tokenRefreshEvery: tokenRefreshDays * 86_400, jitter: jitter, seed: seed,
        profile: sdk.profile ?? .documented)
      reports.append(
        await FleetRun.run(plan, cores: SystemCalls.onlineCores) { progress.advance($0) })
    }
    progress.finish()
    if let csv {
      do {
        try OutputFile.write(FleetText.csv(reports), to: csv)
      } catch {
        Output.error("regctl fleet: --csv \(error)")
        throw ExitCode(1)
      }
    }
    let plan = FleetPlan(
      devices: devices, strategy: .both, duration: days * 86_400, loginShare: loginShare,
      loginWithin: loginWithin * 86_400, sharedShare: sharedShare, reinstallShare: reinstallShare,
      outage: outagePlan, tokenRefreshEvery: tokenRefreshDays * 86_400, jitter: jitter, seed: seed)
    if let svg {
      do {
        try OutputFile.write(FleetText.svg(reports, plan: plan), to: svg)
      } catch {
        Output.error("regctl fleet: --svg \(error)")
        throw ExitCode(1)
      }
    }
    if json {
      Output.jsonLine(FleetText.json(reports))
      return
    }
    for line in FleetText.summary(reports, plan: plan) { Output.report(line) }
    Output.report("")
    let elapsed = (ContinuousClock.now - started).components
    let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    Output.report("ran in \(String(format: "%.1f", seconds)) s")
  }
}

/// A progress bar on standard error for runs longer than a second; nothing for short ones.
final class ProgressLine: Sendable {
  private let total: Int
  private let state = Mutex((done: 0, started: ContinuousClock.now, shown: false))

  /// Only for a person watching: a pipe or a log gets no carriage returns.
  private let terminal = SystemCalls.isTerminal(2)

  init(total: Int) { self.total = max(1, total) }

  func advance(_ count: Int) {
    guard terminal else { return }
    let line: String? = state.withLock { state in
      state.done += count
      guard ContinuousClock.now - state.started > .seconds(1) else { return nil }
      state.shown = true
      let share = min(1, Double(state.done) / Double(total))
      let filled = Int(share * 30)
      return "\r[" + String(repeating: "#", count: filled)
        + String(repeating: " ", count: 30 - filled) + "] \(Int(share * 100))%"
    }
    if let line { FileHandle.standardError.write(Data(line.utf8)) }
  }

  func finish() {
    if state.withLock({ $0.shown }) { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
  }
}
