import DebugBundle
import Foundation
import NIOCore
import NIOHTTP1
import OutboundHTTP
import RegistrationCore

/// A running receiver read through the API it already serves, for `regctl bundle`: its
/// settings (`/api/stats`), its devices (`/api/devices`, paged), and each device's timeline,
/// field stories, explanation and capture.
struct ReceiverReader {
  /// The most devices one bundle reads from a receiver: past it, `--device` names one.
  static let largestDevices = 500

  let url: String
  let deadline: Double

  func gather(into material: inout BundleMaterial, device only: String?) async throws(BundleError) {
    material.stats = try await get("api/stats", required: true)
    let entries = try await deviceEntries(only: only)
    if let only, entries.isEmpty {
      // Not in the list (its timeline may still be held): asked for by id below.
      material.gaps.append("device \(only) is not in the receiver's device list")
    }
    let ids = only.map { [$0] } ?? entries.map(\.id)
    if ids.count > Self.largestDevices {
      material.gaps.append(
        "\(ids.count - Self.largestDevices) devices past the newest \(Self.largestDevices) (regctl bundle --device ID bundles one)"
      )
    }
    var bytesSoFar = 0
    for id in ids.prefix(Self.largestDevices) {
      let path = "api/devices/" + Self.percentEncoded(id)
      let part = DeviceMaterial(
        deviceID: id, device: entries.first { $0.id == id }?.json,
        timeline: try await get(path + "/registrations"), fields: try await get(path + "/fields"),
        explain: try await get(path + "/explain"))
      if part.timeline == nil && part.fields == nil && only != nil {
        throw BundleError(
          .input, "the receiver at \(url) holds no device \"\(TerminalText.escaped(id))\"")
      }
      if part.timeline == nil {
        material.gaps.append("device \(id)'s timeline: the receiver no longer holds it")
      }
      material.devices.append(part)
      if let har = try await get(path + "/har") {
        material.captures.append(NamedFile(name: "the receiver's capture of \(id)", bytes: har))
      }
      bytesSoFar += [part.device, part.timeline, part.fields, part.explain].reduce(0) {
        $0 + ($1?.count ?? 0)
      }
      guard bytesSoFar <= DebugBundle.largestBytes else {
        throw BundleError(
          .tooLarge,
          "the receiver's devices take more than the \(DebugBundle.largestSaid) a bundle holds: bundle one device (--device ID)"
        )
      }
    }
  }

  /// The receiver's device list, each entry as JSON, newest first, every page.
  private func deviceEntries(only: String?) async throws(BundleError) -> [(
    id: String, json: [UInt8]
  )] {
    var entries: [(id: String, json: [UInt8])] = []
    var cursor: String?
    for _ in 0..<100 {
      let query =
        "api/devices?limit=1000" + (cursor.map { "&before=" + Self.percentEncoded($0) } ?? "")
      guard let page = try await get(query, required: true),
        let object = try? JSONSerialization.jsonObject(with: Data(page)) as? [String: Any],
        let devices = object["devices"] as? [[String: Any]]
      else {
        throw BundleError(
          .input,
          "the receiver at \(url) answered GET /api/devices with something other than its device list"
        )
      }
      for device in devices {
        guard let id = device["deviceID"] as? String, only == nil || only == id,
          let json = try? JSONSerialization.data(withJSONObject: device)
        else { continue }
        entries.append((id, Array(json)))
      }
      if only != nil && !entries.isEmpty { break }
      guard entries.count <= Self.largestDevices, let next = object["next"] as? String else {
        break
      }
      cursor = next
    }
    return entries
  }

  /// The body of a 200; nil for a 404 or 410 (the receiver does not hold it), unless
  /// `required`.
  private func get(_ path: String, required: Bool = false) async throws(BundleError) -> [UInt8]? {
    guard let target = OutboundHTTP.Target(url: url) else {
      throw BundleError(.input, "--receiver \(TerminalText.escaped(url)) is not an http(s) URL")
    }
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: target.hostHeader)
    headers.add(name: "Connection", value: "close")
    headers.add(name: "Content-Length", value: "0")
    let head = HTTPRequestHead(
      version: .http1_1, method: .GET, uri: target.basePath + "/" + path, headers: headers)
    let answer: OutboundHTTP.Answer
    do {
      answer = try await OutboundHTTP.exchange(
        target, head: head, body: ByteBuffer(),
        deadline: .nanoseconds(Int64((deadline * 1e9).rounded())),
        largest: DebugBundle.largestBytes)
    } catch {
      throw BundleError(
        .input,
        "the receiver at \(TerminalText.escaped(url)) did not answer GET /\(TerminalText.escaped(path)) (\(error)): is regctl serve or regscope --receive running there?"
      )
    }
    let body = Array(answer.body.readableBytesView)
    if answer.status == 200 { return body }
    if !required && (answer.status == 404 || answer.status == 410) { return nil }
    let message =
      (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["message"] as? String
    throw BundleError(
      .input,
      "the receiver at \(TerminalText.escaped(url)) answered \(answer.status) to GET /\(TerminalText.escaped(path))\(message.map { ": " + TerminalText.escaped($0) } ?? "")"
    )
  }

  static func percentEncoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
