import EngagementCore
import RegistrationCore

/// "Why didn't my attribute arrive?", answered from what the server holds.
extension LocalEngagementServer {
  /// What a device's story is read from, taken in one turn of the actor.
  struct FieldInputs: Sendable {
    var registrations: [ServerRegistration]
    var facts: FieldFacts
    var watched: DeviceWatch.Device?
  }

  func fieldInputs(_ deviceID: String) -> FieldInputs? {
    let watched = watch.devices[deviceID]
    let (registrations, facts) = core.fieldSources(
      of: deviceID, profile: watched?.identity.profile ?? .documented,
      // A wait already over gates nothing: no "earliest at" a time that has passed.
      nextSend: watched?.nextSend.flatMap { $0.at > clock.now() ? $0 : nil })
    guard !registrations.isEmpty || watched != nil else { return nil }
    return FieldInputs(registrations: registrations, facts: facts, watched: watched)
  }

  /// Each field's story for `deviceID`: nil when the server holds nothing of that device.
  /// Built outside the actor from what one turn of it gave: a device that sent thousands of
  /// fields never holds another device's registration behind its story.
  public nonisolated func fields(of deviceID: String) async -> DeviceFieldStories? {
    guard let inputs = await fieldInputs(deviceID) else { return nil }
    var stories = DeviceFieldStories.build(
      deviceID: deviceID, registrations: inputs.registrations, facts: inputs.facts)
    stories.judgement = inputs.watched.map(DeviceJudgement.init)
    stories.attach(inputs.watched?.readBacks.last)
    return stories
  }

  /// The same story as a short answer, most important first (`FieldExplanation`): what never
  /// arrived and why, each rejection with its fix, every violation and warning, the notes.
  public nonisolated func explain(_ deviceID: String) async -> [String]? {
    await fields(of: deviceID).map { FieldExplanation.sentences($0) }
  }
}
