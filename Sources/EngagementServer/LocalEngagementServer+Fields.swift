import EngagementCore
import RegistrationCore

/// "Why didn't my attribute arrive?", answered from what the server holds.
extension LocalEngagementServer {
  /// Each field's story for `deviceID`: nil when the server holds nothing of that device.
  public func fields(of deviceID: String) -> DeviceFieldStories? {
    let watched = watch.devices[deviceID]
    var stories = core.fieldStories(
      of: deviceID, profile: watched?.identity.profile ?? .documented,
      // A wait already over gates nothing: no "earliest at" a time that has passed.
      nextSend: watched?.nextSend.flatMap { $0.at > clock.now() ? $0 : nil })
    stories.judgement = watched.map(DeviceJudgement.init)
    return stories.registrationsRead > 0 || watched != nil ? stories : nil
  }

  /// The same story as a short answer, most important first (`FieldExplanation`): what never
  /// arrived and why, each rejection with its fix, every violation and warning, the notes.
  public func explain(_ deviceID: String) -> [String]? {
    fields(of: deviceID).map { FieldExplanation.sentences($0) }
  }
}
