import Foundation
import Session
import SessionValues

/// The scenario library that ships with RegScope (`regctl scenarios`). Each is a YAML file in
/// the format of DESIGN.md, so any of them can be copied out and edited.
public enum BuiltInScenarios {
  public struct Entry: Sendable {
    public var name: String
    public var yaml: String
  }

  /// The scenario `name` names, in the one order both tools use: a file that exists (or a
  /// name ending in .yaml or .yml) first, then a built-in; nil when it is neither.
  public static func load(_ name: String) throws -> Scenario? {
    if FileManager.default.fileExists(atPath: name) || name.hasSuffix(".yaml")
      || name.hasSuffix(".yml")
    {
      return try ScenarioParser.parse(file: name)
    }
    return try named(name).map(scenario)
  }

  public static func named(_ name: String) -> Entry? { all.first { $0.name == name } }

  public static func scenario(_ entry: Entry) throws(ScenarioError) -> Scenario {
    try ScenarioParser.parse(entry.yaml, source: "built-in:\(entry.name)")
  }

  public static let all: [Entry] = [
    Entry(
      name: "initial-registration",
      yaml: """
        name: initial-registration
        description: "the first launch sends the whole record at once (R3.1); 201 means received, processing follows (S2)"
        steps:
          - { at: 0s, do: launch }
          - { at: 0s, expect: ["sent == 1", "lastStatus == 201", "lastSent.subscriberKey == none", "server.pending == 1"] }
          - { at: 299s, expect: "server.processed == 0" }
          - { at: 5m, expect: ["server.processed == 1", "server.distinctContacts == 1", "server.madeUpContacts == 1", "plan == idle"] }
        """),
    Entry(
      name: "throttle-coalesces",
      yaml: """
        name: throttle-coalesces
        description: "two edits inside one minute travel in one registration, 60 s after the first (R3.2, R3.3)"
        server: { definedAttributes: [CODE] }
        steps:
          - { at: 0s, do: launch }
          - { at: 10s, do: tag add sports }
          - { at: 20s, do: attr set CODE FREE99 }
          - { at: 20s, expect: ["nextSend == 70s", "pending == 2"] }
          - { at: 69.999s, expect: "sent == 1" }
          - { at: 70s, expect: ["sent == 2", "lastSent.tags has sports", "lastSent.attr.CODE == FREE99", "pending == 0"] }
          - { at: 2m, expect: "sent == 2" }
        """),
    Entry(
      name: "edit-while-in-flight",
      yaml: """
        name: edit-while-in-flight
        description: "an edit made while a send is on the wire goes out in the next one, a full window after the success (R3.3, R4.4)"
        config: { networkLatency: 2s }
        steps:
          - { at: 0s, do: launch }
          - { at: 10s, do: tag add first }
          - { at: 71s, do: tag add second }
          - { at: 71s, expect: ["plan == sending", "pending == 2"] }
          - { at: 72s, expect: ["sent == 2", "lastSent.tags has first", "lastSent.tags lacks second", "pending == 1", "nextSend == 132s"] }
          - { at: 134s, expect: ["sent == 3", "lastSent.tags has second", "pending == 0"] }
        """),
    Entry(
      name: "unchanged-record-skipped",
      yaml: """
        name: unchanged-record-skipped
        description: "a tag added and removed in one window leaves the record as acknowledged, so nothing is sent (R3.4)"
        steps:
          - { at: 0s, do: launch }
          - { at: 10s, do: tag add sports }
          - { at: 30s, do: tag remove sports }
          - { at: 70s, expect: ["sent == 1", "sendSkipped == 1", "pending == 0", "plan == idle"] }
        """),
    Entry(
      name: "delay-until-contact-key",
      yaml: """
        name: delay-until-contact-key
        description: "with delayRegistrationUntilContactKeyIsSet nothing is sent until a key is set; edits wait and go with it (R3.5)"
        config: { delayRegistrationUntilContactKeyIsSet: true }
        steps:
          - { at: 0s, do: launch }
          - { at: 0s, expect: ["plan == delayed", "delayed == 1"] }
          - { at: 30s, do: [tag add early, attr set CODE X] }
          - { at: 1h, expect: ["sent == 0", "pending == 3", "server.received == 0"] }
          - { at: 1h, do: contact-key set user-42 }
          - { at: 1h, expect: ["sent == 1", "lastSent.subscriberKey == user-42", "lastSent.tags has early", "lastSent.attr.CODE == X"] }
          - { at: 65m, expect: ["server.distinctContacts == 1", "server.madeUpContacts == 0", "server.orphanedContacts == 0"] }
        """),
    Entry(
      name: "backoff-30-day-outage",
      yaml: """
        name: backoff-30-day-outage
        description: "a 30-day outage: retries at 60 s, 120 s, 240 s ... up to a day, then daily; recovery resets the backoff (R4.1, R4.4)"
        steps:
          - { at: 0s, do: [server down, launch] }
          - { at: 1m, expect: ["failed == 2", "nextSend == 3m"] }
          - { at: 1d, expect: ["failed == 11", "nextSend == 122820"] }
          - { at: 2d, expect: ["failed == 12", "nextSend == 209220"] }
          - { at: 30d, expect: ["failed == 40", "sent == 0", "attempt == 40", "lastStatus == none"] }
          - { at: 30d, do: server up }
          - { at: 31d, expect: ["sent == 1", "attempt == 0", "plan == idle"] }
        """),
    Entry(
      name: "retry-after",
      yaml: """
        name: retry-after
        description: "a 429 with Retry-After is honoured, and a Retry-After above a day is capped at a day (R4.2)"
        steps:
          - { at: 0s, do: ["server fail 429 retry-after 900 times 1", launch] }
          - { at: 0s, expect: ["failed == 1", "lastStatus == 429", "nextSend == 15m"] }
          - { at: 15m, expect: ["sent == 1", "attempt == 0"] }
          - { at: 16m, do: ["tag add later", "server fail 503 retry-after 3d times 1"] }
          - { at: 17m, expect: ["failed == 2", "lastStatus == 503", "nextSend == 87420"] }
          - { at: 87420s, expect: ["sent == 2", "lastSent.tags has later"] }
        """),
    Entry(
      name: "restart-mid-backoff",
      yaml: """
        name: restart-mid-backoff
        description: "killing the app during backoff keeps the attempt count, the due time and the pending edits (R1.4, R4.3)"
        steps:
          - { at: 0s, do: ["server fail 503 times 3", launch] }
          - { at: 3m, expect: ["failed == 3", "attempt == 3", "nextSend == 7m"] }
          - { at: 4m, do: [tag add during-backoff, restart] }
          - { at: 4m, expect: ["launched == 2", "attempt == 3", "nextSend == 7m", "pending == 2"] }
          - { at: 7m, expect: ["sent == 1", "lastSent.tags has during-backoff", "attempt == 0"] }
        """),
    Entry(
      name: "orphan-anonymous-then-known",
      yaml: """
        name: orphan-anonymous-then-known
        description: "an anonymous registration makes the server invent a contact; setting a key later orphans it (R8.2, S3, S4)"
        steps:
          - { at: 0s, do: launch, say: "The app registers before anyone logs in: the server invents a contact for this phone." }
          - { at: 5m, expect: ["server.distinctContacts == 1", "server.madeUpContacts == 1"] }
          - { at: 10m, do: contact-key set user.a@example.com, say: "User A logs in. The invented contact is left with no phone: it can never be reached, and still counts for billing." }
          - { at: 10m, expect: "warnings.orphanRisk == 1" }
          - { at: 16m, expect: ["sent == 2", "orphaned == 1", "server.distinctContacts == 2", "server.orphanedContacts == 1"] }
        """),
    Entry(
      name: "orphan-shared-device",
      yaml: """
        name: orphan-shared-device
        description: "user A then user B on one device: A is orphaned and still counts for billing (R8.3, S4)"
        config: { delayRegistrationUntilContactKeyIsSet: true }
        steps:
          - { at: 0s, do: [launch, contact-key set user.a@example.com], say: "User A logs in on a phone; the app waits for the key before registering." }
          - { at: 10m, do: contact-key set user.b@example.com, say: "User A logged out and User B logged in on the same phone: A can no longer be reached, and still counts for billing." }
          - { at: 10m, expect: "warnings.orphanRisk == 1" }
          - { at: 20m, expect: ["sent == 2", "orphaned == 1", "server.distinctContacts == 2", "server.orphanedContacts == 1"] }
        """),
    Entry(
      name: "undefined-attribute-rejected",
      yaml: """
        name: undefined-attribute-rejected
        description: "one attribute missing from the demographics table rejects the whole registration after the 201; the device cannot know (S5, R4.5)"
        server: { definedAttributes: [CODE] }
        steps:
          - { at: 0s, do: [launch, attr set CODE FREE99] }
          - { at: 1m, do: attr set Favorite blue }
          - { at: 2m, expect: ["sent == 2", "lastStatus == 201", "pending == 0", "plan == idle"] }
          - { at: 7m, expect: ["server.processed == 1", "server.rejected == 1"] }
        """),
    Entry(
      name: "strategy-anonymous-only",
      yaml: """
        name: strategy-anonymous-only
        description: "send to anonymous users only: no contact key, no delay; one made-up contact, no orphans (R8.4)"
        steps:
          - { at: 0s, do: launch, say: "Anonymous only: the app never sets a contact key. The server invents one contact for the phone." }
          - { at: 1h, do: tag add news }
          - { at: 2h, expect: ["sent == 2", "warnings.orphanRisk == 0", "server.distinctContacts == 1", "server.madeUpContacts == 1", "server.orphanedContacts == 0"], say: "One phone, one contact billed, nobody orphaned; but you cannot tie messages to a customer." }
        """),
    Entry(
      name: "strategy-known-only",
      yaml: """
        name: strategy-known-only
        description: "send to known users only: set the key and delay until it is set; no anonymous contact, no orphans (R8.4)"
        config: { delayRegistrationUntilContactKeyIsSet: true }
        steps:
          - { at: 0s, do: launch, say: "Known only: the app waits for login before registering at all. Until then the phone cannot be reached." }
          - { at: 10m, do: contact-key set customer-1001, say: "The customer logs in: the first registration carries their key." }
          - { at: 2h, expect: ["sent == 1", "warnings.orphanRisk == 0", "server.distinctContacts == 1", "server.madeUpContacts == 0", "server.orphanedContacts == 0"], say: "One contact, the real customer; no invented contact, nothing orphaned." }
        """),
    Entry(
      name: "strategy-both",
      yaml: """
        name: strategy-both
        description: "send to anonymous and known users: register at once, set the key after login; the anonymous contact is orphaned (R8.4, R8.2)"
        steps:
          - { at: 0s, do: launch, say: "Both: the app registers at once, so the phone is reachable before login. The server invents a contact for it." }
          - { at: 10m, do: contact-key set customer-1001, say: "The customer logs in. The invented contact is orphaned: unreachable, yet billed." }
          - { at: 2h, expect: ["sent == 2", "warnings.orphanRisk == 1", "server.distinctContacts == 2", "server.madeUpContacts == 1", "server.orphanedContacts == 1"], say: "Two contacts billed for one customer: the price of reaching users before they log in." }
        """),
    Entry(
      name: "android-throttle",
      yaml: """
        name: android-throttle
        description: "sdk android: an edit long after the last send goes out after a 1 s pause; one inside 60 s is answered on the device with 429 and sent when the retry alarm fires 60 s later; going to the background sends a pending change past the throttle (SDK-FACTS)"
        config: { sdk: android }
        steps:
          - { at: 0s, do: launch }
          - { at: 0s, expect: ["sent == 1", "server.received == 1"] }
          - { at: 120s, do: tag add sports }
          - { at: 120s, expect: "nextSend == 121s" }
          - { at: 121s, expect: ["sent == 2", "lastSent.tags has sports", "pending == 0"] }
          - { at: 130s, do: attr set CODE FREE99 }
          - { at: 131s, expect: ["sent == 2", "failed == 1", "lastStatus == 429", "server.received == 2", "nextSend == 191s"] }
          - { at: 190.999s, expect: "sent == 2" }
          - { at: 191s, expect: ["sent == 3", "lastSent.attr.CODE == FREE99", "pending == 0", "server.received == 3"] }
          - { at: 200s, do: tag add news }
          - { at: 201s, expect: ["sent == 3", "failed == 2", "nextSend == 261s"] }
          - { at: 210s, do: background, say: "the user leaves the app: Android deletes its throttle and sends the change now" }
          - { at: 210s, expect: ["sent == 4", "lastSent.tags has news", "server.received == 4"] }
        """),
    Entry(
      name: "ios-interval",
      yaml: """
        name: ios-interval
        description: "sdk ios: an edit long after the last send goes out after a 1 s pause; one inside the 60 s interval waits for its end; a failure doubles the interval (SDK-FACTS)"
        config: { sdk: ios }
        steps:
          - { at: 0s, do: launch }
          - { at: 5m, do: tag add sports }
          - { at: 5m, expect: ["sent == 1", "nextSend == 301s"] }
          - { at: 301s, expect: ["sent == 2", "lastSent.tags has sports"] }
          - { at: 311s, do: attr set CODE FREE99 }
          - { at: 311s, expect: "nextSend == 361s" }
          - { at: 361s, expect: "sent == 3" }
          - { at: 400s, do: server fail 503 times 1 }
          - { at: 10m, do: tag add news }
          - { at: 601s, expect: ["failed == 1", "nextSend == 721s"] }
          - { at: 721s, expect: ["sent == 4", "lastSent.tags has news"] }
        """),
  ]
}
