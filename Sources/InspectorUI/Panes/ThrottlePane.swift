import Foundation
import RegistrationCore
import SessionValues

/// 3 Throttle: when the next send goes out, and why.
extension Panes {
  /// What a change made now would wait, from the machine's own schedule.
  static func changeHint(_ device: EngineSnapshot, now: Instant) -> String {
    guard let leaves = device.machine.changeWouldLeave(madeAt: now) else {
      return "a change now would not be sent yet"
    }
    let wait = leaves - now
    return wait <= 0
      ? "a change now goes out at once"
      : "a change now waits \(DurationText.describe(wait.rounded(.up)))"
  }

  /// What the device does with an attempt it will not send yet: Android answers it 429
  /// itself; iOS holds it (its Retry-After is looked at later).
  static func heldOnDevice(_ profile: SDKProfile) -> String {
    if case .throttleAlarm = profile.schedule { return "answered 429 on the device" }
    return "held on the device"
  }

  static func throttle(_ model: InspectorModel) -> [Line] {
    guard let device = model.device else { return [] }
    switch device.plan {
    case .idle:
      var lines: [Line] = [[("idle", .success), (": nothing to send", .normal)]]
      lines.append([(changeHint(device, now: model.now), .dim)])
      return lines
    case .inFlight(let since):
      return [
        [
          ("sending", .accent),
          (" for \(DurationText.describe(max(0, model.now - since)))…", .normal),
        ]
      ]
    case .delayedForContactKey:
      return [
        [("delayed", .warning)],
        [("waiting for a contact key", .normal)],
        [("delay until key is set (R3.5)", .dim)],
      ]
    case .blocked(let missing):
      return [[("not sent: missing \(missing.joined(separator: ", ")) (R6.3)", .error)]]
    case .due(let at, let reason, let openedBy):
      let left = max(0, at - model.now)
      let countdown = left <= 0 ? "now" : "in \(DurationText.describe(left.rounded(.up)))"
      let why: String
      switch reason {
      case .initial: why = "initial registration (R3.1)"
      case .retry: why = "a retry: see 4 Backoff"
      case .change:
        let opened: Line = [
          ("opened by ", .dim), (openedBy.map { text($0.description) } ?? "a change", .normal),
        ]
        // Android inside its throttle: the attempt is answered on the device, the change
        // leaves with the alarm after it.
        if let leaves = device.machine.pendingWouldLeave(now: model.now), leaves > at {
          return [
            [("next attempt ", .normal), (countdown, .countdown)],
            [(Self.heldOnDevice(device.settings.profile), .warning)],
            [
              ("sent in ", .normal),
              (DurationText.describe((leaves - model.now).rounded(.up)), .countdown),
            ],
            opened,
          ]
        }
        return [
          [("next send ", .normal), (countdown, .countdown)],
          [(device.settings.profile.changeRule, .dim)], opened,
        ]
      }
      return [[("next send ", .normal), (countdown, .countdown)], [(why, .dim)]]
    }
  }
}
