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
  /// The largest capture read: 4 GiB.
  public static let largestFile: Int64 = 4 << 30

  /// Judges every SDK registration in `paths`, merged and ordered by start time.
  public static func judge(_ paths: [String]) throws(HARError) -> CaptureJudge {
    var documents: [(name: String, bytes: Data)] = []
    for path in paths { documents.append((path, try load(path))) }
    return try judge(documents: documents)
  }

  /// The same, for documents already in memory (`name` says where each came from).
  public static func judge(documents: [(name: String, bytes: Data)]) throws(HARError)
    -> CaptureJudge
  {
    var judge = CaptureJudge()
    var found: [(time: Double, file: Int, range: Range<Int>)] = []
    for (number, document) in documents.enumerated() {
      do {
        try document.bytes.withUnsafeBytes { bytes in
          try HARScanner.scan(bytes) { range in
            let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
            guard let entry = HAREntry.object(slice) else {
              judge.counts.ignored += 1
              return
            }
            guard let time = HAREntry.startTime(entry) else {
              judge.counts.skippedTimes += 1
              return
            }
            guard HAREntry.route(entry) != nil else {
              judge.counts.ignored += 1
              return
            }
            found.append((time, number, range))
          }
        }
      } catch let error as HARError {
        throw HARError(error.kind, error.message, file: document.name)
      } catch {
        throw HARError(.unreadable, "\(error)", file: document.name)
      }
    }
    // Stable: entries started in the same instant keep the capture's order.
    let ordered = found.enumerated().sorted {
      ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
    }.map(\.element)
    for item in ordered {
      documents[item.file].bytes.withUnsafeBytes { bytes in
        guard let entry = HAREntry.object(UnsafeRawBufferPointer(rebasing: bytes[item.range]))
        else { return }
        judge.add(HAREntry.exchange(entry, startedAt: item.time))
      }
    }
    return judge
  }

  /// The file's bytes, mapped rather than read where the system can.
  static func load(_ path: String) throws(HARError) -> Data {
    switch SystemCalls.fileInfo(path) {
    case .failure(let failure):
      throw HARError(.unreadable, "cannot be read (\(failure))", file: path)
    case .success(let file):
      guard file.kind == .regular else {
        throw HARError(.unreadable, "is not a regular file", file: path)
      }
      guard file.size <= largestFile else {
        throw HARError(
          .tooLarge, "is \(file.size) bytes; a capture is read up to 4 GiB", file: path)
      }
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    } catch {
      throw HARError(.unreadable, "cannot be read (\(error.localizedDescription))", file: path)
    }
  }
}
