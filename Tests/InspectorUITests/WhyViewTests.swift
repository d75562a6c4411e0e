import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import InspectorUI

/// The receiver's Why view (`W`, #30): it asks the receiver for the chosen device's field
/// stories, and shows why each field did or did not arrive in the body's place.
@Suite("the receiver's Why view")
struct WhyViewTests {
  static func stories(_ device: String) throws -> DeviceFieldStories {
    let rejected = try JSONDecoder().decode(
      RegistrationPayload.self,
      from: Data(
        #"{"deviceID":"\#(device)","etAppId":"app","platform":"iOS","attributes":[{"key":"FirstName","value":"Bob"},{"key":"Plan","value":"pro"}]}"#
          .utf8))
    var accepted = rejected
    accepted.attributes = [.init(key: "FirstName", value: "Ada")]
    let registrations = [
      ServerRegistration(
        id: 1, receivedAt: Instant(0), processAt: Instant(0), status: .processed, payload: accepted),
      ServerRegistration(
        id: 2, receivedAt: Instant(100), processAt: Instant(100), status: .rejected,
        reason: #"attribute "Plan" not defined in the demographics table"#, payload: rejected),
    ]
    let held = ServerDevice(
      deviceID: device, token: nil, contactKey: "c", platform: "iOS", active: true,
      inactiveReason: nil, pushEnabled: true, attributes: ["FirstName": "Ada"], tags: [],
      lastRegistrationID: 1, lastRegistrationAt: Instant(0))
    return DeviceFieldStories.build(
      deviceID: device, registrations: registrations,
      facts: FieldFacts(
        device: held, otherDevices: [], orphaned: [], definedAttributes: ["FirstName"],
        profile: .ios, nextSend: nil))
  }

  /// A device's stories with a value still waiting for processing (S2).
  static func waitingStories(_ device: String) throws -> DeviceFieldStories {
    let payload = try JSONDecoder().decode(
      RegistrationPayload.self,
      from: Data(#"{"deviceID":"\#(device)","etAppId":"app","platform":"iOS"}"#.utf8))
    return DeviceFieldStories.build(
      deviceID: device,
      registrations: [
        ServerRegistration(
          id: 1, receivedAt: Instant(0), processAt: Instant(10), status: .received,
          payload: payload)
      ],
      facts: FieldFacts(
        device: nil, otherDevices: [], orphaned: [], definedAttributes: nil, profile: .ios,
        nextSend: nil))
  }

  @Test("W before any device registered says what to do, not that an answer is coming")
  func noDeviceYet() {
    var model = receiverModel(DeviceWatch(makeToken: seededTokens(1)), now: 10)
    #expect(Inspector.update(&model, .key(.character("W"))).isEmpty)
    let text = Inspector.view(model).text
    #expect(!text.contains("asking the server"), "\(text)")
    #expect(text.contains("No device has registered yet"), "\(text)")
  }

  @Test("W asks for the chosen device's fields, shows why, and asks again only when it moves")
  func toggles() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10)
    let asked = Inspector.update(&model, .key(.character("W")))
    #expect(asked == [.loadFields(deviceID: "PHONE")])
    #expect(Inspector.view(model).text.contains("asking the server for the device's fields"))
    _ = Inspector.update(&model, .fields(try Self.stories("PHONE"), deviceID: "PHONE"))
    let text = Inspector.view(model).text
    #expect(text.contains("Fields: why each"), "\(text)")
    #expect(text.contains("FirstName=Bob") && text.contains("Plan is not in the"), "\(text)")
    // The same device, nothing new: a snapshot asks nothing more.
    let again = Inspector.update(
      &model,
      .snapshot(
        .receiver(
          .init(
            server: nil, watched: Array(watch.devices.values), notice: nil, now: Instant(11)))))
    #expect(again.isEmpty)
    // The server processed a registration (no new request from the device): asked again, as
    // a value waiting for processing is accepted or rejected now.
    let core = EngagementServerCore(settings: ServerSettings(appID: "app", accessToken: "t"))
    var server = core.snapshot(limit: 10, now: Instant(12), storeProblem: nil)
    server.stats.processed = 1
    // Nothing shown waits: the server's processing of other devices asks nothing.
    let busy = Inspector.update(
      &model,
      .snapshot(
        .receiver(
          .init(
            server: server, watched: Array(watch.devices.values), notice: nil, now: Instant(12)))
      ))
    #expect(busy.isEmpty)
    _ = Inspector.update(&model, .fields(try Self.waitingStories("PHONE"), deviceID: "PHONE"))
    server.stats.processed = 2
    let processed = Inspector.update(
      &model,
      .snapshot(
        .receiver(
          .init(
            server: server, watched: Array(watch.devices.values), notice: nil, now: Instant(12)))
      ))
    #expect(processed == [.loadFields(deviceID: "PHONE")])
    // W again: back to the last body.
    #expect(Inspector.update(&model, .key(.character("W"))).isEmpty)
    #expect(Inspector.view(model).text.contains("Last body"))
    // An answer for a device no longer chosen is dropped.
    _ = Inspector.update(&model, .fields(try Self.stories("OTHER"), deviceID: "OTHER"))
    #expect(model.receiver.fields?.deviceID != "OTHER")
  }

  @Test("a field whose newest value waits for processing does not read 'arrived as sent'")
  func waitingIsNotArrived() throws {
    let stories = try Self.waitingStories("P")
    let key = try #require(stories.fields.first { $0.kind == .contactKey })
    #expect(key.latest?.outcome == .waiting)
    let text = FieldsPane.storyLines(key, width: 70).map { $0.map(\.0).joined() }
    #expect(!text.contains { $0.contains("arrived as sent") }, "\(text)")
  }

  /// The body pane's text as drawn.
  static func pane(_ model: InspectorModel) -> String {
    let rect = ReceiverScreen.rects(width: model.width, height: model.height)[.body]!
    let lines = Inspector.view(model).text.split(separator: "\n", omittingEmptySubsequences: false)
    return lines[rect.y..<(rect.y + rect.height)].map {
      String($0.dropFirst(rect.x).prefix(rect.width))
    }.joined(separator: "\n")
  }

  @Test("the Fields pane: a row a field under a cursor, Enter opens its story, Esc goes back")
  func fieldsPane() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10)
    _ = Inspector.update(&model, .key(.character("W")))
    #expect(model.receiver.focus == .body, "W takes the keys to the pane")
    _ = Inspector.update(&model, .fields(try Self.stories("PHONE"), deviceID: "PHONE"))
    var pane = Self.pane(model)
    #expect(pane.contains("Fields: why each"), "\(pane)")
    #expect(pane.contains("> contact key"), "the first field is chosen: \(pane)")
    #expect(pane.contains("  Plan ") && pane.contains("rejected"), "\(pane)")
    #expect(pane.contains("Fix: add Plan"), "the explanation under the rows: \(pane)")
    // Down twice chooses Plan; Enter opens its story: its own sentence, the value, the reason.
    _ = Inspector.update(&model, .key(.down))
    _ = Inspector.update(&model, .key(.down))
    #expect(Self.pane(model).contains("> Plan "), "\(Self.pane(model))")
    #expect(Inspector.update(&model, .key(.enter)).isEmpty)
    pane = Self.pane(model)
    #expect(pane.contains("Field attribute Plan"), "\(pane)")
    #expect(pane.contains("Plan=pro (") && pane.contains("Fix: add Plan"), "\(pane)")
    #expect(pane.contains("#2") && pane.contains("\"pro\""), "\(pane)")
    #expect(!pane.contains("FirstName=Bob"), "only this field's story: \(pane)")
    // Esc: back to the list, Plan still chosen; Esc again: back to the last body.
    _ = Inspector.update(&model, .key(.escape))
    #expect(Self.pane(model).contains("> Plan "), "\(Self.pane(model))")
    _ = Inspector.update(&model, .key(.escape))
    #expect(!model.receiver.fieldsShown)
    #expect(Self.pane(model).contains("Last body"), "\(Self.pane(model))")
  }

  @Test(
    "the Fields rows have headings: a value the contact holds beside a rejected send reads right, at 80 columns too"
  )
  func fieldsHeadings() throws {
    // FirstName: the contact holds "Ada" (registration 1 arrived); its newest value, "Bob",
    // was rejected with registration 2 (Plan is not defined).
    let stories = try Self.stories("PHONE")
    for width in [48, 75, 120] {
      let lines = FieldsPane.list(stories, chosen: nil, width: width).lines.map {
        $0.map(\.0).joined()
      }
      let heading = try #require(lines.first)
      let holds = try #require(heading.range(of: "the contact"))
      let last = try #require(heading.range(of: "last"))
      #expect(heading.contains("field"), "\(width): \(lines)")
      #expect(
        lines.prefix(3).joined().contains("holds") && lines.prefix(3).joined().contains("sent"))
      #expect(
        !lines.contains { $0.contains("…") || TextWidth.of($0) > width }, "\(width): \(lines)")
      let row = try #require(lines.first { $0.contains("FirstName") })
      // "Ada" under "the contact holds", "rejected" under "last sent".
      let ada = try #require(row.range(of: "\"Ada\""))
      let rejected = try #require(row.range(of: "rejected"))
      #expect(
        row.distance(from: row.startIndex, to: ada.lowerBound)
          == heading.distance(from: heading.startIndex, to: holds.lowerBound), "\(lines)")
      #expect(
        row.distance(from: row.startIndex, to: rejected.lowerBound)
          == heading.distance(from: heading.startIndex, to: last.lowerBound), "\(lines)")
    }
    // On the screen at 80x24 the pane shows the headings whole.
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10, width: 80)
    model.height = 24
    _ = Inspector.update(&model, .key(.character("W")))
    _ = Inspector.update(&model, .fields(stories, deviceID: "PHONE"))
    let pane = Self.pane(model)
    #expect(pane.contains("field") && pane.contains("the contact") && pane.contains("last"))
  }

  @Test(
    "a session with no field stories (a capture) says so, and where they are told, not 'asking'")
  func noStories() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10)
    #expect(Inspector.update(&model, .key(.character("W"))) == [.loadFields(deviceID: "PHONE")])
    #expect(Self.pane(model).contains("asking the server"))
    _ = Inspector.update(&model, .fields(nil, deviceID: "PHONE"))
    let pane = Self.pane(model)
    #expect(!pane.contains("asking the server"), "\(pane)")
    #expect(pane.contains("No field stories here") && pane.contains("regctl judge --explain"))
  }

  @Test("the cursor stops at both ends, and the list follows it down a short pane")
  func cursorFollowed() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10)
    _ = Inspector.update(&model, .key(.character("W")))
    var stories = try Self.stories("PHONE")
    stories.fields += (1...30).map {
      FieldStory(kind: .tag, name: "tag\($0)", events: [], holds: "the tag", notes: [])
    }
    _ = Inspector.update(&model, .fields(stories, deviceID: "PHONE"))
    _ = Inspector.update(&model, .key(.up))
    #expect(model.receiver.fieldChosen == "contactKey contact key", "the top stops the cursor")
    _ = Inspector.update(&model, .key(.character("G")))
    #expect(model.receiver.fieldChosen == "tag tag30")
    #expect(Self.pane(model).contains("> tag tag30"), "\(Self.pane(model))")
    _ = Inspector.update(&model, .key(.down))
    #expect(model.receiver.fieldChosen == "tag tag30", "the bottom stops it")
    _ = Inspector.update(&model, .key(.character("g")))
    #expect(Self.pane(model).contains("> contact key"), "\(Self.pane(model))")
  }

  @Test("another device chosen: its fields are asked for at once, from its first field")
  func anotherDevice() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    try ReceiverViewTests.register(&watch, "TABLET", tags: ["ALL"], at: 2)
    var model = receiverModel(watch, now: 10)
    let listed = try #require(model.watched?.map(\.deviceID))
    let first = try #require(model.selectedDevice?.deviceID)
    #expect(listed.count == 2 && listed.first == first)
    let other = listed[1]
    #expect(Inspector.update(&model, .key(.character("W"))) == [.loadFields(deviceID: first)])
    _ = Inspector.update(&model, .fields(try Self.stories(first), deviceID: first))
    _ = Inspector.update(&model, .key(.down))
    _ = Inspector.update(&model, .key(.enter))
    _ = Inspector.update(&model, .key(.character("1")))
    let asked = Inspector.update(&model, .key(.down))
    #expect(asked == [.loadFields(deviceID: other)])
    #expect(model.receiver.fields == nil && !model.receiver.fieldOpened)
    #expect(model.receiver.fieldChosen == nil)
    #expect(Self.pane(model).contains("asking the server"), "\(Self.pane(model))")
  }

  @Test("Enter with no field shown: a hint, not an error; in a QA run it answers the ask")
  func enterElsewhere() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10)
    #expect(Inspector.update(&model, .key(.enter)).isEmpty)
    #expect(model.flash?.isError == false && model.flash?.text.contains("W") == true)
    var qa = QAChecklist(plan: "quick", items: [.init(summary: "open the app")])
    qa.ask = "Open the app"
    _ = Inspector.update(&model, .qa(qa))
    #expect(Inspector.update(&model, .key(.enter)) == [.qaProceed])
  }

  @Test("a field's name and value from the app are shown escaped, never as terminal controls")
  func hostileField() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10)
    _ = Inspector.update(&model, .key(.character("W")))
    let hostile = FieldStory(
      kind: .attribute, name: "Evil\u{1B}[2J",
      events: [
        .init(
          at: 1, registrationID: 1, value: "x\u{7}\u{1B}]0;owned\u{7}", outcome: .accepted,
          why: nil, undefinedAttributes: nil)
      ], holds: "Evil\u{1B}[2J=x", notes: [])
    let stories = DeviceFieldStories(
      deviceID: "PHONE", registrationsRead: 1, contactKey: nil, fields: [hostile], nextSend: nil)
    _ = Inspector.update(&model, .fields(stories, deviceID: "PHONE"))
    _ = Inspector.update(&model, .key(.enter))
    let text = Inspector.view(model).text
    let controls = text.unicodeScalars.filter { $0.value == 0x1B || $0.value == 0x07 }.count
    #expect(controls == 0, "no raw ESC or BEL reaches the screen")
    #expect(text.contains("Evil\\e[2J") && text.contains("\"x\\x07\\e]0;owned\\x07\""))
  }

  @Test("a story shows each note once; a field gone from a later answer leaves no stale story")
  func notesAndReload() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10)
    _ = Inspector.update(&model, .key(.character("W")))
    let noted = FieldStory(
      kind: .attribute, name: "addressId",
      events: [
        .init(
          at: 1, registrationID: 1, value: "7", outcome: .accepted, why: nil,
          undefinedAttributes: nil)
      ], holds: "addressId=7", notes: ["addressId is a reserved word (R2.5)"])
    var stories = DeviceFieldStories(
      deviceID: "PHONE", registrationsRead: 1, contactKey: nil, fields: [noted], nextSend: nil)
    _ = Inspector.update(&model, .fields(stories, deviceID: "PHONE"))
    _ = Inspector.update(&model, .key(.enter))
    let pane = Self.pane(model)
    #expect(pane.components(separatedBy: "reserved word").count == 2, "once: \(pane)")
    // The next answer no longer holds the field: back to the list, not another field's story.
    stories.fields = [
      FieldStory(kind: .tag, name: "ALL", events: [], holds: "the tag", notes: [])
    ]
    _ = Inspector.update(&model, .fields(stories, deviceID: "PHONE"))
    #expect(!model.receiver.fieldOpened && model.receiver.fieldChosen == nil)
    #expect(Self.pane(model).contains("> tag ALL"), "\(Self.pane(model))")
  }

  @Test("Enter with nothing to open says why; with a QA ask waiting, it answers the ask")
  func enterWithoutFields() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10)
    _ = Inspector.update(&model, .key(.character("W")))
    #expect(Inspector.update(&model, .key(.enter)).isEmpty)
    #expect(model.flash?.isError == false && model.flash?.text.contains("on their way") == true)
    var qa = QAChecklist(plan: "quick", items: [.init(summary: "open the app")])
    qa.ask = "Open the app"
    _ = Inspector.update(&model, .qa(qa))
    #expect(Inspector.update(&model, .key(.enter)) == [.qaProceed])
  }
}
