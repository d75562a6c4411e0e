import EngagementCore
import RegistrationCore

/// "Why didn't my attribute arrive?", answered from what the server holds.
extension LocalEngagementServer {
  /// Each field's story for `deviceID`: nil when the server holds nothing of that device.
  public func fields(of deviceID: String) -> DeviceFieldStories? {
    let watched = watch.devices[deviceID]
    let stories = core.fieldStories(
      of: deviceID, profile: watched?.identity.profile ?? .documented,
      // A wait already over gates nothing: no "earliest at" a time that has passed.
      nextSend: watched?.nextSend.flatMap { $0.at > clock.now() ? $0 : nil })
    return stories.registrationsRead > 0 || watched != nil ? stories : nil
  }

  /// The same story as a short answer, most important first (`FieldExplanation`).
  public func explain(_ deviceID: String) -> [String]? {
    guard let stories = fields(of: deviceID) else { return nil }
    let sentences = FieldExplanation.sentences(stories)
    // Refused before any field could be read (S1), or refused last: that comes first, with
    // its fix, as the reason nothing (new) arrived.
    guard let watched = watch.devices[deviceID], let refusal = watched.lastRefusal,
      stories.registrationsRead == 0 || watched.registrations.last?.refused == true
    else { return sentences }
    let times = watched.refusedCount == 1 ? "once" : "\(watched.refusedCount) times"
    return [
      "The server refused this device's registration \(times) (S1, \(refusal.status)), so no field arrived from those: \(TerminalText.escaped(refusal.reason)). Fix: \(TerminalText.escaped(refusal.fix))."
    ] + sentences
  }
}
