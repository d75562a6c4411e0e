import EngagementServer
import Foundation
import InspectorUI
import QA
import RegistrationCore
import Synchronization
import ToolSupport

/// `regscope --receive --qa PLAN`: the plan runs beside the receiver's screen. Each change of
/// the run posts its checklist to the UI; an ask waits until the tester presses Enter. When
/// the run ends its Markdown report is written beside the state.
final class QAInInspector: Sendable {
  let plan: QAPlan
  private let checklist: Mutex<QAChecklist>
  private let proceedSignal: AsyncStream<Void>.Continuation
  private let proceeds: AsyncStream<Void>
  private let task = Mutex<Task<Void, Never>?>(nil)
  /// Where the report went, once written.
  let written = Mutex<String?>(nil)
  /// Set once the run has ended: true when it was stopped before its end.
  private let stopped = Mutex<Bool?>(nil)

  init(plan: QAPlan) {
    self.plan = plan
    checklist = Mutex(
      QAChecklist(
        plan: plan.name, items: plan.steps.map { QAChecklist.Item(summary: $0.summary) }))
    (proceeds, proceedSignal) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// Enter, after an ask.
  func proceed() { proceedSignal.yield() }

  func start(
    on server: LocalEngagementServer, reportFolder: String, context: QARunContext,
    post: @escaping @Sendable (QAChecklist) -> Void, say: @escaping @Sendable (String) -> Void
  ) {
    let proceeds = self.proceeds
    let runner = QARunner(
      server: server,
      ask: { [weak self] step, text in
        guard let self else { return }
        post(self.change { $0.ask = text })
        for await _ in proceeds { break }
        post(self.change { $0.ask = nil })
      },
      progress: { [weak self] progress in
        guard let self else { return }
        post(self.change { Self.apply(progress, to: &$0) })
      })
    let plan = self.plan
    let running = Task { [weak self] in
      var report = await runner.run(plan)
      report.context = context
      self?.stopped.withLock { $0 = report.interrupted }
      let path = reportFolder + "/" + QAReportText.fileName(report)
      let verdict = "QA \(TerminalText.escaped(plan.name)): \(QAReportText.verdict(report))"
      do {
        try OutputFile.write(QAReportText.markdown(report), to: path)
        self?.written.withLock { $0 = path }
        say("\(verdict); report in \(path)")
      } catch {
        say("\(verdict); the report: \(error)")
      }
    }
    task.withLock { $0 = running }
  }

  /// Stops the run if it is still going (the inspector is quitting: Ctrl-C, a signal, `q`)
  /// and waits until its report is written. True when the run was stopped before its end:
  /// the tool then exits 130, as `regctl qa` does.
  func finish() async -> Bool {
    guard let running = task.withLock({ $0 }) else { return false }
    running.cancel()
    await running.value
    return stopped.withLock { $0 } ?? true
  }

  private func change(_ body: (inout QAChecklist) -> Void) -> QAChecklist {
    checklist.withLock { list in
      body(&list)
      return list
    }
  }

  static func apply(_ progress: QAProgress, to list: inout QAChecklist) {
    switch progress {
    case .started(let step):
      list.current = step.number - 1
      list.deadline = nil
      list.nextAllowed = nil
    case .waiting(_, let next, let deadline):
      list.deadline = deadline
      list.nextAllowed = next
    case .finished(let result):
      let index = result.step.number - 1
      guard list.items.indices.contains(index) else { return }
      list.items[index].verdict = result.verdict.rawValue
      list.items[index].evidence = result.evidence
      list.current = index + 1 < list.items.count ? index + 1 : nil
      list.deadline = nil
    }
  }
}
