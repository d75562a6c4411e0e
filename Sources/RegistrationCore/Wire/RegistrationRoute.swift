/// Where an SDK posts its registration (R6.1): one constant for the engine that sends it, the
/// front and the relay that receive it, and the judge of captures that finds it.
public enum RegistrationRoute {
  /// Relative to the server URL (which may carry a prefix of its own).
  public static let path = "device/v1/registration"
}
