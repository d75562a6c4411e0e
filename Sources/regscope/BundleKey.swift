import DebugBundle
import Foundation
import RegistrationCore
import Session
import SessionHTTP

/// `B` in `regscope --receive` (#54): the chosen device's debug bundle, written to the state
/// folder under a name of its own (never over a file), said at the bottom of the screen.
enum BundleKey {
  /// What to flash, and whether it is an error.
  static func write(_ receiver: ReceiverSession?, deviceID: String, folder: String?) async -> (
    String, Bool
  ) {
    guard let receiver else {
      return ("B: a bundle is made of a receiver's device (regscope --receive)", true)
    }
    guard let material = await ReceiverBundles.material(receiver, deviceID: deviceID) else {
      return ("B: the receiver holds nothing of \(TerminalText.escaped(deviceID)) yet", true)
    }
    let stamp = DateFormatter()
    stamp.locale = Locale(identifier: "en_US_POSIX")
    stamp.timeZone = TimeZone(identifier: "UTC")
    stamp.dateFormat = "yyyyMMdd-HHmmss"
    let safe = String(
      deviceID.unicodeScalars.map {
        $0.isASCII && CharacterSet.alphanumerics.contains($0) ? Character($0) : "-"
      }.prefix(40))
    let path =
      (folder ?? FileManager.default.currentDirectoryPath)
      + "/regscope-bundle-\(safe)-\(stamp.string(from: material.createdAt)).zip"
    do {
      let made = try BundleMaker.make(material, redact: false)
      try BundleTarget.write(
        made.zip, to: path, force: false, protected: ReceiverBundles.protectedFiles(receiver))
      return (
        "bundle written: \(TerminalText.escaped(path)) (\(made.files.count) files, \(NumberText.grouped(made.zip.count)) bytes, tokens masked)",
        false
      )
    } catch {
      return ("B: \(error)", true)
    }
  }
}
