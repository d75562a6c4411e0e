/// The built-in QA plans (`regctl qa --list`; `regctl qa --print NAME` to copy and edit one).
/// Each is YAML as a user would write it, parsed like a file.
public enum BuiltInPlans {
  public static let yaml: [(name: String, text: String)] = [
    ("first-registration", firstRegistration), ("throttle", throttle),
    ("retry-ladder", retryLadder), ("retry-after", retryAfter),
    ("contact-key-change", contactKeyChange), ("sdk-upgrade", sdkUpgrade),
    ("release-check", releaseCheck),
  ]

  public static var names: [String] { yaml.map(\.name) }

  public static func plan(_ name: String) -> QAPlan? {
    guard let text = yaml.first(where: { $0.name == name })?.text else { return nil }
    return try? QAPlanParser.parse(text, source: "built-in \(name)")
  }

  static let firstRegistrationSteps = """
      - ask: Install and open the app (a fresh install registers at once), and leave it open.
        timeout: 10m
      - expect: registration
        timeout: 5m
      - expect: no-violation
        timeout: 1s
    """

  static let firstRegistration = """
    name: first-registration
    description: A fresh install registers, and breaks no rule doing it.
    steps:
    \(firstRegistrationSteps)
    """

  /// Only the throttle plan keeps the app open (`app: stays-open`): its point is when the
  /// SDK sends. Elsewhere a screen that locks during a long wait sends a pending change early
  /// on Android, which a correct app does.
  static let throttleSteps = """
      - ask: "Open the app (install it first if it is not). Add the tag qa-start; then, within one minute of it, add the tags qa-a and qa-b. Keep the app open with the screen on until they arrive: leaving, locking or restarting it lets the SDK send early."
        app: stays-open
        timeout: 10m
      - expect: body-has
        tags: [qa-a, qa-b]
        timeout: 3m
      - expect: no-violation
        timeout: 1s
    """

  static let throttle = """
    name: throttle
    description: Two changes made inside the minute after a send travel together in the next registration, never one by one (R3.2, R3.3).
    steps:
    \(throttleSteps)
    """

  static let retryLadderSteps = """
      - fault: 503 x3
      - ask: "Open the app (install it first if it is not), add the tag qa-ladder, then leave it open."
        timeout: 10m
      - expect: retries-keep-minimum
        timeout: 20m
      - ask: "Add the tag qa-token in the app, then leave it open: its next registration must carry the subscriber token the server handed out."
        timeout: 10m
      - expect: token-returned
        timeout: 5m
      - fault: up
    """

  static let retryLadder = """
    name: retry-ladder
    description: Three 503s; each retry no sooner than the SDK's minimum (R4.1); after recovery, the next change carries the subscriber token back.
    steps:
    \(retryLadderSteps)
    """

  static let retryAfterSteps = """
      - fault: 429 retry-after 120
      - ask: "Open the app (install it first if it is not), add the tag qa-wait, then leave it open."
        timeout: 10m
      - expect: retry-after-respected
        timeout: 10m
      - fault: up
    """

  static let retryAfter = """
    name: retry-after
    description: A 429 with Retry-After 120; the next registration waits for it (R4.2).
    steps:
    \(retryAfterSteps)
    """

  static let contactKeyChangeSteps = """
      - ask: "Open the app (install it first if it is not). Sign in as one user, then as another (two contact keys), a minute apart."
        timeout: 15m
      - expect: registration
        timeout: 5m
      - expect: no-violation
        timeout: 1s
    """

  static let contactKeyChange = """
    name: contact-key-change
    description: Changing the contact key is allowed; the report shows the orphan warning it costs (R8).
    steps:
    \(contactKeyChangeSteps)
    """

  static let sdkUpgrade = """
    name: sdk-upgrade
    description: An app updated to a build with a newer SDK keeps the contact's tags and attributes (R1.4); iOS 8.0.0-8.0.6 sent them empty after a 7.x migration, fixed in 8.0.7.
    steps:
      - ask: "With the build on the old SDK installed: add the tag qa-upgrade in the app (and set an attribute if it has one), and leave it open."
        timeout: 10m
      - expect: body-has
        tags: [qa-upgrade]
        timeout: 5m
      - ask: "Install the build with the new SDK over it (do not uninstall it or clear its data), then open it."
        timeout: 30m
      - expect: sdk-upgrade-keeps-data
        timeout: 10m
      - expect: no-violation
        timeout: 1s
    """

  static let releaseCheck = """
    name: release-check
    description: Every built-in check in one run, for each SDK upgrade and release.
    steps:
    \(firstRegistrationSteps)
    \(throttleSteps)
    \(retryLadderSteps)
    \(retryAfterSteps)
    \(contactKeyChangeSteps)
    """
}
