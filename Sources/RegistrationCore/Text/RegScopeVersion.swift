/// RegScope's own version: in `--version`, reports and the captures it writes, so a ticket
/// says which build judged it.
public enum RegScopeVersion {
  public static let current = "0.25.0"

  /// What `--version` says: the version, and the SDKs whose registration it reproduces.
  public static let described =
    "\(current) (reproduces the Marketing Cloud MobilePush SDKs for iOS and Android 8.x, 9.x and 10.x; 11.x is judged as 10.x)"
}
