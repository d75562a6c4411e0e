import Foundation
import RegistrationCore
import RegistrationEngine
import SessionValues

/// The SDK-state dump: what the device holds, as JSON a person can read.
public enum StateReport {
  /// - Parameter planKnown: false for a store read without its configuration, where the plan
  ///   (delay mode, say) cannot be told.
  /// - Parameter compact: one line (`--json`), not indented for a person.
  public static func json(
    _ snapshot: EngineSnapshot, history: [SendRecord], planKnown: Bool = true,
    compact: Bool = false
  ) -> String {
    let state = snapshot.state
    let record = state.record
    var object: [String: Any] = [
      "store": snapshot.storeLocation,
      "record": [
        "contactKey": record.contactKey as Any,
        "attributes": record.attributes,
        "tags": snapshot.settings.allTags(of: record),
        "clearedAttributesToSend": record.clearedAttributes.sorted(),
        "deviceID": record.device.deviceID,
        "etAppId": record.device.etAppId,
        "platform": record.device.platform.rawValue,
      ],
      "pending": state.pending.map {
        [
          "target": $0.target.description, "change": $0.summary, "firstAt": $0.firstAt.seconds,
          "lastAt": $0.lastAt.seconds,
        ] as [String: Any]
      },
      "missingRequired": snapshot.missingRequired,
    ]
    if planKnown { object["plan"] = describe(snapshot.plan) }
    if let retry = state.scheduler.retry {
      object["retry"] = [
        "failures": retry.failures, "nextAttemptAt": retry.nextAttemptAt.seconds,
        "failedAt": retry.failedAt.seconds, "lastStatus": retry.lastStatus as Any,
        "lastError": retry.lastError as Any, "needsFix": retry.needsFix,
      ]
    } else {
      object["retry"] = NSNull()
    }
    if let acked = state.lastAcknowledged {
      let body = try? JSONSerialization.jsonObject(with: acked.payload.encodedBody())
      object["lastAcknowledged"] = [
        "at": acked.at.seconds, "status": acked.status, "hash": acked.hash, "body": body as Any,
      ]
    } else {
      object["lastAcknowledged"] = NSNull()
    }
    object["history"] = history.map {
      [
        "sendID": $0.sendID, "attempt": $0.attempt, "reason": $0.reason.rawValue,
        "startedAt": $0.startedAt.seconds, "status": $0.status as Any, "error": $0.error as Any,
        "hash": $0.hash,
      ] as [String: Any]
    }
    let data =
      (try? JSONSerialization.data(
        withJSONObject: object,
        options: compact
          ? [.sortedKeys, .withoutEscapingSlashes]
          : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
      ?? Data("{}".utf8)
    return String(decoding: JSONText.escapingInvisibles(Array(data)), as: UTF8.self)
  }

  static func describe(_ plan: SendPlan) -> String {
    switch plan {
    case .idle: "idle: nothing to send"
    case .inFlight(let since): "sending since \(since.seconds)"
    case .delayedForContactKey: "delayed: waiting for a contact key (R3.5)"
    case .blocked(let missing): "blocked: missing \(missing.joined(separator: ", ")) (R6.3)"
    case .due(let at, let reason, let openedBy):
      "due at \(at.seconds) (\(reason.rawValue)\(openedBy.map { ", window opened by \($0)" } ?? ""))"
    }
  }
}
