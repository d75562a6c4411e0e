import DebugBundle
import Foundation
import HAR

/// `bundle` (#54): a debug bundle read from any bytes within its bounds, never a trap; and a
/// bundle made of the input (as a capture when it is one, as a report and a dump always),
/// redacted, reads back with every file as its manifest lists it.
extension FuzzTarget {
  static func bundle(_ input: [UInt8]) {
    _ = try? BundleReader.read(input, name: "fuzz")
    let files = BundleMaterial(
      origin: "fuzz", stateDumps: [NamedFile(name: "dump.json", bytes: input)],
      qaReports: [NamedFile(name: "qa.md", bytes: input)], secrets: ["fuzz-secret-0123456789"])
    var withCapture = files
    withCapture.captures = [NamedFile(name: "fuzz.har", bytes: input)]
    guard
      let made = (try? BundleMaker.make(withCapture, redact: true))
        ?? (try? BundleMaker.make(files, redact: true))
    else { return }
    guard let read = try? BundleReader.read(made.zip, name: "made"), read.changed.isEmpty else {
      FuzzFailure.report("a bundle made of the input does not read back to its manifest")
      return
    }
    if read.files.values.contains(where: { $0.count >= 22 && containsSecret($0) }) {
      FuzzFailure.report("a bundle holds a secret it was told of")
    }
  }

  private static func containsSecret(_ bytes: [UInt8]) -> Bool {
    let secret = Array("fuzz-secret-0123456789".utf8)
    guard bytes.count >= secret.count else { return false }
    return (0...(bytes.count - secret.count)).contains {
      bytes[$0..<$0 + secret.count].elementsEqual(secret)
    }
  }

  /// The HAR seed, and a bundle made of it.
  static var bundleSeeds: [[UInt8]] {
    let har = Array(HARDocument.encode([seedExchange]))
    let made = try? BundleMaker.make(
      BundleMaterial(origin: "seed", captures: [NamedFile(name: "seed.har", bytes: har)]),
      redact: false)
    return [har, made?.zip ?? []]
  }
}
