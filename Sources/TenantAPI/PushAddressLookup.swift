import EngagementCore
import EngagementServer

/// "Did it arrive?"'s lookup, built here where the tenant's API is known: the address search by
/// contact key, read into what the server's comparison takes (`TenantHolding`).
extension TenantClient {
  /// The device's push address under the contact key, as the address search answers it:
  /// found, absent (every address that could be the device's read), or not read.
  public nonisolated var pushAddressLookup: PushAddressLookup {
    let client = self
    return { contactKey, deviceID in
      do throws(TenantFailure) {
        let answer = try await client.addresses(contactKey: contactKey, lookingFor: deviceID)
        return .held(Self.holding(answer, contactKey: contactKey, deviceID: deviceID))
      } catch {
        if case .throttled(_, _, let after) = error {
          return .throttled(retryAfter: after, why: "\(error)")
        }
        return .failed("\(error)")
      }
    }
  }

  /// What the answer holds of the device, for the comparison.
  static func holding(_ answer: AddressSearchAnswer, contactKey: String, deviceID: String)
    -> TenantHolding
  {
    switch answer.pushAddress(of: deviceID, under: contactKey) {
    case .found(let address, let others):
      return TenantHolding(
        contactKey: contactKey,
        address: TenantHolding.Address(
          status: address.status, modifiedDate: address.modifiedDate, values: address.values,
          unreadValues: address.unreadValues),
        otherPushAddresses: others)
    case .absent(let others):
      return TenantHolding(contactKey: contactKey, address: nil, otherPushAddresses: others)
    case .notRead(let unread, let others):
      return TenantHolding(
        contactKey: contactKey, address: nil, otherPushAddresses: others, unread: unread)
    }
  }
}
