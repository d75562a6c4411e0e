/// RegScope's own version: in `--version`, reports and the captures it writes, so a ticket
/// says which build judged it.
public enum RegScopeVersion {
  public static let current = "0.25.0"
}
