import DebugBundle
import EngagementHTTP
import Session

/// A receiving session's debug bundle (#54), for the faces that hold one (`B` in regscope,
/// `regctl qa --bundle`): the receiver's material in process, with its capture.
public enum ReceiverBundles {
  /// One device's material, or every watched device's; nil when the receiver holds nothing of
  /// the device named.
  public static func material(_ session: ReceiverSession, deviceID: String?) async
    -> BundleMaterial?
  {
    await ReceiverBundle.material(
      server: session.server, recorder: (session.front as? LoopbackFront)?.front.recorder,
      deviceID: deviceID, origin: "the receiver at \(session.url)")
  }

  /// The receiver's own files, which a bundle never replaces: its capture and its store.
  public static func protectedFiles(_ session: ReceiverSession) -> [String] {
    [session.options.har, session.server.storeLocation].compactMap { $0 }
  }
}
