import EngagementCore
import RegistrationCore

/// "Why didn't my attribute arrive?", answered from what the server holds.
extension LocalEngagementServer {
  /// Each field's story for `deviceID`: nil when the server holds nothing of that device.
  public func fields(of deviceID: String) -> DeviceFieldStories? {
    let watched = watch.devices[deviceID]
    let stories = core.fieldStories(
      of: deviceID, profile: watched?.identity.profile ?? .documented,
      nextSend: watched?.nextSend)
    return stories.registrationsRead > 0 || watched != nil ? stories : nil
  }

  /// The same story as a short answer, most important first (`FieldExplanation`).
  public func explain(_ deviceID: String) -> [String]? {
    fields(of: deviceID).map { FieldExplanation.sentences($0) }
  }
}
