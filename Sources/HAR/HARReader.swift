import EngagementCore
import Foundation
import RegistrationCore
import SystemCalls

/// Reads HAR 1.2 captures (mitmproxy, Charles, Proxyman, the browsers' developer tools,
/// RegScope's own export) and judges the SDK's registrations in them.
///
/// Memory stays near one file's size whatever it holds: the file is mapped, its entries are
/// found by `HARScanner` without building the document, only the SDK's entries are remembered
/// (their place and time, 24 bytes each), and those are then read one at a time in time order.
public enum HARReader {
  /// The largest capture read: 512 MiB, the most `--har` writes (`HARFile.byteBudget`). A
  /// larger file is refused by its size, before a byte of it is read (a 1 GB file was read
  /// whole, then refused as not JSON, #52).
  public static let largestFile = Int64(HARFile.byteBudget)

  /// Judges every SDK registration in `paths`, merged and ordered by start time. An entry
  /// that cannot be read is an error naming it, unless `skipUnreadable` (then it is counted).
  /// With `definedAttributes` (and the tenant's set they came from), attributes the table
  /// lacks are found (S5).
  public static func judge(
    _ paths: [String], skipUnreadable: Bool = false, replay: FieldReplay? = nil,
    definedAttributes: Set<String>? = nil, demographicsSet: String? = nil
  ) throws(HARError) -> CaptureJudge {
    var documents: [(name: String, bytes: Data)] = []
    for path in paths { documents.append((path, try load(path))) }
    var judge = CaptureJudge()
    judge.definedAttributes = definedAttributes
    judge.demographicsSet = demographicsSet
    return try Self.judge(
      owning: &documents, skipUnreadable: skipUnreadable, replay: replay, into: judge)
  }

  /// The same, for documents already in memory (`name` says where each came from).
  public static func judge(
    documents: [(name: String, bytes: Data)], skipUnreadable: Bool = false,
    replay: FieldReplay? = nil
  ) throws(HARError) -> CaptureJudge {
    var copies = documents
    return try judge(owning: &copies, skipUnreadable: skipUnreadable, replay: replay)
  }

  /// Judges documents whose bytes it may overwrite: each SDK entry is shrunk where it lies
  /// (`HAREntryShrinker`) before it is built, so no second copy of a huge body is made.
  static func judge(
    owning documents: inout [(name: String, bytes: Data)], skipUnreadable: Bool,
    replay: FieldReplay? = nil, into start: CaptureJudge = CaptureJudge()
  ) throws(HARError) -> CaptureJudge {
    var judge = start
    judge.replay = replay
    var found: [(time: Double, file: Int, range: Range<Int>, index: Int)] = []
    var unreadable: [(file: Int, index: Int, byte: Int)] = []
    for (number, document) in documents.enumerated() {
      var index = 0
      do {
        try document.bytes.withUnsafeBytes { bytes in
          try HARScanner.scan(bytes) { range in
            defer { index += 1 }
            // Only the time, method and URL are read here: an entry is built whole only
            // when it is the SDK's, one at a time, in time order.
            guard let head = HARScanner.head(UnsafeRawBufferPointer(rebasing: bytes[range])) else {
              unreadable.append((number, index, range.lowerBound))
              return
            }
            guard let time = head.started.flatMap(HARTime.parse) else {
              judge.counts.skippedTimes += 1
              return
            }
            guard HAREntry.route(method: head.method ?? "", url: head.url ?? "") != nil else {
              judge.counts.ignored += 1
              return
            }
            found.append((time, number, range, index))
          }
        }
      } catch let error as HARError {
        throw HARError(error.kind, error.message, file: document.name)
      } catch {
        throw HARError(.unreadable, "\(error)", file: document.name)
      }
    }
    found = withoutCopies(found, in: documents, counts: &judge.counts)
    // Stable: entries started in the same instant keep the capture's order.
    let ordered = found.enumerated().sorted {
      ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
    }.map(\.element)
    for item in ordered {
      documents[item.file].bytes.withUnsafeMutableBytes { bytes in
        let entryBytes = UnsafeMutableRawBufferPointer(rebasing: bytes[item.range])
        guard let shrunk = HAREntryShrinker.shrink(entryBytes),
          let entry = HAREntry.object(
            UnsafeRawBufferPointer(rebasing: entryBytes[0..<shrunk.length]))
        else {
          unreadable.append((item.file, item.index, item.range.lowerBound))
          return
        }
        judge.add(HAREntry.exchange(entry, startedAt: item.time, requestText: shrunk.body))
      }
    }
    let named = unreadable.sorted { ($0.file, $0.index) < ($1.file, $1.index) }.map {
      (documents[$0.file].name, "entry \($0.index) (byte \($0.byte))")
    }
    if !skipUnreadable, let first = named.first {
      throw HARError(
        .unreadable,
        "\(first.1)\(named.count > 1 ? " and \(named.count - 1) more" : "") cannot be read as JSON (a lone surrogate, a number out of range or invalid UTF-8?); --skip-unreadable judges the rest",
        file: first.0)
    }
    judge.counts.unreadable = named.map { "\($0.0) \($0.1)" }
    return judge
  }

  /// The SDK entries, less those another file given already holds: the same bytes at the same
  /// instant (the same capture given twice, or two exports that overlap) are judged once.
  /// Within one file an entry is never dropped: two identical posts there are the app's.
  static func withoutCopies(
    _ found: [(time: Double, file: Int, range: Range<Int>, index: Int)],
    in documents: [(name: String, bytes: Data)], counts: inout CaptureCounts
  ) -> [(time: Double, file: Int, range: Range<Int>, index: Int)] {
    guard documents.count > 1 else { return found }
    struct Key: Hashable {
      var time: Double
      var length: Int
      var hash: UInt64
    }
    // An entry is a copy when another file already gave it as many times as this file has so
    // far: the union of the files, each entry as often as the file that holds it most.
    var kept: [Key: Int] = [:]
    var inFile: [Key: [Int: Int]] = [:]
    return found.filter { entry in
      let hash = documents[entry.file].bytes.withUnsafeBytes { bytes in
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in bytes[entry.range] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
      }
      let key = Key(time: entry.time, length: entry.range.count, hash: hash)
      let seen = (inFile[key]?[entry.file] ?? 0) + 1
      inFile[key, default: [:]][entry.file] = seen
      guard seen > kept[key, default: 0] else {
        counts.duplicates += 1
        return false
      }
      kept[key] = seen
      return true
    }
  }

  /// The file's bytes, read (not mapped: a mapped file truncated by another process while it
  /// is read kills the reader with SIGBUS). A file whose size changes while it is read is an
  /// error: what was read may be half of two versions.
  static func load(_ path: String) throws(HARError) -> Data {
    let before: SystemCalls.FileInfo
    switch SystemCalls.fileInfo(path) {
    case .failure(let failure):
      throw HARError(.unreadable, "cannot be read (\(failure))", file: path)
    case .success(let file):
      guard file.kind == .regular else {
        throw HARError(.unreadable, "is not a regular file", file: path)
      }
      guard file.size <= largestFile else {
        throw HARError(
          .tooLarge,
          "is \(file.size) bytes; a capture is read up to \(largestFile >> 20) MiB (\(largestFile) bytes)",
          file: path)
      }
      before = file
    }
    let data: Data
    do {
      // At most one byte more than the size seen: a file that grew meanwhile is not read on.
      guard let handle = FileHandle(forReadingAtPath: path) else {
        throw HARError(.unreadable, "cannot be read", file: path)
      }
      defer { try? handle.close() }
      data = try handle.read(upToCount: Int(before.size) + 1) ?? Data()
    } catch let error as HARError {
      throw error
    } catch {
      throw HARError(.unreadable, "cannot be read (\(error.localizedDescription))", file: path)
    }
    if case .success(let after) = SystemCalls.fileInfo(path),
      after.size != before.size || Int64(data.count) != before.size
    {
      throw HARError(
        .unreadable,
        "changed while it was read (\(before.size) bytes, then \(after.size)): read it again once it is written",
        file: path)
    }
    return data
  }
}
