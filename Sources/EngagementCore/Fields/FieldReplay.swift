import RegistrationCore

/// A capture's registrations replayed through the server's processing (S2-S5), so `regctl
/// judge --fields` and `--explain` can tell each field's story as the local server tells it:
/// a capture holds what the tenant answered (201), not what its processing did later. Every
/// registration the tenant took (a 2xx) is received and processed in order, with the
/// demographics table given (none: every attribute accepted).
public struct FieldReplay: Sendable {
  private var core: EngagementServerCore

  public init(definedAttributes: Set<String>?) {
    core = EngagementServerCore(
      settings: ServerSettings(
        appID: "capture", accessToken: "capture", processingDelay: 0,
        definedAttributes: definedAttributes),
      seed: 1)
  }

  mutating func add(_ payload: RegistrationPayload, body: [UInt8], at: Instant) {
    _ = core.processDue(now: at)
    _ = core.receive(.valid(payload, body: body), now: at)
  }

  /// Each device's story, processing done; in the watch's order, the newest device first.
  public mutating func stories(_ watch: DeviceWatch) -> [DeviceFieldStories] {
    _ = core.processDue(now: Instant(.greatestFiniteMagnitude))
    return watch.newest(watch.devices.count).map {
      var stories = core.fieldStories(of: $0.deviceID, profile: $0.identity.profile, nextSend: nil)
      stories.judgement = DeviceJudgement($0)
      return stories
    }
  }
}
