import EngagementCore
import RegistrationCore

/// The receiver's Fields pane (`W`, in the body's place): the chosen device's explanation (why
/// each field did or did not arrive, each rejection with its fix), then its fields one a row
/// under a cursor; Enter opens the chosen field's story: its part of the explanation, every
/// value sent and what processing did with it, and what the contact holds now.
enum FieldsPane {
  /// The pane's title, the shorter one when the long one would not fit `width` columns.
  static func title(_ model: InspectorModel, width: Int = .max) -> String {
    guard model.receiver.fieldOpened, let story = chosen(model) else {
      let long = "Fields: why each did or did not arrive (Enter: a story, W: back)"
      return TextWidth.of(long) <= width ? long : "Fields (Enter: a story, W: back)"
    }
    let long = "Field " + name(story) + " (Esc: the fields)"
    return TextWidth.of(long) <= width ? long : "Field " + name(story)
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
      // Answered with nothing: no server processed these registrations (a capture).
      let said =
        model.receiver.fieldsAnswered
        ? "No field stories here: no server processed these registrations. For a capture, regctl judge --explain FILE replays them through processing."
        : "asking the server for the device's fields…"
      return (sentences([said], width: width), 0)
    }
    if model.receiver.fieldOpened, let story = chosen(model) {
      return (storyLines(story, width: width, context: stories.fixContext), 0)
    }
    return list(stories, chosen: chosen(model)?.id, width: width)
  }

  /// A row a field under headings (its name, what the contact holds, what became of the
  /// newest value sent, the tenant's word, when), then the explanation: the rows first, so a
  /// short pane still shows the cursor. The headings say what each column is, so a value the
  /// contact holds beside a rejected newer send reads as what it is.
  static func list(_ stories: DeviceFieldStories, chosen: String?, width: Int)
    -> (lines: [Line], focusRow: Int)
  {
    guard !stories.fields.isEmpty else {
      return (sentences(FieldExplanation.sentences(stories), width: width), 0)
    }
    let tenant = stories.fields.contains { $0.tenant != nil }
    let notes = stories.fields.contains { !$0.notes.isEmpty }
    var columns: [FittedTable.Column] = [
      .init(heading: "field", minimum: 10), .init(heading: "the contact holds", minimum: 10),
      .init(heading: "last sent", minimum: 8),
    ]
    if tenant { columns.append(.init(heading: "tenant", minimum: 8)) }
    columns.append(.init(heading: "time", minimum: 8, droppable: true))
    if notes { columns.append(.init(heading: "", minimum: 1)) }
    let rows = stories.fields.map { story -> [Span] in
      var row: [Span] = [
        (listName(story), story.id == chosen ? .selection : .normal),
        (holds(story), .normal),
        (story.latest.map(\.outcome.rawValue) ?? "", story.latest.map { role($0.outcome) } ?? .dim),
      ]
      if tenant {
        row.append(
          story.tenant.map { tenant in
            let role: StyleRole =
              switch tenant.verdict {
              case .heldAsSent: .success
              case .heldOther, .notThere, .notArrived: .error
              case .notRead: .warning
              }
            return (tenant.word, role)
          } ?? ("", .dim))
      }
      row.append((story.latest.map { FieldExplanation.timeOfDay($0.at) } ?? "", .dim))
      if notes { row.append((story.notes.isEmpty ? "" : "!", .warning)) }
      return row
    }
    let table = FittedTable(columns: columns, rows: rows)
    let marks = stories.fields.map { ($0.id == chosen ? "> " : "  ", StyleRole.accent) }
    var (lines, starts) = table.lines(width: width, headingRole: .title, marks: marks)
    let focusRow = stories.fields.firstIndex { $0.id == chosen }.map { starts[$0] } ?? starts[0]
    lines.append([])
    lines += sentences(FieldExplanation.sentences(stories), width: width)
    return (lines, focusRow)
  }

  /// A field's name in the list, under the "field" heading: an attribute by its key alone
  /// (tags and the contact key say what they are).
  static func listName(_ story: FieldStory) -> String {
    story.kind == .attribute ? TerminalText.escaped(story.name) : name(story)
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
    case .contactKey where story.madeUp: return "a made-up key (S3)"
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
