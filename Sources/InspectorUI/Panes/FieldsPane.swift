import EngagementCore
import RegistrationCore

/// The receiver's Fields pane (`W`, in the body's place): the chosen device's explanation (why
/// each field did or did not arrive, each rejection with its fix), then its fields one a row
/// under a cursor; Enter opens the chosen field's story: its part of the explanation, every
/// value sent and what processing did with it, and what the contact holds now.
enum FieldsPane {
  static func title(_ model: InspectorModel) -> String {
    guard model.receiver.fieldOpened, let story = chosen(model) else {
      return "Fields: why each did or did not arrive (Enter: a story, W: back)"
    }
    return "Field " + name(story) + " (Esc: the fields)"
  }

  /// The field under the cursor: the one chosen, or the first.
  static func chosen(_ model: InspectorModel) -> FieldStory? {
    guard let fields = model.receiver.fields?.fields, !fields.isEmpty else { return nil }
    return fields.first { $0.id == model.receiver.fieldChosen } ?? fields.first
  }

  /// The lines, and the row to keep in view (the chosen field's, in the list).
  static func lines(_ model: InspectorModel, width: Int) -> (lines: [Line], focusRow: Int) {
    guard model.selectedDevice != nil else {
      // Nothing is asked without a device: say what to do, not that an answer is coming.
      return (
        [
          [
            (
              "No device has registered yet: point the app at this receiver; the chosen device's fields show here.",
              .dim
            )
          ]
        ],
        0
      )
    }
    guard let stories = model.receiver.fields else {
      return ([[("asking the server for the device's fields…", .dim)]], 0)
    }
    if model.receiver.fieldOpened, let story = chosen(model) {
      return (storyLines(story, width: width, context: stories.fixContext), 0)
    }
    return list(stories, chosen: chosen(model)?.id, width: width)
  }

  /// A row a field (its name, what the contact holds, what became of the newest value sent),
  /// then the explanation: the rows first, so a short pane still shows the cursor.
  static func list(_ stories: DeviceFieldStories, chosen: String?, width: Int)
    -> (lines: [Line], focusRow: Int)
  {
    var lines: [Line] = []
    var focusRow = 0
    let nameWidth = min(28, max(12, width / 3))
    let holdsWidth = min(22, max(8, width / 4))
    for story in stories.fields {
      let isChosen = story.id == chosen
      if isChosen { focusRow = lines.count }
      var row: Line = [
        (isChosen ? "> " : "  ", .accent),
        (TextWidth.column(name(story), nameWidth), isChosen ? .selection : .normal),
        (" " + TextWidth.column(holds(story), holdsWidth), .dim),
      ]
      if let latest = story.latest {
        row.append((" " + TextWidth.column(latest.outcome.rawValue, 8), role(latest.outcome)))
      }
      // The tenant's word before the time: at 120 columns the row ends about here.
      if let tenant = story.tenant {
        let role: StyleRole =
          switch tenant.verdict {
          case .heldAsSent: .success
          case .heldOther, .notThere, .notArrived: .error
          case .notRead: .warning
          }
        row.append((" tenant: " + tenant.word, role))
      }
      if let latest = story.latest {
        row.append((" " + FieldExplanation.timeOfDay(latest.at), .dim))
      }
      if !story.notes.isEmpty { row.append(("  !", .warning)) }
      lines.append(row)
    }
    if !lines.isEmpty { lines.append([]) }
    lines += sentences(FieldExplanation.sentences(stories), width: width)
    return (lines, focusRow)
  }

  /// One field: what the contact holds, its part of the explanation (its notes among them),
  /// each value sent with the reason on the lines below.
  static func storyLines(
    _ story: FieldStory, width: Int, context: FieldFixContext = FieldFixContext()
  ) -> [Line] {
    var lines: [Line] = [
      [(name(story), .accent), ("  the contact holds " + holds(story), .dim)]
    ]
    let told = FieldExplanation.sentences(story, context: context)
    lines += sentences(told.isEmpty ? [plainly(story)] : told, width: width)
    lines.append([])
    for event in story.events {
      lines.append([
        (FieldExplanation.timeOfDay(event.at) + "  #\(event.registrationID) ", .dim),
        (TextWidth.column(event.outcome.rawValue, 9), role(event.outcome)),
        (event.value.map { "\"\(TerminalText.escaped($0))\"" } ?? "(not sent)", .normal),
      ])
      if let why = event.why {
        lines += TextWidth.wrap(TerminalText.escaped(why), width: max(10, width - 4)).map {
          [("    " + $0, .dim)]
        }
      }
    }
    return lines
  }

  /// A field the explanation says nothing of: as sent, or still waiting for processing.
  static func plainly(_ story: FieldStory) -> String {
    if story.kind == .contactKey, story.latest?.value == nil {
      // No key sent: there is no value of the app's to arrive; the server keeps the
      // device's contact or makes one up (S3).
      return story.madeUp
        ? "The app sent no contact key: the server made a contact up for the device (S3), which is not a contact key the app set."
        : "The app sent no contact key: the server keeps the device's contact, or makes one up when processing reads it (S3)."
    }
    return story.latest?.outcome == .waiting
      ? "Its newest value waits for processing (S2); what the contact holds is above."
      : "This field arrived as sent."
  }

  /// Sentences wrapped to the pane, a rejection in the error colour, a wait in the warning's.
  static func sentences(_ sentences: [String], width: Int) -> [Line] {
    sentences.flatMap { sentence -> [Line] in
      let role: StyleRole =
        sentence.contains(" was rejected")
        ? .error : sentence.contains(" is received") ? .warning : .normal
      return TextWidth.wrap(TerminalText.escaped(sentence), width: max(10, width)).map {
        [($0, role)]
      }
    }
  }

  static func name(_ story: FieldStory) -> String {
    let name = TerminalText.escaped(story.name)
    switch story.kind {
    case .attribute: return "attribute " + name
    case .tag: return "tag " + name
    case .contactKey: return name
    }
  }

  static func holds(_ story: FieldStory) -> String {
    guard let held = story.holds else { return "nothing" }
    switch story.kind {
    // An attribute is held as "Key=value": the row names the key already.
    case .attribute:
      let value =
        held.hasPrefix(story.name + "=") ? String(held.dropFirst(story.name.count + 1)) : held
      return "\"" + TerminalText.escaped(value) + "\""
    case .tag: return "the tag"
    case .contactKey where story.madeUp: return "a contact made up (S3)"
    case .contactKey: return "\"" + TerminalText.escaped(held) + "\""
    }
  }

  static func role(_ outcome: FieldStory.Event.Outcome) -> StyleRole {
    switch outcome {
    case .accepted: .success
    case .rejected: .error
    case .waiting: .warning
    }
  }
}
