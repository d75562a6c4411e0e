import EngagementCore
import RegistrationCore

/// The receiver's Why view: the chosen device's explanation (why each field did or did not
/// arrive, each rejection with its fix), then every field's story, one line an event.
enum FieldsPane {
  static func lines(_ stories: DeviceFieldStories?, width: Int) -> [Line] {
    guard let stories else { return [[("asking the server for the device's fields…", .dim)]] }
    var lines: [Line] = []
    for sentence in FieldExplanation.sentences(stories) {
      let role: StyleRole =
        sentence.contains(" was rejected")
        ? .error : sentence.contains(" is received") ? .warning : .normal
      lines += TextWidth.wrap(sentence, width: max(10, width)).map { [($0, role)] }
    }
    for story in stories.fields {
      lines.append([])
      lines.append([
        (kindLabel(story.kind) + story.name, .accent),
        ("  holds " + (story.holds ?? "nothing"), .dim),
      ])
      for event in story.events {
        let role: StyleRole =
          switch event.outcome {
          case .accepted: .success
          case .rejected: .error
          case .waiting: .warning
          }
        lines.append([
          ("  " + FieldExplanation.timeOfDay(event.at) + "  #\(event.registrationID) ", .dim),
          (TextWidth.column(event.outcome.rawValue, 9), role),
          (event.value.map { "\"\($0)\"" } ?? "(not sent)", .normal),
          (event.why.map { "  " + $0 } ?? "", .dim),
        ])
      }
      lines += story.notes.map { [("  " + $0, .warning)] }
    }
    return lines
  }

  private static func kindLabel(_ kind: FieldStory.Kind) -> String {
    switch kind {
    case .attribute: "attribute "
    case .tag: "tag "
    case .contactKey: ""
    }
  }
}
