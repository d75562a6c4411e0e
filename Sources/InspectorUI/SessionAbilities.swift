/// What a session lets the keys drive. A key whose needs the session lacks is neither shown in
/// the status bar nor obeyed: it is refused with the reason.
public struct SessionAbilities: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// A local server to inject faults into (not in a remote session).
  public static let localServer = SessionAbilities(rawValue: 1)
  /// A simulated device to edit, background or restart (not while receiving real apps).
  public static let device = SessionAbilities(rawValue: 2)
  /// A clock that jumps, pauses and changes speed (not while receiving: real apps run in
  /// real time).
  public static let clockControl = SessionAbilities(rawValue: 4)
  /// Free to leave a script: not a demo, whose edits and faults would take its scenario off
  /// the script its captions and checks tell.
  public static let unscripted = SessionAbilities(rawValue: 8)

  /// A QA plan runs beside the receiver (`--qa PLAN`): its keys have a checklist to drive.
  public static let qaRun = SessionAbilities(rawValue: 16)

  /// A demo plays (`--scenario NAME`): its checks can be read in words or as expressions.
  public static let demo = SessionAbilities(rawValue: 32)

  public static let all: SessionAbilities = [
    .localServer, .device, .clockControl, .unscripted, .qaRun, .demo,
  ]

  /// Why a key that needs `missing` does nothing here.
  public func refusal(for missing: SessionAbilities, key: String) -> String {
    if missing.contains(.qaRun) {
      return
        "\(key): no QA plan runs here: start one with regscope --receive --qa PLAN (regctl qa --list)"
    }
    if missing.contains(.demo) {
      return
        "\(key): no demo plays here: its checks, in words or as expressions, come with regscope --scenario NAME (regctl scenarios lists them)"
    }
    if !contains(.unscripted) {
      return
        "\(key): a demo plays its scenario as written; edits and faults would take it off script (run regscope without --scenario to try them)"
    }
    if missing.contains(.clockControl) {
      return
        "\(key): the receiver watches real apps in real time; its clock never jumps, pauses or speeds up"
    }
    if missing.contains(.device) {
      return "\(key): there is no simulated device here; the receiver watches real apps"
    }
    return "\(key): the server keys drive the local server; this session talks to a remote one"
  }
}
