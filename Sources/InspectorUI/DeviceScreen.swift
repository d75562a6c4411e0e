/// The device screen's own state: which pane has focus, where each is scrolled, the events
/// (worded once) and where they are scrolled and filtered, and the bodies made readable once.
public struct DeviceScreen: Sendable {
  public var focus: PaneID = .record
  /// Where each pane is scrolled (the events follow their own tail).
  public var views: [PaneID: ScrollView] = [:]
  public var events: [ShownEvent] = []
  /// Events scrolled back from the tail; 0 follows the tail.
  public var eventsBack = 0
  public var eventFilter = ""
  /// The last two registrations sent, as readable JSON lines, made once when each was sent
  /// (from the exact bytes on the wire), never per frame.
  public var sentBodies: (previous: [String]?, last: [String]?) = (nil, nil)
  /// The stored acknowledged registration as lines (after a restart, or for an imported
  /// device), with the hash they were made from.
  public var acknowledgedBody: (hash: String, lines: [String])?

  public init() {}

  /// Events that pass the filter.
  public var visibleEvents: [ShownEvent] {
    guard !eventFilter.isEmpty else { return events }
    let needle = eventFilter.lowercased()
    return events.filter { $0.searchText.contains(needle) }
  }
}
