import Foundation
import RegistrationCore

/// What goes into a debug bundle before it is masked, redacted and zipped: the receiver's own
/// JSON (as its API serves it) or what a judged file gave, and the files a user names.
public struct BundleMaterial: Sendable {
  /// Where it came from, in words: "the receiver at http://127.0.0.1:8080", "files".
  public var origin: String
  /// When it was made (the zip's dates and the README's "when").
  public var createdAt: Date
  /// The settings that shaped the verdict, as `GET /api/stats` gives them (definedAttributes,
  /// processingDelay, fault), or nil.
  public var stats: [UInt8]?
  /// Where the demographics table came from, in words ("--defined-attributes", "the tenant's
  /// MobilePush Demographics"), when known.
  public var demographicsSource: String?
  public var devices: [DeviceMaterial]
  /// HAR 1.2 documents: merged into the bundle's one capture.
  public var captures: [NamedFile]
  /// SDK state dumps as the user gave them.
  public var stateDumps: [NamedFile]
  /// QA reports (Markdown, JUnit, JSON) as they were written.
  public var qaReports: [NamedFile]
  /// Secrets known by value (the app's access token): masked wherever they stand.
  public var secrets: [String]
  /// What could not be gathered (a device whose timeline was dropped): said in the README.
  public var gaps: [String]

  public init(
    origin: String, createdAt: Date = Date(), stats: [UInt8]? = nil,
    demographicsSource: String? = nil, devices: [DeviceMaterial] = [],
    captures: [NamedFile] = [], stateDumps: [NamedFile] = [], qaReports: [NamedFile] = [],
    secrets: [String] = [], gaps: [String] = []
  ) {
    self.origin = origin
    self.createdAt = createdAt
    self.stats = stats
    self.demographicsSource = demographicsSource
    self.devices = devices
    self.captures = captures
    self.stateDumps = stateDumps
    self.qaReports = qaReports
    self.secrets = secrets
    self.gaps = gaps
  }
}

/// One device as the receiver's API shows it: each part the JSON of its route, or nil when the
/// receiver had none.
public struct DeviceMaterial: Sendable {
  public var deviceID: String
  /// Its entry in `GET /api/devices`.
  public var device: [UInt8]?
  /// `GET /api/devices/{id}/registrations`.
  public var timeline: [UInt8]?
  /// `GET /api/devices/{id}/fields`.
  public var fields: [UInt8]?
  /// `GET /api/devices/{id}/explain`.
  public var explain: [UInt8]?

  public init(
    deviceID: String, device: [UInt8]? = nil, timeline: [UInt8]? = nil, fields: [UInt8]? = nil,
    explain: [UInt8]? = nil
  ) {
    self.deviceID = deviceID
    self.device = device
    self.timeline = timeline
    self.fields = fields
    self.explain = explain
  }
}

/// A file by the name it had (its last path component goes into the bundle) and its bytes.
public struct NamedFile: Sendable {
  public var name: String
  public var bytes: [UInt8]

  public init(name: String, bytes: [UInt8]) {
    self.name = name
    self.bytes = bytes
  }
}

/// Why a bundle was not made, written or read: said after "regctl bundle: ".
public struct BundleError: Error, Sendable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// An input could not be read (a file, the receiver).
    case input
    /// Past `DebugBundle.largestBytes`.
    case tooLarge
    /// The output path is refused (it exists, a link, the store, a capture being written).
    case target
    /// A file given as a bundle is not one.
    case notABundle
  }
  public var kind: Kind
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}

/// The bundle's limits and names.
public enum DebugBundle {
  /// The most a bundle holds, its files' bytes added up before they are zipped: 64 MiB.
  public static let largestBytes = 64 << 20
  /// The most files one bundle holds.
  public static let largestFileCount = 10_000
  /// The capture inside, which `regctl judge` and `regscope --open` read.
  public static let capturePath = "capture.har"
  public static let manifestPath = "manifest.json"
  public static let settingsPath = "settings.json"
  public static let readmePath = "README.md"

  /// "64 MiB".
  public static var largestSaid: String { "\(largestBytes >> 20) MiB" }
}
