import OrderedCollections
import RegistrationCore

/// One page of a view, newest first. `next` is the cursor for the page after it (pass it as
/// `before`), nil on the last page.
public struct ServerPage<Item: Sendable>: Sendable {
  public var items: [Item]
  public var next: String?

  public init(items: [Item], next: String?) {
    self.items = items
    self.next = next
  }
}

/// A cursor that names nothing the server holds.
public struct UnknownCursor: Error, Sendable {
  public var cursor: String
}

/// The views of the `/api` routes, paged: each costs what its page costs, whatever the server
/// holds.
extension EngagementServerCore {
  public func contactsPage(limit: Int, before: String?) throws(UnknownCursor) -> ServerPage<
    ServerContact
  > {
    try Self.page(contacts, limit: limit, before: before)
  }

  public func devicesPage(limit: Int, before: String?) throws(UnknownCursor) -> ServerPage<
    ServerDevice
  > {
    try Self.page(devices, limit: limit, before: before)
  }

  /// Registrations newest first; `before` is a registration id. Only the newest
  /// `settings.registrationWindow` are kept for views; older ones are counted in `stats()`.
  public func registrationsPage(limit: Int, before: Int?) -> ServerPage<ServerRegistration> {
    let keys = registrations.keys
    let floor = windowOffset
    let end = max(
      floor, before.map { id in keys.firstIndex { $0 >= id } ?? keys.count } ?? keys.count)
    let start = max(floor, end - max(1, limit))
    return ServerPage(
      items: Array(registrations.values[start..<end].reversed()),
      next: start > floor ? String(keys[start]) : nil)
  }

  private static func page<Value>(
    _ dictionary: OrderedDictionary<String, Value>, limit: Int, before: String?
  ) throws(UnknownCursor) -> ServerPage<Value> {
    var end = dictionary.count
    if let before {
      guard let index = dictionary.index(forKey: before) else {
        throw UnknownCursor(cursor: before)
      }
      end = index
    }
    let start = max(0, end - max(1, limit))
    return ServerPage(
      items: Array(dictionary.values[start..<end].reversed()),
      next: start > 0 ? dictionary.keys[start] : nil)
  }
}
