import DebugBundle
import EngagementCore
import Foundation
import HAR
import RegistrationCore
import StateDumps
import SystemCalls

/// The files `regctl bundle` is given: captures judged as `regctl judge` judges them (each
/// device's timeline, field stories and explanation, as the receiver's API shapes them), state
/// dumps and QA reports as they are.
enum BundleInputs {
  static func add(
    har: [String], stateDumps: [String], qaReports: [String], definedAttributes: String?,
    to material: inout BundleMaterial
  ) throws(BundleError) {
    for path in har { material.captures.append(try read(path, option: "--har")) }
    for path in stateDumps {
      let dump = try read(path, option: "--state-dump")
      material.stateDumps.append(dump)
      // How regctl state --import reads it, beside it: pending, next send, findings.
      if let reading = try? StateDumpImport.read(Data(dump.bytes), source: dump.name) {
        material.stateDumps.append(
          NamedFile(
            name: dump.name + ".reading.txt", bytes: Array(StateDumpReport.text(reading).utf8)))
      }
    }
    for path in qaReports { material.qaReports.append(try read(path, option: "--qa-report")) }
    // A receiver's own devices are its verdict; captures given besides go into the capture.
    guard !har.isEmpty, material.devices.isEmpty else { return }
    let defined = definedAttributes.map {
      Set($0.split(separator: ",").map { InputRules.trimmed(String($0)) }.filter { !$0.isEmpty })
    }
    let judge: CaptureJudge
    do {
      judge = try HARReader.judge(
        har, replay: FieldReplay(definedAttributes: defined), definedAttributes: defined)
    } catch {
      throw BundleError(.input, "\(error)")
    }
    material.devices = judgedDevices(judge, defined: defined)
    if material.stats == nil {
      let settings: [String: Any] = [
        "definedAttributes": defined.map { $0.sorted() as Any } ?? NSNull()
      ]
      material.stats = (try? JSONSerialization.data(withJSONObject: settings)).map(Array.init)
      material.demographicsSource =
        defined == nil ? "none given: every attribute accepted" : "--defined-attributes"
    }
  }

  /// Each judged device as the receiver's API would show it.
  static func judgedDevices(_ judge: CaptureJudge, defined: Set<String>?) -> [DeviceMaterial] {
    var replay = judge.replay ?? FieldReplay(definedAttributes: defined)
    let stories = Dictionary(
      replay.stories(judge.watch).map { ($0.deviceID, $0) }, uniquingKeysWith: { $1 })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    func encoded(_ value: some Encodable) -> [UInt8]? {
      (try? encoder.encode(value)).map(Array.init)
    }
    return judge.devices.map { device in
      let story = stories[device.deviceID]
      let sent = device.lastSent
      let entry: [String: Any] = [
        "deviceID": device.deviceID, "contactKey": sent?.subscriberKey ?? NSNull(),
        "platform": sent?.platform ?? NSNull(), "token": sent?.deviceToken ?? NSNull(),
        "tags": sent?.tags ?? [],
        "attributes": Dictionary(
          (sent?.attributes ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }),
      ]
      return DeviceMaterial(
        deviceID: device.deviceID,
        device: (try? JSONSerialization.data(withJSONObject: entry)).map(Array.init),
        timeline: encoded(WatchViews.timeline(device, maskToken: CaptureJudge.shownToken)),
        fields: story.flatMap(encoded),
        explain: story.flatMap {
          encoded(Explained(deviceID: $0.deviceID, sentences: FieldExplanation.sentences($0)))
        })
    }
  }

  /// `GET /api/devices/{id}/explain`'s shape.
  struct Explained: Encodable {
    var deviceID: String
    var sentences: [String]
  }

  static func read(_ path: String, option: String) throws(BundleError) -> NamedFile {
    switch SystemCalls.readFile(path, atMost: DebugBundle.largestBytes) {
    case .success(let bytes):
      return NamedFile(name: URL(fileURLWithPath: path).lastPathComponent, bytes: bytes)
    case .failure(let refusal):
      if case .tooLarge = refusal {
        throw BundleError(
          .tooLarge,
          "\(option) \(TerminalText.escaped(path)) \(refusal): a bundle holds at most \(DebugBundle.largestSaid)"
        )
      }
      throw BundleError(.input, "\(option) \(TerminalText.escaped(path)) \(refusal)")
    }
  }
}
