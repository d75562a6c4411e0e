import EngagementCore
import RegistrationCore

/// What a session pushes to the face that watches it, one case per job. Immutable; built once
/// per change, not once per frame.
public enum SessionSnapshot: Sendable {
  /// A simulated device and the local server.
  case device(DeviceView)
  /// Real apps' devices as the receiver (or relay) saw them.
  case receiver(ReceiverView)
  /// A device read from a shipped SDK's state dump: nothing runs.
  case imported(EngineSnapshot, now: Instant)

  public struct DeviceView: Sendable {
    /// Nil before the app is launched.
    public var device: EngineSnapshot?
    /// Nil when registrations go to a remote endpoint: the local server is idle then.
    public var server: ServerSnapshot?
    public var now: Instant
    /// 0 when paused.
    public var rate: Double

    public init(device: EngineSnapshot?, server: ServerSnapshot?, now: Instant, rate: Double) {
      self.device = device
      self.server = server
      self.now = now
      self.rate = rate
    }
  }

  public struct ReceiverView: Sendable {
    public var server: ServerSnapshot?
    /// The most recently seen first.
    public var watched: [DeviceWatch.Device]
    /// With `--any-app`: which app it adopted, or that it waits to.
    public var notice: String?
    public var now: Instant
    /// False for a capture: nothing arrives, and its clock stands at the capture's end.
    public var live: Bool

    public init(
      server: ServerSnapshot?, watched: [DeviceWatch.Device], notice: String?, now: Instant,
      live: Bool = true
    ) {
      self.server = server
      self.watched = watched
      self.notice = notice
      self.now = now
      self.live = live
    }
  }

  public var now: Instant {
    switch self {
    case .device(let view): view.now
    case .receiver(let view): view.now
    case .imported(_, let now): now
    }
  }

  /// How fast the session's clock runs: a receiver's and an import's are real time; a
  /// capture's stands still.
  public var rate: Double {
    switch self {
    case .device(let view): view.rate
    case .receiver(let view): view.live ? 1 : 0
    case .imported: 1
    }
  }

  /// False when nothing will arrive: a capture's devices are all there are.
  public var isLive: Bool {
    if case .receiver(let view) = self { return view.live }
    return true
  }

  public var device: EngineSnapshot? {
    switch self {
    case .device(let view): view.device
    case .receiver: nil
    case .imported(let device, _): device
    }
  }

  public var server: ServerSnapshot? {
    switch self {
    case .device(let view): view.server
    case .receiver(let view): view.server
    case .imported: nil
    }
  }

  /// In a receiver session: the real apps' devices, the most recently seen first.
  public var watched: [DeviceWatch.Device]? {
    if case .receiver(let view) = self { return view.watched }
    return nil
  }

  public var receiverNotice: String? {
    if case .receiver(let view) = self { return view.notice }
    return nil
  }
}
