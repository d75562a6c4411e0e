import EngagementCore
import Foundation

/// A capture to judge: a file, or a document already in memory (the capture inside a debug
/// bundle, #54), named as the judge's messages name it.
public enum HARSource: Sendable {
  case file(String)
  case document(name: String, bytes: Data)
}

extension HARReader {
  /// `judge(_:)` over files and documents alike, merged into one timeline as files are.
  public static func judge(
    sources: [HARSource], skipUnreadable: Bool = false, replay: FieldReplay? = nil,
    definedAttributes: Set<String>? = nil, demographicsSet: String? = nil
  ) throws(HARError) -> CaptureJudge {
    var documents: [(name: String, bytes: Data)] = []
    for source in sources {
      switch source {
      case .file(let path): documents.append((path, try load(path)))
      case .document(let name, let bytes): documents.append((name, bytes))
      }
    }
    var judge = CaptureJudge()
    judge.definedAttributes = definedAttributes
    judge.demographicsSet = demographicsSet
    return try Self.judge(
      owning: &documents, skipUnreadable: skipUnreadable, replay: replay, into: judge)
  }
}
