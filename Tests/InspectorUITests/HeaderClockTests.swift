import Foundation
import RegistrationCore
import Session
import SessionValues
import Testing

@testable import InspectorUI

@Suite("the header's clock")
struct HeaderClockTests {
  /// The header's time of day, as shown.
  static func shownTime(_ model: InspectorModel) -> String? {
    let header = Inspector.view(model).line(0)
    return header.firstMatch(of: /\d\d:\d\d(:\d\d)?/).map { String($0.output.0) }
  }

  @Test(
    "a live clock shows seconds while something counts down, minutes when it wakes once a minute")
  func secondsOnlyWhenTicking() async throws {
    var setup = SessionSetup()
    setup.processingDelay = 30
    var model = try await model(
      width: 120, height: 40, setup: setup, until: 5, [(1, "tag add sports")])
    model.timeStyle = .wallClock
    // The tag waits for the throttle's window: a countdown, a tick a second, seconds shown.
    #expect(model.ticksEverySecond)
    #expect(Self.shownTime(model)?.count == 8)
    // Nothing counts down: the UI wakes once a minute, and its clock says so.
    var quiet = try await HeaderClockTests.quietModel()
    quiet.timeStyle = .wallClock
    #expect(!quiet.ticksEverySecond)
    #expect(Self.shownTime(quiet)?.count == 5)
    // Paused, the time stands still anyway: shown whole.
    quiet.paused = true
    #expect(Self.shownTime(quiet)?.count == 8)
  }

  /// Launched long ago: the initial registration sent and processed, the window closed.
  static func quietModel() async throws -> InspectorModel {
    var setup = SessionSetup()
    setup.processingDelay = 30
    return try await model(width: 120, height: 40, setup: setup, until: 600)
  }
}
