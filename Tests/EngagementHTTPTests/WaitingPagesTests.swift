import Foundation
import TestSupport
import Testing

/// `/api/devices` pages over the devices still waiting for processing too: 150 waiting with
/// `limit=100` is two pages, never 100 and the end.
@Suite("paging the devices that wait for processing")
struct WaitingPagesTests {
  typealias Rig = WatchOverHTTPTests.Rig

  @Test("150 waiting devices, limit 100: two pages, each device once, then the end")
  func waitingPaged() async throws {
    let rig = try await Rig()
    for index in 0..<150 {
      let (status, _, _) = try await rig.raw(
        "POST", "/device/v1/registration", headers: [("authorization", "Bearer \(watchToken)")],
        body: sdkBody(device: "W\(index)", app: watchAppID))
      #expect(status == 201)
    }
    var seen: [String] = []
    var cursor: String?
    var pages = 0
    repeat {
      let query =
        "limit=100"
        + (cursor.map {
          "&before=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        } ?? "")
      let (status, _, body) = try await rig.raw("GET", "/api/devices?\(query)", headers: [])
      #expect(status == 200)
      let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
      let devices = object?["devices"] as? [[String: Any]] ?? []
      #expect(devices.count <= 100)
      seen += devices.compactMap { $0["deviceID"] as? String }
      cursor = object?["next"] as? String
      pages += 1
    } while cursor != nil && pages < 5
    #expect(pages == 2)
    #expect(seen.count == 150 && Set(seen).count == 150)
    await rig.stop()
  }
}
