import Foundation
import RegistrationCore
import Testing

/// The SDK profiles (SDK-FACTS.md): each observation, at its boundaries.
@Suite("SDK profiles: documented, ios, android")
struct ProfileTests {
  static func harness(_ profile: SDKProfile, platform: Platform = .iOS) -> CoreHarness {
    CoreHarness.launchedAndRegistered(
      settings: CoreHarness.settings(platform: platform, profile: profile))
  }

  @Test("android: an edit long after the last send goes out after its 1 s pause")
  func androidAtOnce() {
    var h = Self.harness(.android, platform: .android)
    h.edit(.addTag("sports"), at: 120)
    h.advance(to: 120.999)
    #expect(h.sendTimes == [0])
    h.advance(to: 121)
    #expect(h.sendTimes == [0, 121])
  }

  @Test(
    "android: inside 60 s of the last send, a send is answered locally with 429 and the alarm sends it",
    arguments: [30.0, 59.0])
  func androidTooEarly(editAt: Double) {
    var h = Self.harness(.android, platform: .android)
    h.edit(.addTag("sports"), at: editAt)
    h.advance(to: editAt + 1)
    let local = h.events.compactMap { event -> (Int?, Bool)? in
      if case .failed(_, _, let status, _, _, _, let local) = event.event { return (status, local) }
      return nil
    }
    if editAt + 1 < 60 {
      // No request left the device: one send so far, a local 429, the alarm 60 s later.
      #expect(h.sendTimes == [0])
      #expect(local.count == 1 && local.first?.0 == 429 && local.first?.1 == true)
      // The schedule says so when it is made, not only once the attempt is answered.
      #expect(
        Self.changeRules(h).last?.hasSuffix(
          "answers this attempt 429 and sends when its alarm fires") == true)
      #expect(h.machine.nextDeadline == Instant(editAt + 61))
      h.advance(to: editAt + 61)
      #expect(h.sendTimes == [0, editAt + 61])
      #expect(h.machine.state.scheduler.retry == nil)
    } else {
      #expect(h.sendTimes == [0, 60])
      #expect(local.isEmpty)
      #expect(Self.changeRules(h).allSatisfy { !$0.contains("429") })
    }
  }

  @Test("android: each retry comes 60 s after its failure (reading 2); Retry-After is a gate")
  func androidAlarm() {
    var h = Self.harness(.android, platform: .android)
    h.respond = { _ in .answered(status: 503, retryAfter: nil) }
    h.edit(.addTag("a"), at: 120)
    h.advance(to: 600)
    #expect(h.sendTimes == [0, 121, 181, 241, 301, 361, 421, 481, 541])
    // A Retry-After of 300 s holds sends back until it passes, whatever the alarm says.
    h.respond = { _ in .answered(status: 503, retryAfter: 300) }
    h.advance(to: 601)
    #expect(h.sendTimes.last == 601)
    h.respond = { _ in .answered(status: 201, retryAfter: nil) }
    h.advance(to: 2000)
    #expect(h.sendTimes.last.map { $0 >= 901 } == true)
    #expect(h.sendTimes.filter { $0 > 601 }.count == 1)
    #expect(h.machine.state.scheduler.retry == nil)
  }

  @Test(
    "android: going to the background sends a pending change past the throttle, not past Retry-After"
  )
  func androidBackground() {
    var h = Self.harness(.android, platform: .android)
    h.edit(.addTag("a"), at: 10)
    // Inside the throttle the edit is answered locally; the background sends it at once.
    h.advance(to: 20)
    record(&h, h.machine.setAppState(.background, now: h.now))
    h.advance(to: 20)
    #expect(h.sendTimes == [0, 20])
    #expect(
      Self.changeRules(h).last?.hasSuffix(
        "the app went to the background, which sends a pending change at once") == true)
    // Nothing pending: the background changes nothing.
    record(&h, h.machine.setAppState(.foreground, now: h.now))
    record(&h, h.machine.setAppState(.background, now: h.now))
    #expect(h.machine.nextDeadline == nil)
    // The Retry-After gate stays: a background send before it is answered locally.
    h.respond = { _ in .answered(status: 429, retryAfter: 600) }
    h.edit(.addTag("b"), at: 100)
    h.advance(to: 101)
    h.respond = { _ in .answered(status: 201, retryAfter: nil) }
    h.edit(.addTag("c"), at: 200)
    record(&h, h.machine.setAppState(.background, now: h.now))
    #expect(Self.changeRules(h).last?.contains("but the server's Retry-After still holds") == true)
    h.advance(to: 650)
    #expect(h.sendTimes.allSatisfy { $0 <= 101 || $0 >= 701 })
  }

  /// Why each change was scheduled when it was, as the event stream says it.
  static func changeRules(_ h: CoreHarness) -> [String] {
    h.events.compactMap { event -> String? in
      if case .scheduled(_, .change, _, let rule) = event.event { return rule }
      return nil
    }
  }

  func record(_ h: inout CoreHarness, _ step: Step) {
    h.events += step.events.map { TimedEvent(at: h.now, event: $0) }
  }

  @Test("ios: a relaunch forgets the interval: a changed record goes out 1 s after launch")
  func iosRelaunch() {
    var h = Self.harness(.ios)
    h.respond = { _ in .answered(status: 503, retryAfter: nil) }
    h.edit(.addTag("a"), at: 10)
    h.advance(to: 61)
    #expect(h.machine.state.scheduler.retry?.nextAttemptAt == Instant(180))
    let (relaunched, step) = RegistrationMachine.relaunch(
      settings: h.machine.settings, state: h.machine.state, environment: h.environment,
      now: Instant(100))
    h.machine = relaunched
    record(&h, step)
    #expect(h.machine.nextDeadline == Instant(101))
    h.respond = { _ in .answered(status: 201, retryAfter: nil) }
    h.advance(to: 101)
    #expect(h.sendTimes == [0, 60, 101])
  }

  @Test("ios: a stored Retry-After date outlives a relaunch")
  func iosRelaunchKeepsRetryAfter() {
    var h = Self.harness(.ios)
    h.respond = { _ in .answered(status: 429, retryAfter: 900) }
    h.edit(.addTag("a"), at: 10)
    h.advance(to: 61)
    let (relaunched, _) = RegistrationMachine.relaunch(
      settings: h.machine.settings, state: h.machine.state, environment: h.environment,
      now: Instant(100))
    h.machine = relaunched
    h.respond = { _ in .answered(status: 201, retryAfter: nil) }
    h.advance(to: 2000)
    #expect(h.sendTimes.count > 2)
    #expect(h.sendTimes.filter { $0 > 60 }.allSatisfy { $0 >= 960 })
  }

  @Test("ios: a change waits a 1 s pause, and a full 60 s interval after the last send")
  func iosInterval() {
    var h = Self.harness(.ios)
    h.edit(.addTag("late"), at: 300)
    h.advance(to: 300.999)
    #expect(h.sendTimes == [0])
    h.advance(to: 301)
    #expect(h.sendTimes == [0, 301])
    h.edit(.addTag("soon"), at: 310)
    #expect(h.machine.nextDeadline == Instant(361))
  }

  @Test("ios: the interval doubles on failure (120 s first), is capped at a day, resets on success")
  func iosBackoff() {
    var h = Self.harness(.ios)
    h.respond = { _ in .answered(status: 500, retryAfter: nil) }
    h.edit(.addTag("a"), at: 300)
    h.advance(to: 301)
    #expect(h.machine.state.scheduler.retry?.nextAttemptAt == Instant(421))
    h.advance(to: 421)
    #expect(h.machine.state.scheduler.retry?.nextAttemptAt == Instant(661))
    h.advance(to: 40 * 86_400)
    let retry = h.machine.state.scheduler.retry
    #expect(retry.map { $0.nextAttemptAt - $0.failedAt } == 86_400)
    h.respond = { _ in .answered(status: 201, retryAfter: nil) }
    h.advance(to: 41 * 86_400)
    #expect(h.machine.state.scheduler.retry == nil)
  }

  @Test("only the documented profile flags 400/401/403 as needing a fix (R4.5)")
  func needsFix() {
    for (profile, flagged) in [(SDKProfile.documented, true), (.ios, false), (.android, false)] {
      var h = Self.harness(profile)
      h.respond = { _ in .answered(status: 401, retryAfter: nil) }
      h.edit(.addTag("a"), at: 200)
      h.advance(to: 400)
      #expect(h.machine.state.scheduler.retry?.needsFix == flagged, "\(profile.name)")
    }
  }

  @Test(
    "Retry-After: android reads whole seconds only; ios digits above zero; documented dates too")
  func retryAfter() {
    let now = Date(timeIntervalSince1970: 1_445_412_400)  // 2015-10-21 07:26:40 GMT
    let date = "Wed, 21 Oct 2015 07:28:00 GMT"
    #expect(SDKProfile.android.retryAfterSeconds("120", now: now) == 120)
    #expect(SDKProfile.android.retryAfterSeconds(date, now: now) == nil)
    #expect(SDKProfile.android.retryAfterSeconds("1.5", now: now) == nil)
    #expect(SDKProfile.android.retryAfterSeconds("99999999999999999999999", now: now) == 86_400)
    #expect(SDKProfile.ios.retryAfterSeconds(date, now: now) == nil)
    #expect(SDKProfile.ios.retryAfterSeconds("0", now: now) == nil)
    #expect(SDKProfile.android.retryAfterSeconds("0", now: now) == 0)
    #expect(SDKProfile.documented.retryAfterSeconds(date, now: now) == 80)
    #expect(SDKProfile.ios.retryAfterSeconds("200000", now: now) == 86_400)
    #expect(SDKProfile.documented.retryAfterSeconds(" 30 ", now: now) == 30)
  }

  @Test("reserved words: ios adds HWID (47); android and documented keep R2.5's 46")
  func reservedWords() {
    for spelling in ["HWID", "hwid", "HwId"] {
      var ios = Self.harness(.ios)
      #expect(ios.edit(.setAttribute(key: spelling, value: "x")).rejection?.rule == "R2.5")
      var android = Self.harness(.android, platform: .android)
      #expect(android.edit(.setAttribute(key: spelling, value: "x")).rejection == nil)
    }
    var ios = Self.harness(.ios)
    #expect(ios.edit(.setAttribute(key: "deviceType", value: "x")).rejection != nil)
  }

  @Test("the SDK's own tags: ios adds the model name from hwid; none can be removed (R2.7)")
  func systemTags() {
    #expect(SDKProfile.deviceModel(fromHardwareID: "iPhone15,2") == "iPhone")
    #expect(SDKProfile.deviceModel(fromHardwareID: "iPad13,1") == "iPad")
    // A simulator's hwid is its processor; UIDevice.model still says iPhone.
    #expect(SDKProfile.deviceModel(fromHardwareID: "arm64") == "iPhone")
    #expect(SDKProfile.deviceModel(fromHardwareID: "15,2") == "iPhone")
    var ios = Self.harness(.ios)
    #expect(ios.machine.settings.allTags(of: ios.machine.state.record) == ["ALL", "IOS", "iPhone"])
    #expect(ios.edit(.removeTag("iPhone")).rejection?.rule == "R2.7")
    let android = Self.harness(.android, platform: .android)
    #expect(
      android.machine.settings.allTags(of: android.machine.state.record) == ["ALL", "Android"])
    let documented = Self.harness(.documented)
    #expect(
      documented.machine.settings.allTags(of: documented.machine.state.record) == ["ALL", "IOS"])
  }

  @Test("ios: DEBUG is reserved but never sent; the model is refused in any case")
  func iosDebugTag() {
    var settings = CoreHarness.settings(platform: .iOS, profile: .ios)
    settings.debugBuild = true
    var ios = CoreHarness.launchedAndRegistered(settings: settings)
    #expect(ios.machine.settings.allTags(of: ios.machine.state.record) == ["ALL", "IOS", "iPhone"])
    #expect(ios.edit(.addTag("DEBUG")).isUnchanged)
    #expect(ios.edit(.addTag("IPHONE")).isUnchanged)
    #expect(ios.edit(.removeTag("iphone")).rejection?.rule == "R2.7")
    settings.profile = .android
    settings.platform = .android
    let android = CoreHarness.launchedAndRegistered(settings: settings)
    #expect(
      android.machine.settings.allTags(of: android.machine.state.record)
        == ["ALL", "Android", "DEBUG"])
  }

  @Test("both shipped SDKs: tags of more than 128 characters are refused; documented has no limit")
  func tagLength() {
    let long = String(repeating: "t", count: 129)
    for (profile, platform) in [(SDKProfile.ios, Platform.iOS), (.android, .android)] {
      var h = Self.harness(profile, platform: platform)
      #expect(h.edit(.addTag(long)).rejection?.rule == "R2.7", "\(profile.name)")
      #expect(h.edit(.addTag(String(long.dropFirst()))).isApplied, "\(profile.name)")
    }
    var documented = Self.harness(.documented)
    #expect(documented.edit(.addTag(long)).isApplied)
  }

  @Test("android keeps tags without regard to case; ios replaces an attribute in any case")
  func caseRules() {
    var android = Self.harness(.android, platform: .android)
    #expect(android.edit(.addTag("Sports")).isApplied)
    #expect(android.edit(.addTag("sports")).isUnchanged)
    #expect(android.edit(.addTag("all")).isUnchanged)
    #expect(android.edit(.removeTag("SPORTS")).isApplied)
    #expect(android.machine.state.record.tags.isEmpty)
    var ios = Self.harness(.ios)
    #expect(ios.edit(.setAttribute(key: "Tier", value: "gold")).isApplied)
    #expect(ios.edit(.setAttribute(key: "tier", value: "silver")).isApplied)
    #expect(ios.machine.state.record.attributes == ["tier": "silver"])
    #expect(ios.edit(.clearAttribute(key: "TIER")).isApplied)
    #expect(ios.machine.state.record.attributes.isEmpty)
    // Documented and Android keep keys as spelled.
    var documented = Self.harness(.documented)
    _ = documented.edit(.setAttribute(key: "Tier", value: "gold"))
    _ = documented.edit(.setAttribute(key: "tier", value: "silver"))
    #expect(documented.machine.state.record.attributes.count == 2)
  }

  @Test("both shipped SDKs keep a cleared attribute's key, sent as \"\" in every later body")
  func clearedKeyKept() {
    for (profile, platform, kept) in [
      (SDKProfile.ios, Platform.iOS, true), (.android, .android, true), (.documented, .iOS, false),
    ] {
      var h = Self.harness(profile, platform: platform)
      h.edit(.setAttribute(key: "Plan", value: "gold"), at: 100)
      h.advance(to: 300)
      h.edit(.clearAttribute(key: "Plan"), at: 400)
      h.advance(to: 600)
      h.edit(.addTag("later"), at: 700)
      h.advance(to: 900)
      let plan = h.lastPayload?.attributes?.first { $0.key == "Plan" }
      #expect(
        kept ? plan?.value == "" : plan == nil, "\(profile.name): \(String(describing: plan))")
    }
  }

  @Test("registrationId is sent by the documented profile only (the shipped SDKs: when set)")
  func registrationID() {
    #expect(Self.harness(.documented).lastPayload?.registrationId != nil)
    #expect(Self.harness(.ios).lastPayload?.registrationId == nil)
    #expect(Self.harness(.android, platform: .android).lastPayload?.registrationId == nil)
  }

  @Test("ios: a Retry-After is polled at doubled intervals: a look 120 s on, the send 240 s later")
  func iosDeferral() {
    var h = Self.harness(.ios)
    h.respond = { _ in .answered(status: 429, retryAfter: 300) }
    h.edit(.addTag("a"), at: 100)
    h.advance(to: 160)
    #expect(h.sendTimes == [0, 101])
    h.respond = { _ in .answered(status: 201, retryAfter: nil) }
    h.advance(to: 1000)
    // 101 + 120 = 221: the date (401) lies ahead, deferred; 221 + 240 = 461: sent.
    #expect(h.sendTimes == [0, 101, 461])
    let deferred = h.events.contains { event in
      if case .failed(_, _, nil, let error?, _, _, true) = event.event {
        return error.hasPrefix("deferred")
      }
      return false
    }
    #expect(deferred)
  }

  @Test("the body: fields each SDK writes its own way; the hash each SDK uses")
  func body() throws {
    var environment = DeviceEnvironment.demo(.iOS, profile: .ios)
    environment.timeZone = -14_400
    for (profile, platform, timeZone) in [
      (SDKProfile.documented, Platform.iOS, "-14400"), (.ios, .iOS, "-14400"),
      (.android, .android, "-14400"),
    ] {
      var h = CoreHarness(
        settings: CoreHarness.settings(platform: platform, profile: profile),
        environment: platform == .iOS ? environment : .demo(.android, profile: profile))
      h.advance(to: 0)
      let payload = try #require(h.lastPayload)
      #expect(payload.language == (profile.name == .documented ? "en" : nil), "\(profile.name)")
      #expect(payload.badge == (profile.name == .documented ? 0 : nil), "\(profile.name)")
      if platform == .iOS { #expect(payload.timeZone == timeZone) }
      #expect(payload.uuid == nil && payload.registrationDateUtc == nil)
      let hash = try #require(h.machine.state.lastAcknowledged?.hash)
      let prefix = ["documented": "fnv1a64:", "ios": "sha1:", "android": "sha256:"][
        profile.name.rawValue]
      #expect(hash.hasPrefix(prefix ?? "?"), "\(hash)")
    }
    #expect(SDKProfile.ios.timeZoneText(0) == "0000")
    #expect(SDKProfile.ios.timeZoneText(3600) == "3600")
    #expect(SDKProfile.ios.timeZoneText(-3600) == "-3600")
    #expect(SDKProfile.ios.timeZoneText(-60) == "-0060")
    #expect(SDKProfile.android.timeZoneText(-18_000) == "-18000")
    var quiet = DeviceEnvironment.demo(.android, profile: .android)
    quiet.quietPushEnabled = true
    var android = CoreHarness(
      settings: CoreHarness.settings(platform: .android, profile: .android), environment: quiet)
    android.advance(to: 0)
    #expect(android.lastPayload?.quietPushEnabled == false)
    #expect(android.lastPayload?.hwid == "Google Pixel 8")
  }

  @Test("SHA-1 and SHA-256 are the standard digests")
  func digests() {
    let abc = Array("abc".utf8)
    #expect(BodyHash.digest(abc, .sha1) == "sha1:a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(
      BodyHash.digest(abc, .sha256)
        == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test("profiles by name, in any case; anything else is refused")
  func names() {
    #expect(SDKProfile(loose: "Android")?.name == .android)
    #expect(SDKProfile(loose: " IOS ")?.name == .ios)
    #expect(SDKProfile(loose: "documented") == .documented)
    #expect(SDKProfile(loose: "windows") == nil)
  }
}
