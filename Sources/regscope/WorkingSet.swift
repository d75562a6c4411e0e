import Foundation
import SystemCalls

/// Gives back the code pages only the start needed. Loading the Swift runtime, Foundation and
/// ICU, parsing arguments and opening the stores map many megabytes of read-only code and
/// tables that an idle inspector never touches again; the kernel's fault-around maps 64 KB
/// around each page used. Those pages are clean copies of files in the page cache, so
/// unmapping them loses nothing: a page used again is mapped again on its next touch (a minor
/// fault, microseconds).
enum WorkingSet {
  /// Unmaps the pages of every executable, file-backed mapping that holds no private
  /// changes. Writable mappings and relocated data (private dirty) are never touched.
  /// Returns the kilobytes that were resident in what it unmapped.
  @discardableResult
  static func trimStartupCode() -> Int {
    guard let data = SystemCalls.readProcSelf("smaps") else { return 0 }
    let smaps = String(decoding: data, as: UTF8.self)
    var trimmed = 0
    for mapping in Mapping.parse(smaps) where mapping.isTrimmable {
      let length = Int(mapping.end - mapping.start)
      if SystemCalls.dropPages(start: mapping.start, length: length) {
        trimmed += mapping.residentKB
      }
    }
    return trimmed
  }

  struct Mapping: Equatable {
    var start: UInt64
    var end: UInt64
    var permissions: String
    var path: String
    var residentKB = 0
    var privateDirtyKB = 0

    /// Code from a file, never written: unmapping it is safe.
    var isTrimmable: Bool {
      permissions == "r-xp" && path.hasPrefix("/") && privateDirtyKB == 0 && residentKB > 0
    }

    static func parse(_ smaps: String) -> [Mapping] {
      var mappings: [Mapping] = []
      for line in smaps.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = fields.first else { continue }
        if first.hasSuffix(":") {
          guard !mappings.isEmpty, fields.count >= 2, let value = Int(fields[1]) else { continue }
          switch first {
          case "Rss:": mappings[mappings.count - 1].residentKB = value
          case "Private_Dirty:": mappings[mappings.count - 1].privateDirtyKB = value
          default: break
          }
          continue
        }
        let range = first.split(separator: "-")
        guard range.count == 2, fields.count >= 5,
          let start = UInt64(range[0], radix: 16), let end = UInt64(range[1], radix: 16),
          start < end
        else { continue }
        mappings.append(
          Mapping(
            start: start, end: end, permissions: String(fields[1]),
            path: fields.count >= 6 ? fields[5...].joined(separator: " ") : ""))
      }
      return mappings
    }
  }
}
