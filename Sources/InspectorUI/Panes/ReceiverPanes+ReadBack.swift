import EngagementCore
import RegistrationCore

extension ReceiverPanes {
  /// Read-backs shown in the timeline: the newest few (the API keeps `readBacksKept`).
  static let readBacksShown = 3

  /// The tenant's answers to "did it arrive?" under the device's registrations, newest last,
  /// and when it is asked next: green when everything is held as sent, red otherwise. A row
  /// has the headline; the event line and the API have the whole summary.
  static func readBackLines(_ model: InspectorModel, _ device: DeviceWatch.Device) -> [Line] {
    var lines: [Line] = device.readBacks.suffix(readBacksShown).map { readBack in
      let role: StyleRole =
        readBack.allHeld ? .success : readBack.outcome.isFailure ? .error : .warning
      return [
        (model.format(Instant(readBack.askedAt)) + " ", .dim),
        // Escaped when it was made (values from the app and the tenant).
        (readBack.headline, role),
      ]
    }
    if let due = device.readBackDue {
      let left = due - model.now
      lines.append([
        (
          left > 0
            ? "tenant asked whether it arrived in \(DurationText.describe(left.rounded(.up)))"
            : "tenant being asked whether it arrived",
          .countdown
        )
      ])
    }
    return lines
  }
}
