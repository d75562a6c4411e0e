import Foundation
import Session
import SessionValues
import YAMLFiles

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
          - { at: 0s, do: launch, say: "The app starts for the first time. The SDK registers the phone at once, with its whole contact record." }
          - { at: 0s, expect: ["sent == 1", "lastStatus == 201", "lastSent.subscriberKey == none", "server.pending == 1"], say: "The server answers 201: received. That is not yet accepted: processing comes later." }
          - { at: 299s, expect: "server.processed == 0", say: "Almost five minutes on, the registration still waits to be processed." }
          - { at: 5m, expect: ["server.processed == 1", "server.distinctContacts == 1", "server.madeUpContacts == 1", "plan == idle"], say: "Processed: with no contact key the server invented a contact for this phone. One registration, sent at once, nothing left to send." }
        """),
    Entry(
      name: "throttle-coalesces",
      yaml: """
        name: throttle-coalesces
        description: "two edits inside one minute travel in one registration, 60 s after the first (R3.2, R3.3)"
        server: { definedAttributes: [CODE] }
        steps:
          - { at: 0s, do: launch, say: "The app starts and registers at once." }
          - { at: 10s, do: tag add sports, say: "The user follows sports: a tag is added. It is not sent yet: the SDK waits up to a minute to gather changes." }
          - { at: 20s, do: attr set CODE FREE99, say: "Ten seconds later a promo code is saved. It joins the same waiting registration." }
          - { at: 20s, expect: ["nextSend == 70s", "pending == 2"], say: "Two changes wait together; the send is due 60 s after the first one." }
          - { at: 69.999s, expect: "sent == 1", say: "A blink before the minute is up, still only the first registration has gone." }
          - { at: 70s, expect: ["sent == 2", "lastSent.tags has sports", "lastSent.attr.CODE == FREE99", "pending == 0"], say: "One registration carries both changes: the tag and the code." }
          - { at: 2m, expect: "sent == 2", say: "Shown: edits made within a minute travel together in one registration, never one each." }
        """),
    Entry(
      name: "edit-while-in-flight",
      yaml: """
        name: edit-while-in-flight
        description: "an edit made while a send is on the wire goes out in the next one, a full window after the success (R3.3, R4.4)"
        config: { networkLatency: 2s }
        steps:
          - { at: 0s, do: launch, say: "The app starts and registers. This network is slow: each send takes 2 seconds." }
          - { at: 10s, do: tag add first, say: "A tag is added; its registration goes a minute later." }
          - { at: 71s, do: tag add second, say: "While that registration is still on the wire, a second tag is added." }
          - { at: 71s, expect: ["plan == sending", "pending == 2"], say: "The send in flight cannot take it any more: the new tag waits." }
          - { at: 72s, expect: ["sent == 2", "lastSent.tags has first", "lastSent.tags lacks second", "pending == 1", "nextSend == 132s"], say: "The first tag arrived; the second waits a full minute from that success." }
          - { at: 134s, expect: ["sent == 3", "lastSent.tags has second", "pending == 0"], say: "Shown: an edit made during a send is never lost; it goes out in the next registration." }
        """),
    Entry(
      name: "unchanged-record-skipped",
      yaml: """
        name: unchanged-record-skipped
        description: "a tag added and removed in one window leaves the record as acknowledged, so nothing is sent (R3.4)"
        steps:
          - { at: 0s, do: launch, say: "The app starts and registers." }
          - { at: 10s, do: tag add sports, say: "The user follows sports..." }
          - { at: 30s, do: tag remove sports, say: "...and changes their mind 20 seconds later." }
          - { at: 70s, expect: ["sent == 1", "sendSkipped == 1", "pending == 0", "plan == idle"], say: "Shown: the record is back to what the server already has, so nothing is sent at all." }
        """),
    Entry(
      name: "delay-until-contact-key",
      yaml: """
        name: delay-until-contact-key
        description: "with delayRegistrationUntilContactKeyIsSet nothing is sent until a key is set; edits wait and go with it (R3.5)"
        config: { delayRegistrationUntilContactKeyIsSet: true }
        steps:
          - { at: 0s, do: launch, say: "This app waits for a contact key before it registers. It starts: nothing is sent." }
          - { at: 0s, expect: ["plan == delayed", "delayed == 1"], say: "The SDK says why it waits: no contact key is set yet." }
          - { at: 30s, do: [tag add early, attr set CODE X], say: "The user browses: a tag and a code are saved. They are kept, not sent." }
          - { at: 1h, expect: ["sent == 0", "pending == 3", "server.received == 0"], say: "An hour on, the server has still heard nothing from this phone." }
          - { at: 1h, do: contact-key set user-42, say: "The user logs in: the contact key is set." }
          - { at: 1h, expect: ["sent == 1", "lastSent.subscriberKey == user-42", "lastSent.tags has early", "lastSent.attr.CODE == X"], say: "At once, one registration carries the key and everything saved while waiting." }
          - { at: 65m, expect: ["server.distinctContacts == 1", "server.madeUpContacts == 0", "server.orphanedContacts == 0"], say: "Shown: waiting for the key means one real contact, no invented one, nothing orphaned." }
        """),
    Entry(
      name: "backoff-30-day-outage",
      yaml: """
        name: backoff-30-day-outage
        description: "a 30-day outage: retries at 60 s, 120 s, 240 s ... up to a day, then daily; recovery resets the backoff (R4.1, R4.4)"
        steps:
          - { at: 0s, do: [server down, launch], say: "The server is down. The app starts and its first registration fails." }
          - { at: 1m, expect: ["failed == 2", "nextSend == 3m"], say: "It retries after 60 s, fails again, and now waits twice as long: 2 minutes." }
          - { at: 1d, expect: ["failed == 11", "nextSend == 122820"], say: "A day on: the waits doubled each time (4, 8, 16 minutes...) and reached the cap of one day." }
          - { at: 2d, expect: ["failed == 12", "nextSend == 209220"], say: "From now on it tries once a day, never more often: the phone does not hammer a broken server." }
          - { at: 30d, expect: ["failed == 40", "sent == 0", "attempt == 40", "lastStatus == none"], say: "Thirty days and forty tries later, nothing has got through." }
          - { at: 30d, do: server up, say: "The server comes back." }
          - { at: 31d, expect: ["sent == 1", "attempt == 0", "plan == idle"], say: "Shown: the next daily try succeeds and the backoff resets. Nothing was lost in a month of outage." }
        """),
    Entry(
      name: "retry-after",
      yaml: """
        name: retry-after
        description: "a 429 with Retry-After is honoured, and a Retry-After above a day is capped at a day (R4.2)"
        steps:
          - { at: 0s, do: ["server fail 429 retry-after 900 times 1", launch], say: "The server is busy: it answers 429 and asks the app to come back in 15 minutes." }
          - { at: 0s, expect: ["failed == 1", "lastStatus == 429", "nextSend == 15m"], say: "The SDK honours it: the retry is set for 15 minutes, not 60 s." }
          - { at: 15m, expect: ["sent == 1", "attempt == 0"], say: "Fifteen minutes later the registration goes through." }
          - { at: 16m, do: ["tag add later", "server fail 503 retry-after 3d times 1"], say: "A tag is added; this time the server asks for three days." }
          - { at: 17m, expect: ["failed == 2", "lastStatus == 503", "nextSend == 87420"], say: "The SDK caps any Retry-After at one day." }
          - { at: 87420s, expect: ["sent == 2", "lastSent.tags has later"], say: "Shown: Retry-After is honoured, and never for more than a day." }
        """),
    Entry(
      name: "restart-mid-backoff",
      yaml: """
        name: restart-mid-backoff
        description: "killing the app during backoff keeps the attempt count, the due time and the pending edits (R1.4, R4.3)"
        steps:
          - { at: 0s, do: ["server fail 503 times 3", launch], say: "The server fails the next three registrations. The app starts." }
          - { at: 3m, expect: ["failed == 3", "attempt == 3", "nextSend == 7m"], say: "Three failures: the next try waits 4 minutes." }
          - { at: 4m, do: [tag add during-backoff, restart], say: "A tag is added, then the app is killed and started again." }
          - { at: 4m, expect: ["launched == 2", "attempt == 3", "nextSend == 7m", "pending == 2"], say: "After the restart the backoff, its due time and the new tag all came back from storage." }
          - { at: 7m, expect: ["sent == 1", "lastSent.tags has during-backoff", "attempt == 0"], say: "Shown: a crash or a kill loses nothing; the retry goes on as planned and carries the tag." }
        """),
    Entry(
      name: "orphan-anonymous-then-known",
      yaml: """
        name: orphan-anonymous-then-known
        description: "an anonymous registration makes the server invent a contact; setting a key later orphans it (R8.2, S3, S4)"
        steps:
          - { at: 0s, do: launch, say: "The app registers before anyone logs in: the server invents a contact for this phone." }
          - { at: 5m, expect: ["server.distinctContacts == 1", "server.madeUpContacts == 1"], say: "Processed: one contact, invented by the server." }
          - { at: 10m, do: contact-key set user.a@example.com, say: "User A logs in. Once the server processes this, the invented contact has no phone left: it can never be reached, and still counts for billing." }
          - { at: 10m, expect: "warnings.orphanRisk == 1", say: "The SDK warns: this key change orphans a contact." }
          - { at: 16m, expect: ["sent == 2", "orphaned == 1", "server.distinctContacts == 2", "server.orphanedContacts == 1"], say: "Shown: one phone, two contacts billed, one of them orphaned. Delay registration until the key is set to avoid it." }
        """),
    Entry(
      name: "orphan-shared-device",
      yaml: """
        name: orphan-shared-device
        description: "user A then user B on one device: A is orphaned and still counts for billing (R8.3, S4)"
        config: { delayRegistrationUntilContactKeyIsSet: true }
        steps:
          - { at: 0s, do: [launch, contact-key set user.a@example.com], say: "User A logs in on a phone; the app waits for the key before registering." }
          - { at: 10m, do: contact-key set user.b@example.com, say: "User A logged out and User B logged in on the same phone. Once the server processes this, A has no phone left: unreachable, and still billed." }
          - { at: 10m, expect: "warnings.orphanRisk == 1", say: "The SDK warns that A's contact is about to be orphaned." }
          - { at: 20m, expect: ["sent == 2", "orphaned == 1", "server.distinctContacts == 2", "server.orphanedContacts == 1"], say: "Shown: sharing a phone between logins leaves A orphaned: two contacts billed, one unreachable." }
        """),
    Entry(
      name: "undefined-attribute-rejected",
      yaml: """
        name: undefined-attribute-rejected
        description: "one attribute missing from the demographics table rejects the whole registration after the 201; the device cannot know (S5, R4.5)"
        server: { definedAttributes: [CODE] }
        steps:
          - { at: 0s, do: [launch, attr set CODE FREE99], say: "The account defines one attribute, CODE. The app starts and saves a code." }
          - { at: 1m, do: attr set Favorite blue, say: "The app also saves Favorite, an attribute the account never defined." }
          - { at: 2m, expect: ["sent == 2", "lastStatus == 201", "pending == 0", "plan == idle"], say: "Both registrations were answered 201: as far as the phone knows, all is well." }
          - { at: 7m, expect: ["server.processed == 1", "server.rejected == 1"], say: "Shown: processing rejected the whole second registration for one undefined attribute, and the phone can never know." }
        """),
    Entry(
      name: "strategy-anonymous-only",
      yaml: """
        name: strategy-anonymous-only
        description: "send to anonymous users only: no contact key, no delay; one made-up contact, no orphans (R8.4)"
        steps:
          - { at: 0s, do: launch, say: "Anonymous only: the app never sets a contact key. The server invents one contact for the phone." }
          - { at: 1h, do: tag add news, say: "An hour later the user follows news." }
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
          - { at: 0s, do: launch, say: "An Android app starts and registers." }
          - { at: 0s, expect: ["sent == 1", "server.received == 1"], say: "The server has the first registration." }
          - { at: 120s, do: tag add sports, say: "Two minutes later a tag is added: Android waits only a second before sending." }
          - { at: 120s, expect: "nextSend == 121s", say: "Due in one second." }
          - { at: 121s, expect: ["sent == 2", "lastSent.tags has sports", "pending == 0"], say: "Sent." }
          - { at: 130s, do: attr set CODE FREE99, say: "Nine seconds later a code is saved: inside Android's one-minute throttle." }
          - { at: 131s, expect: ["sent == 2", "failed == 1", "lastStatus == 429", "server.received == 2", "nextSend == 191s"], say: "Android answers itself with a 429 on the phone (nothing leaves) and sets its retry alarm for 60 s." }
          - { at: 190.999s, expect: "sent == 2", say: "Just before the alarm, still nothing new on the server." }
          - { at: 191s, expect: ["sent == 3", "lastSent.attr.CODE == FREE99", "pending == 0", "server.received == 3"], say: "The alarm fires and the code goes out." }
          - { at: 200s, do: tag add news, say: "Another tag, again inside the throttle..." }
          - { at: 201s, expect: ["sent == 3", "failed == 2", "nextSend == 261s"], say: "...so it waits for the next alarm." }
          - { at: 210s, do: background, say: "The user leaves the app: Android deletes its throttle and sends the change now." }
          - { at: 210s, expect: ["sent == 4", "lastSent.tags has news", "server.received == 4"], say: "Shown: Android's throttle, its local 429, and why two sends a few seconds apart can be correct." }
        """),
    Entry(
      name: "ios-interval",
      yaml: """
        name: ios-interval
        description: "sdk ios: an edit long after the last send goes out after a 1 s pause; one inside the 60 s interval waits for its end; a failure doubles the interval (SDK-FACTS)"
        config: { sdk: ios }
        steps:
          - { at: 0s, do: launch, say: "An iOS app starts and registers." }
          - { at: 5m, do: tag add sports, say: "Five minutes later a tag is added: iOS pauses about a second, then sends." }
          - { at: 5m, expect: ["sent == 1", "nextSend == 301s"], say: "Due in one second." }
          - { at: 301s, expect: ["sent == 2", "lastSent.tags has sports"], say: "Sent." }
          - { at: 311s, do: attr set CODE FREE99, say: "Ten seconds later a code is saved: inside the 60-second interval." }
          - { at: 311s, expect: "nextSend == 361s", say: "It waits for the interval to end, 60 s after the last send." }
          - { at: 361s, expect: "sent == 3", say: "Sent at the end of the interval." }
          - { at: 400s, do: server fail 503 times 1, say: "The server will fail the next registration." }
          - { at: 10m, do: tag add news, say: "A tag is added; its send fails with 503." }
          - { at: 601s, expect: ["failed == 1", "nextSend == 721s"], say: "The failure doubles the interval: the retry waits 2 minutes." }
          - { at: 721s, expect: ["sent == 4", "lastSent.tags has news"], say: "Shown: iOS sends soon after an edit, once per interval, and doubles the interval after a failure." }
        """),
    Entry(
      name: "sdk-upgrade",
      yaml: """
        name: sdk-upgrade
        description: "an app updated from SDK 9.0.3 to 10.0.0: the new version changes the body, so one registration goes out at its first launch, with the whole record kept (R1.4; SDK-FACTS, Across SDK majors)"
        config: { sdk: android@9.0.3 }
        server: { definedAttributes: [Tier] }
        steps:
          - { at: 0s, do: launch, say: "An Android app built with SDK 9.0.3 starts and registers." }
          - { at: 2m, do: [tag add sports, attr set Tier gold], say: "The user follows sports and reaches the gold tier." }
          - { at: 3m, expect: ["sent == 2", "lastSent.tags has sports", "lastSent.attr.Tier == gold"], say: "Both travel in one registration, sent by SDK 9.0.3." }
          - { at: 1h, do: [system set sdk-version 10.0.0, restart], say: "An hour later the store updates the app: the new build carries SDK 10.0.0, and the app starts again." }
          - { at: 3601s, expect: ["sent == 3", "lastSent.tags has sports", "lastSent.attr.Tier == gold", "pending == 0"], say: "The new version is a change of the record: one registration goes out a second after launch, and it still carries the tag and the tier." }
          - { at: 2h, expect: "sent == 3", say: "Shown: an upgrade costs one registration and keeps the contact's data. A receiver warns when an upgrade loses it (sdkUpgradeLostData: iOS 8.0.0-8.0.6 after a 7.x migration); the QA plan sdk-upgrade checks a real app." }
        """),
  ]
}
