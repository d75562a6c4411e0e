/// Every kind of event a run can log, named once: the `type` of DESIGN.md's event stream, the
/// words scenarios' `expect: events` accept, and what the inspector colours by.
public enum EventKind: String, CaseIterable, Hashable, Sendable {
  case launched, edited, inputRejected, warning, scheduled, delayed, sending, sent, failed
  case sendSkipped, serverReceived, serverProcessed, orphaned
  /// The tenant's answer to "did it arrive?" (`--tenant` with `--upstream`): the real
  /// tenant's word, not RegScope's processing.
  case tenantReadBack
}
