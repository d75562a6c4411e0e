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
    if case .searchStatusLine(let line) = behaviour { return .answer(line) }
    if case .replaySearch(let bytes) = behaviour {
      return .answer("200 OK", body: String(decoding: bytes, as: UTF8.self))
    }
    var addresses: [[String: Any]] = []
    for held in state.addresses[key] ?? [] {
      addresses.append(address(held, key: key, behaviour))
    }
    var answer: [String: Any] = [
      "addresses": addresses, "pageNumber": 1, "pageSize": 50,
      "requestServiceMessageID": "00000000-0000-0000-0000-000000000001",
      "serviceMessageID": "00000000-0000-0000-0000-000000000002",
    ]
    if case .pagedSearch(let size, let filler) = behaviour {
      // Filler addresses of other devices first, the held ones last, cut into pages.
      let others = (0..<filler).map { index in
        address(.init(deviceID: "OTHER-\(index)", values: [:]), key: key, behaviour)
      }
      let all = others + addresses
      let page = Int(query(request.path, "$page") ?? "1") ?? 1
      let start = min(all.count, max(0, (page - 1) * size))
      answer["addresses"] = Array(all[start..<min(all.count, start + size)])
      answer["pageNumber"] = page
      answer["pageSize"] = size
      answer["count"] = all.count
    }
    let data = (try? JSONSerialization.data(withJSONObject: answer)) ?? Data()
    return .answer("200 OK", body: String(decoding: data, as: UTF8.self))
  }

  /// One push address as the reference page gives it (identifiers wrapped as `{"value":
  /// ...}`, `valueSets[]` of `values[]` by `definitionKey` and `innerValue`), or plain.
  static func address(
    _ held: StandInTenant.HeldAddress, key: String, _ behaviour: StandInTenant.Behaviour
  ) -> [String: Any] {
    var values: [[String: Any]] = []
    for (index, (name, value)) in held.values.sorted(by: { $0.key < $1.key }).enumerated() {
      values.append(["definitionID": "def-\(index)", "definitionKey": name, "innerValue": value])
    }
    let sets: [Any]
    if case .opaqueValueSets = behaviour {
      sets = [["opaque": true] as [String: Any]]
    } else {
      sets = [
        [
          "definitionID": "set-1", "definitionKey": "MobilePush Demographics", "values": values,
        ] as [String: Any]
      ]
    }
    func wrapped(_ value: Any) -> Any {
      if case .plainIdentifiers = behaviour { return value }
      return ["value": value]
    }
    return [
      "contactID": wrapped(31_587_654), "contactKey": wrapped(key),
      "addressID": wrapped("ADDR-" + held.deviceID), "addressKey": wrapped(held.deviceID),
      "addressTypeID": 9, "status": held.status, "modifiedDate": "2026-11-28T12:00:00.000Z",
      "valueSets": sets,
    ]
  }

  /// A query parameter of `path`, as sent.
  static func query(_ path: String, _ name: String) -> String? {
    guard let query = path.split(separator: "?", maxSplits: 1).dropFirst().first else {
      return nil
    }
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.first.map(String.init) == name, parts.count == 2 { return String(parts[1]) }
    }
    return nil
  }
}
