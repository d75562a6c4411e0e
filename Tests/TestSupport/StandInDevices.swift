import Foundation

/// The stand-in tenant's MobilePush side: `POST /device/v1/registration` answered 201 and
/// filed at once as processing files it (the push address under the `subscriberKey`, its
/// attributes as values; one attribute outside MobilePush Demographics rejects the whole
/// registration, S5), and the Contacts API's address search by contact key answering the
/// documented `addresses[]` (docs/tenant.md). Filing at once stands for the 5-15 minutes a
/// real tenant takes: the tests shorten the window to match.
enum StandInDevices {
  static let searchPath = "/contacts/v1/addresses/search/ContactKey"

  static func register(_ request: CaptureServer.Request, _ state: inout StandInTenant.State)
    -> CaptureServer.Reply
  {
    let body = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
    let created = #"{"message":"Created"}"#
    guard let body, let deviceID = body["deviceID"] as? String else {
      return .answer("400 Bad Request", body: #"{"message":"deviceID is required"}"#)
    }
    var values: [String: String] = [:]
    for case let attribute as [String: Any] in body["attributes"] as? [Any] ?? [] {
      if let key = attribute["key"] as? String, let value = attribute["value"] as? String {
        values[key] = value
      }
    }
    let defined = Set(state.demographics.map { $0.lowercased() })
    // S5: one undefined name and processing drops the whole registration after its 201.
    guard values.keys.allSatisfy({ defined.contains($0.lowercased()) }),
      let key = body["subscriberKey"] as? String
    else { return .answer("201 Created", body: created) }
    for contact in state.addresses.keys {
      state.addresses[contact]?.removeAll { $0.deviceID == deviceID }
    }
    var kept = state.addresses[key] ?? []
    kept.append(StandInTenant.HeldAddress(deviceID: deviceID, values: values))
    state.addresses[key] = kept
    return .answer("201 Created", body: created)
  }

  static func search(
    _ request: CaptureServer.Request, _ behaviour: StandInTenant.Behaviour,
    _ state: inout StandInTenant.State
  ) -> CaptureServer.Reply {
    state.searches.append(request.body)
    if case .throttleSearch(let seconds, let code) = behaviour {
      let body = #"{"message":"Rate limit exceeded","errorcode":\#(code)}"#
      return .bytes(
        Array(
          ("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
            + "Retry-After: \(seconds)\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body).utf8))
    }
    let asked = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
    guard asked?["filterConditionOperator"] as? String == "Is",
      let key = asked?["filterConditionValue"] as? String
    else {
      return .answer("400 Bad Request", body: #"{"message":"Invalid search criteria"}"#)
    }
    let opaque: Bool
    if case .opaqueValueSets = behaviour { opaque = true } else { opaque = false }
    var addresses: [[String: Any]] = []
    for held in state.addresses[key] ?? [] {
      var values: [[String: String]] = []
      for (name, value) in held.values.sorted(by: { $0.key < $1.key }) {
        values.append(["definitionKey": name, "innerValue": value])
      }
      let sets: [Any] =
        opaque
        ? [["opaque": true] as [String: Any]]
        : [["definitionKey": "MobilePushDemographics", "values": values] as [String: Any]]
      let address: [String: Any] = [
        "contactKey": key, "addressTypeID": 9, "addressKey": held.deviceID,
        "status": held.status, "modifiedDate": "2026-11-28T12:00:00.000Z", "valueSets": sets,
      ]
      addresses.append(address)
    }
    let answer: [String: Any] = ["addresses": addresses, "count": addresses.count]
    let data = (try? JSONSerialization.data(withJSONObject: answer)) ?? Data()
    return .answer("200 OK", body: String(decoding: data, as: UTF8.self))
  }
}
