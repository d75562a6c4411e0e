/// What to change in the app for each violation and warning: one sentence a developer can act
/// on, carried by the finding everywhere it is shown (the API, the timeline, the receiver pane,
/// `regctl judge`, the QA report). A note needs none: a correct SDK sent it.
public enum FindingFix {
  public static func sentence(code: FindingCode, rule: String) -> String? {
    switch code {
    case .throttleViolated, .unchangedResent:
      "let the SDK decide when to register: don't post the registration yourself or trigger it repeatedly; it sends a change within 60 s on its own"
    case .retryTooSoon, .retryLadderBroken:
      "retry only through the SDK: remove any retry loop of your own around it; it waits 60 s, then longer, after each failure"
    case .retryAfterIgnored:
      "let the SDK handle 429 and 503 answers: it waits for the server's Retry-After; don't resend before it"
    case .missingRequired:
      "configure the SDK with the app id and access token and let it build the body; don't hand-build registrations"
    case .reservedAttribute:
      "rename the attribute: reserved names belong to the SDK; set the contact key with the SDK's contact-key call, not as an attribute"
    case .undefinedAttribute:
      "add the attribute to the app's attribute set (on RegScope's server: --defined-attributes or PUT /api/demographics; on the tenant: MobilePush Demographics in Contact Builder), or stop sending it"
    case .genericContactKey:
      "use a value unique to the person as the contact key (a customer id), never a placeholder"
    case .contactKeyChanged where rule == "R8.2":
      "set the contact key before the first registration (delayRegistrationUntilContactKeyIsSet) unless anonymous contacts are wanted; --allow contactKeyChanged accepts it"
    case .contactKeyChanged:
      "set the contact key once per person at login; a shared device orphans the one before (--allow contactKeyChanged accepts it)"
    case .sdkUpgradeLostData:
      "ship an SDK that keeps the record across the upgrade (iOS 8.0.7 or later fixed the 7.x migration gap), then set the lost tags and attributes again from the app"
    case .duplicateKey:
      "send the body the SDK builds, as it builds it: find what adds or rewrites keys on the way (an interceptor, a proxy, a hand-built body) and remove it; the tenant reads a repeated key's last value"
    case .backgroundSend, .relaunchSend, .platformSchedule, .refused: nil
    }
  }

  /// For reserved attribute keys, each named: the contact key has its own call, the others
  /// belong to the SDK. Named so a fix read in another field's story says which field it is
  /// about.
  public static func reservedAttribute(_ keys: [String]) -> String {
    let contactKey = keys.filter { $0.caseInsensitiveCompare("contactKey") == .orderedSame }
    let others = keys.filter { $0.caseInsensitiveCompare("contactKey") != .orderedSame }
    let renamed =
      others.isEmpty
      ? nil
      : "rename the attribute\(others.count == 1 ? "" : "s") \(others.prefix(3).joined(separator: ", "))\(others.count > 3 ? " and \(others.count - 3) more" : ""): reserved names belong to the SDK"
    guard let key = contactKey.first else { return renamed ?? "rename the attribute" }
    return
      "stop sending \(key) as an attribute: set the contact key with the SDK's contact-key call (setContactKey, or identity's profileId)"
      + (renamed.map { "; \($0)" } ?? "")
  }
}
