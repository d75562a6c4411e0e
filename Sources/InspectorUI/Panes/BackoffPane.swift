import Foundation
import RegistrationCore
import SessionValues

/// 4 Backoff: failures in a row and the ladder.
extension Panes {
  static func backoff(_ model: InspectorModel, width: Int) -> [Line] {
    guard let device = model.device else { return [] }
    let ladder = RetryPolicy.ladder
    let g = model.glyphs
    guard let retry = device.state.scheduler.retry else {
      let rungs = ladder.map { _ in g.rungAhead }.joined()
      return [
        [("no failures", .success)],
        [("ladder ", .dim), (rungs, .dim), (" 1 min-1 d", .dim)],
      ]
    }
    let what = retry.lastStatus.map { "HTTP \($0)" } ?? (retry.lastError.map(text) ?? "no answer")
    let left = max(0, retry.nextAttemptAt - model.now)
    let rung = min(retry.failures, ladder.count) - 1
    var rungs: Line = [("ladder ", .dim)]
    for index in ladder.indices {
      if index < rung {
        rungs.append((g.rungDone, .warning))
      } else if index == rung {
        rungs.append((g.rungCurrent, .error))
      } else {
        rungs.append((g.rungAhead, .dim))
      }
    }
    rungs.append((" " + DurationText.describe(retry.nextAttemptAt - retry.failedAt), .normal))
    var lines: [Line] = [
      [("\(retry.failures) failure\(retry.failures == 1 ? "" : "s") in a row", .error)],
      [("last: ", .dim), (what, .normal)],
      [
        ("next retry ", .normal),
        (left <= 0 ? "now" : "in \(DurationText.describe(left.rounded(.up)))", .countdown),
      ],
      rungs,
    ]
    if retry.failures > ladder.count {
      lines.append([("at the cap: retrying once a day (R4.1)", .dim)])
    }
    if retry.needsFix {
      lines.append([
        (
          "needs a fix: \(retry.lastStatus.map(String.init) ?? "") will not heal by waiting (R4.5)",
          .error
        )
      ])
    }
    if retry.lastError?.hasPrefix("too early") == true {
      lines.append([("android: too early, answered locally 429; nothing was sent", .warning)])
    }
    lines.append([(device.settings.profile.retryRule, .dim)])
    return lines
  }
}
