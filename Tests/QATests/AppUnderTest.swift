import Clocks
import EngagementCore
import EngagementHTTP
import EngagementServer
import Foundation
import QA
import RegistrationCore
import RegistrationEngine
import SessionHTTP
import Synchronization
import TestSupport
import Testing

/// Broken apps, each made from a correct profile engine by one known mistake.
enum Mutation: String, CaseIterable, Sendable {
  /// Posts its registration itself at once after each change (and at launch), besides the
  /// SDK: sends before the SDK allows.
  case earlySend
  /// Resends at once after an answer that carries Retry-After.
  case ignoresRetryAfter
  /// Retries at once after a failure, around the SDK's own ladder.
  case retriesAtOnce
  /// Never sends back the subscriber token it was handed.
  case dropsToken
  /// The build with the new SDK sends the record without the tags set before the upgrade.
  case losesTags
}

/// What a mutation does to the requests the engine sends.
struct MutantTransport: RegistrationTransport {
  let mutation: Mutation?
  let inner = HTTPTransport()

  func send(_ request: RegistrationRequest) async -> SendResult {
    var request = request
    switch mutation {
    case .dropsToken?:
      request.headers.removeAll { $0.name.lowercased() == "x-subscriber-token" }
    case .losesTags?:
      request.payload.tags = request.payload.tags?.filter { !$0.hasPrefix("qa-") }
      request.body = request.payload.encodedBytes()
    default: break
    }
    var result = await inner.send(request)
    for _ in 0..<3 {
      guard case .answered(let status, let retryAfter, _, _) = result,
        !RetryPolicy.isSuccess(status: status)
      else { break }
      switch mutation {
      case .retriesAtOnce?: break
      case .ignoresRetryAfter? where retryAfter != nil: break
      default: return result
      }
      result = await inner.send(request)
    }
    return result
  }
}

/// The app under test as a tester meets it: not installed when the plan begins. The first
/// ask installs and opens it (a profile engine); each ask then does what it says, and the
/// tester takes `dawdle` seconds before going on, so what the app sends meanwhile arrives
/// during the ask.
final class AppUnderTest: Sendable {
  let rig: QARig
  let profile: SDKProfile
  let platform: Platform
  let mutation: Mutation?
  let dawdle: Double
  /// False: the tester installs and opens the app at the first ask, then goes straight on at
  /// every ask, as `--yes` does: the app changes nothing of itself.
  let followsAsks: Bool
  /// Kept across the upgrade: the new build is installed over the old one.
  let store: RegistrationStore
  private let engine = Mutex<RegistrationEngine?>(nil)

  init(
    rig: QARig, profile: SDKProfile, mutation: Mutation? = nil, dawdle: Double,
    followsAsks: Bool = true
  ) throws {
    self.rig = rig
    self.followsAsks = followsAsks
    self.profile = profile
    platform = profile.platform ?? .android
    self.mutation = mutation
    self.dawdle = dawdle
    store = try RegistrationStore.inMemory()
  }

  /// The build with a newer SDK: the next version read, or a patch of the newest.
  var upgraded: SDKProfile {
    guard profile.name != .documented else {
      var newer = profile
      newer.sdkVersion = "8.2.0"
      return newer
    }
    let major = SDKVersionNumber.major(profile.sdkVersion) ?? 10
    return profile.at(version: major == 8 ? "9.0.3" : major == 9 ? "10.0.0" : "10.0.1") ?? profile
  }

  func advance(to instant: Instant) async {
    if let engine = engine.withLock({ $0 }) {
      try? await engine.advance(rig.clock, to: instant)
    } else {
      rig.clock.advance(to: instant)
    }
  }

  private func install(_ profile: SDKProfile, transport mutation: Mutation?) async {
    guard
      let built = try? rig.engine(
        profile, platform: platform, store: store, transport: MutantTransport(mutation: mutation))
    else { return }
    engine.withLock { $0 = built }
    try? await built.launch()
    await postsItself()
  }

  /// An edit in the app, and (broken) its own post of the registration.
  private func edit(_ edit: Edit) async {
    guard let engine = engine.withLock({ $0 }) else { return }
    _ = try? await engine.apply(edit)
    await postsItself()
  }

  private func after(_ seconds: Double) async { await advance(to: rig.clock.now() + seconds) }

  /// `earlySend`: the app builds the registration from the SDK's record and posts it itself.
  private func postsItself() async {
    guard mutation == .earlySend, let engine = engine.withLock({ $0 }),
      let state = try? await engine.snapshot().machine.state
    else { return }
    let configuration = engine.configuration
    let payload = RegistrationPayload(
      record: state.record, settings: configuration.machineSettings)
    let now = rig.clock.now()
    let send = InFlightSend(
      id: 0, attempt: 1, reason: .change, payload: payload, body: payload.encodedBytes(),
      startedAt: now, coveredSeq: 0, clearedKeys: [])
    _ = await HTTPTransport().send(
      RegistrationRequest(
        send: send, configuration: configuration, requestID: UUID().uuidString,
        sentAt: Date(timeIntervalSince1970: now.seconds),
        subscriberToken: state.scheduler.subscriberToken))
  }

  /// What the tester does for each built-in plan's ask.
  func act(_ text: String) async {
    if engine.withLock({ $0 }) == nil {
      await install(profile, transport: mutation == .losesTags ? nil : mutation)
      await after(2)
    }
    if !followsAsks {
    } else if text.contains("qa-a and qa-b") {
      await edit(.addTag("qa-start"))
      await after(5)
      await edit(.addTag("qa-a"))
      await after(10)
      await edit(.addTag("qa-b"))
    } else if text.contains("two contact keys") {
      await edit(.setContactKey("qa-user-one@example.com"))
      await after(61)
      await edit(.setContactKey("qa-user-two@example.com"))
    } else if text.contains("new SDK over it") {
      await engine.withLock({ $0 })?.shutDown()
      await install(upgraded, transport: mutation)
    } else if let tag = text.split(separator: " ").first(where: { $0.hasPrefix("qa-") }) {
      await edit(.addTag(String(tag.trimmingCharacters(in: .punctuationCharacters))))
    }
    await after(dawdle)
  }

  func shutDown() async { await engine.withLock({ $0 })?.shutDown() }

  /// Runs `plan` on a fresh rig with this app, from a fresh install.
  static func run(
    _ plan: QAPlan, profile: SDKProfile, mutation: Mutation? = nil, dawdle: Double,
    followsAsks: Bool = true
  ) async throws -> QAReport {
    let rig = try await QARig()
    let app = try AppUnderTest(
      rig: rig, profile: profile, mutation: mutation, dawdle: dawdle, followsAsks: followsAsks)
    let report = await rig.run(plan, act: app.act, advance: app.advance)
    await app.shutDown()
    await rig.stop()
    return report
  }
}
