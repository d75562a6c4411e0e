import EngagementCore
import RegistrationCore
import YAMLFiles

/// A QA plan (a YAML file in the style of the scenarios): steps a tester and RegScope take in
/// turn against a real app (`regctl qa`), each ending as pass, fail or timed out.
public struct QAPlan: Sendable {
  public var name: String
  public var description: String
  /// Which device the steps are about.
  public var device: DeviceChoice
  public var steps: [QAStep]
  /// Where the plan came from: a file path, or "built-in".
  public var source: String

  public enum DeviceChoice: Sendable, Hashable, CustomStringConvertible {
    /// The first device that registers once the plan starts.
    case first
    case id(String)

    public var description: String {
      switch self {
      case .first: "the first device that registers"
      case .id(let id): "device \(id)"
      }
    }
  }
}

public struct QAStep: Sendable {
  public var number: Int
  public var position: SourcePosition
  public var action: Action
  /// How long the step may take before it ends as timed out (none for a fault: it is at once).
  public var timeout: Double?
  /// The device this step binds to, when it names its own.
  public var device: QAPlan.DeviceChoice?
  /// `app: stays-open` on an ask: the tester keeps the app open and in the foreground from
  /// this ask until the next one (no relaunch, no trip to the background), so neither
  /// explains a send earlier than the SDK allows (`QAKnowledge`).
  public var keepsAppOpen = false

  public enum Action: Sendable {
    /// An instruction for the tester.
    case ask(String)
    /// A fault the receiver injects (S7).
    case fault(QAFault)
    /// An expectation about the device's registrations, in the judge's vocabulary.
    case expect(QAExpectation)
  }

  /// The step as a line of the report.
  public var summary: String {
    switch action {
    case .ask(let text): "ask: \(text)"
    case .fault(let fault): "fault: \(fault.text)"
    case .expect(let expectation): "expect: \(expectation.summary)"
    }
  }
}

/// What `fault:` takes: `503 x3`, `fail 503 times 3`, `429 retry-after 120`, `down 5m`,
/// `hang`, `drop`, `up`.
public struct QAFault: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    case status(Int, times: Int?, retryAfter: Double?, duration: Double?)
    case down(Double?)
    case hang, drop, up
  }

  public var kind: Kind
  public var text: String

  /// The fault the server puts in force, or nil for `up`.
  public func fault(now: Instant) -> ServerFault? {
    switch kind {
    case .status(let status, let times, let retryAfter, let duration):
      ServerFault(
        kind: .status(status, retryAfter: retryAfter), remaining: times,
        until: duration.map { now + $0 })
    case .down(let duration): ServerFault(kind: .down, until: duration.map { now + $0 })
    case .hang: ServerFault(kind: .hang)
    case .drop: ServerFault(kind: .drop)
    case .up: nil
    }
  }
}

public enum QAExpectation: Sendable, Hashable {
  /// A registration arrives (within the step's time-out).
  case registration
  /// No finding so far is a violation.
  case noViolation
  /// After a failure, the retries until one succeeds keep to the SDK's minimum waits.
  case retriesKeepMinimum
  /// After an answer with Retry-After, the next registration is not sent before it.
  case retryAfterRespected
  /// The app sends back the subscriber token it was given.
  case tokenReturned
  /// A registration carries these tags and attributes (a nil value: any value).
  case bodyHas(tags: [String], attributes: [String: String?])
  /// The app's SDK is upgraded, and the registration after it keeps the record's tags and
  /// attributes (R1.4; SDK-FACTS, "Across SDK majors").
  case upgradeKeepsData
  /// The tenant, asked after the window (`--tenant` with `--upstream`), holds what the app
  /// sent since the step's window began (`ReadBack`).
  case arrived

  public static let names = [
    "registration", "no-violation", "retries-keep-minimum", "retry-after-respected",
    "token-returned", "body-has", "sdk-upgrade-keeps-data", "arrived",
  ]

  public var summary: String {
    switch self {
    case .registration: "a registration arrives"
    case .noViolation: "no violation"
    case .retriesKeepMinimum: "the retries keep to the SDK's minimum"
    case .retryAfterRespected: "the next send is not before Retry-After"
    case .tokenReturned: "the subscriber token is sent back"
    case .upgradeKeepsData: "the SDK is upgraded, and the record keeps its tags and attributes"
    case .arrived: "the tenant holds what the app sent (did it arrive?)"
    case .bodyHas(let tags, let attributes):
      "a registration carries "
        + (tags.map { "tag \($0)" }
        + attributes.sorted { $0.key < $1.key }.map {
          "attribute \($0.key)" + ($0.value.map { "=\($0)" } ?? "")
        })
        .joined(separator: ", ")
    }
  }
}

/// What is wrong in a QA plan file, and where (`file:line:column: message`).
public typealias QAPlanError = SourceError
