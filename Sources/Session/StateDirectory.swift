import EngagementCore
import Foundation
import SessionValues

/// Where RegScope keeps state between runs: `$XDG_STATE_HOME/regscope`, else
/// `~/.local/state/regscope`, unless `--state DIR` says otherwise.
public enum StateDirectory {
  public static func resolve(_ explicit: String?) -> String {
    if let explicit { return explicit }
    let environment = ProcessInfo.processInfo.environment
    if let base = environment["XDG_STATE_HOME"], base.hasPrefix("/") {
      return base + "/regscope"
    }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + "/.local/state/regscope"
  }

  public static func deviceStore(in directory: String) -> String { directory + "/device.sqlite" }
  public static func serverStore(in directory: String) -> String {
    directory + "/local-server.sqlite"
  }
}
