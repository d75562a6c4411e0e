import Clocks
import Foundation
import RegistrationCore

/// The shell around `RegistrationMachine`: it owns the clock, the store, the transport and
/// the listeners, feeds the machine its inputs and carries out its decisions. Every state
/// change is stored before it is acknowledged to the caller (R1.4).
public actor RegistrationEngine {
  public typealias Listener = @Sendable (ListenerDelivery, ListenerID) async -> Void

  public nonisolated let clock: any EngineClock
  public nonisolated let configuration: RegistrationConfiguration
  private let store: RegistrationStore
  private let transport: any RegistrationTransport
  private let environment: DeviceEnvironment
  private let makeDeviceID: @Sendable () -> String
  private let makeRequestID: @Sendable () -> String
  private let eventSink: (@Sendable (TimedEvent) -> Void)?

  private var machine: RegistrationMachine?
  private var sendTask: Task<Void, Never>?
  /// The body of the send on the wire, for the `sent` event that ends it.
  private var inFlightBody: [UInt8]?
  /// iOS renews `uuid` only when the record changes: the record it was made for, and it.
  private var recordStamp: (record: RegistrationPayload, uuid: String)?
  private var isShutDown = false
  private var storeProblem: String?
  private var listeners: [(ListenerID, Listener)] = []
  private var nextListenerID = 0
  private var subscribers: [Int: AsyncStream<TimedEvent>.Continuation] = [:]
  private var nextSubscriberID = 0
  /// How long `run` waits before trying again after the store refused a write.
  public static let storeRetryInterval: Double = 5
  /// Fired whenever the schedule may have moved, so `run` re-reads the next deadline.
  private let scheduleChanged = ChangeSignal()

  /// - Parameters:
  ///   - environment: the device fields of this run (R3.2: what changed since the last
  ///     launch is a change).
  ///   - eventSink: called in order, on the engine, for every event (R5.3).
  public init(
    configuration: RegistrationConfiguration, store: RegistrationStore,
    transport: any RegistrationTransport, clock: any EngineClock,
    environment: DeviceEnvironment,
    makeDeviceID: @escaping @Sendable () -> String = { UUID().uuidString },
    makeRequestID: @escaping @Sendable () -> String = { UUID().uuidString },
    eventSink: (@Sendable (TimedEvent) -> Void)? = nil
  ) {
    self.makeRequestID = makeRequestID
    self.configuration = configuration
    self.store = store
    self.transport = transport
    self.clock = clock
    self.environment = environment
    self.makeDeviceID = makeDeviceID
    self.eventSink = eventSink
  }

  // MARK: Lifecycle

  /// Loads the stored state (or makes a first launch) and schedules what is due.
  public func launch() throws {
    guard !isShutDown else { throw EngineError.shutDown }
    let now = clock.now()
    let settings = configuration.machineSettings
    let (launched, step): (RegistrationMachine, Step)
    if let stored = try store.load() {
      (launched, step) = RegistrationMachine.relaunch(
        settings: settings, state: stored, environment: environment, now: now)
    } else {
      (launched, step) = RegistrationMachine.firstLaunch(
        settings: settings, deviceID: makeDeviceID(), environment: environment, now: now)
    }
    if step.persist { try store.save(launched.state) }
    machine = launched
    publish(step.events, at: now)
  }

  /// Stops this engine as a process death would: an answer still in flight is dropped, and
  /// nothing more is written. A new engine on the same store carries on (R1.4).
  public func shutDown() {
    isShutDown = true
    sendTask?.cancel()
    sendTask = nil
    for subscriber in subscribers.values { subscriber.finish() }
    subscribers.removeAll()
    scheduleChanged.fire()
  }

  // MARK: Edits

  /// Applies one edit. Returns only after an accepted edit is durable (R1.4); throws only
  /// when the store cannot be written, and then nothing changed.
  @discardableResult
  public func apply(_ edit: Edit) throws -> EditOutcome {
    var updated = try current()
    let now = clock.now()
    let (outcome, step) = updated.apply(edit, now: now)
    if step.persist { try save(updated.state) }
    machine = updated
    publish(step.events, at: now)
    return outcome
  }

  /// What `apply` would answer, changing nothing (for editors that warn before committing).
  public func preview(_ edit: Edit) throws -> EditOutcome {
    try current().preview(edit, now: clock.now())
  }

  public func setAppState(_ appState: AppState) throws {
    var updated = try current()
    let now = clock.now()
    let step = updated.setAppState(appState, now: now)
    machine = updated
    publish(step.events, at: now)
  }

  /// Fetches the inbox as this SDK's version asks for it (`InboxRequest`). Outside the
  /// registration schedule: the SDKs throttle registrations, not inbox fetches.
  public func fetchInbox() async throws -> (request: InboxRequest, result: SendResult) {
    let state = try current().state
    let payload = RegistrationPayload(record: state.record, settings: configuration.machineSettings)
    let request = InboxRequest(
      payload: payload, configuration: configuration,
      subscriberToken: state.scheduler.subscriberToken)
    return (request, await transport.fetch(request))
  }

  // MARK: Time

  /// When `tick` must run next, or nil when nothing is scheduled.
  public var nextDeadline: Instant? { machine?.nextDeadline }

  /// Time has come: starts the send that is due, if any. The answer arrives on its own; call
  /// `settle` to wait for it.
  public func tick() throws {
    var updated = try current()
    let now = clock.now()
    let step = updated.tick(now: now)
    if step.persist { try save(updated.state) }
    machine = updated
    let request = step.send.map(makeRequest)
    publish(step.events, at: now, wireBody: request?.body)
    if let send = step.send, let request { start(send, request) }
  }

  /// Waits until the send in flight, if any, has its answer and the answer is stored.
  public func settle() async {
    while let task = sendTask {
      await task.value
      if sendTask == task { sendTask = nil }
    }
  }

  /// Runs the engine on its clock until cancelled: sleeps until the next deadline (or until
  /// an edit moves it), ticks, repeats. No fixed ticker: an idle engine sleeps.
  public func run() async {
    var storeRetryAt: Instant?
    while !Task.isCancelled && !isShutDown {
      let generation = scheduleChanged.generation
      let now = clock.now()
      if let deadline = nextDeadline, deadline <= now, storeRetryAt.map({ $0 <= now }) ?? true {
        do {
          try tick()
          storeRetryAt = nil
        } catch {
          // A store that cannot be written now may be writable soon (a full disk, a lock):
          // try again a little later rather than stop sending for good.
          storeProblem = "\(error)"
          storeRetryAt = now + Self.storeRetryInterval
        }
        continue
      }
      // Wake at the deadline (and once the store may be writable again), or earlier when an
      // edit or an answer moves the schedule.
      await clock.sleep(
        until: Instant.latest(nextDeadline, storeRetryAt), orUntil: scheduleChanged,
        movesPast: generation)
    }
  }

  // MARK: Observing

  public func snapshot() throws -> EngineSnapshot {
    let machine = try current()
    return EngineSnapshot(
      now: clock.now(), machine: machine, storeLocation: store.location,
      storeProblem: storeProblem)
  }

  public func history(limit: Int = 100) throws -> [SendRecord] { try store.history(limit: limit) }

  /// Every event from now on, in order (R5.3).
  public func events() -> AsyncStream<TimedEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: TimedEvent.self)
    let id = nextSubscriberID
    nextSubscriberID += 1
    subscribers[id] = continuation
    continuation.onTermination = { [weak self] _ in
      Task { await self?.unsubscribe(id) }
    }
    return stream
  }

  private func unsubscribe(_ id: Int) { subscribers[id] = nil }

  /// After each successful registration the listener gets the registration as sent (R5.1), or,
  /// under the ios profile, the server's answer body (skipped when it is empty).
  @discardableResult
  public func addRegistrationListener(_ listener: @escaping Listener) -> ListenerID {
    let id = ListenerID(value: nextListenerID)
    nextListenerID += 1
    listeners.append((id, listener))
    return id
  }

  /// May be called from inside the listener's own callback (R5.2).
  public func removeRegistrationListener(_ id: ListenerID) {
    listeners.removeAll { $0.0 == id }
  }

  // MARK: Sending

  private func makeRequest(_ send: InFlightSend) -> RegistrationRequest {
    // The send time in the clock's own terms: real time for the system clock, the epoch plus
    // the virtual time in a scenario.
    var requestID = makeRequestID()
    if configuration.profile.uuidPerRecord {
      if let stamp = recordStamp, stamp.record == send.payload {
        requestID = stamp.uuid
      } else {
        recordStamp = (send.payload, requestID)
      }
    }
    return RegistrationRequest(
      send: send, configuration: configuration, requestID: requestID,
      sentAt: Date(timeIntervalSince1970: send.startedAt.seconds),
      subscriberToken: machine?.state.scheduler.subscriberToken)
  }

  private func start(_ send: InFlightSend, _ request: RegistrationRequest) {
    inFlightBody = request.body
    let transport = self.transport
    // Started at once on this actor rather than queued: the send leaves on its first await,
    // one thread hop fewer a send (a 30-day outage went from 12 to 7 ms). Nothing here runs
    // before `tick` has stored the machine: `start` is its last step.
    sendTask = Task.immediate {
      let result = await transport.send(request)
      await self.finish(send, result: result)
    }
  }

  private func finish(_ send: InFlightSend, result: SendResult) async {
    guard !isShutDown, let before = machine else { return }
    var updated = before
    let now = clock.now()
    let step = updated.sendFinished(sendID: send.id, result: result, now: now)
    var status: Int?
    var transportError: String?
    switch result {
    case .answered(let code, _, _, _): status = code
    case .transportFailed(let message): transportError = message
    }
    let record = SendRecord(
      sendID: send.id, attempt: send.attempt, reason: send.reason, startedAt: send.startedAt,
      finishedAt: now, status: status, error: transportError,
      hash: BodyHash.digest(send.body, configuration.profile.bodyHash),
      body: String(decoding: send.body, as: UTF8.self))
    do {
      try save(updated.state, appending: record)
    } catch {
      // The answer cannot be recorded, so it counts as lost: the changes stay pending and go
      // out again on the retry ladder, which is safe because every registration carries the
      // whole record. The send must still end, or the engine would wait for it for ever.
      storeProblem = "\(error)"
      let answer = status.map { "\($0)" } ?? (transportError ?? "no answer")
      var fallback = before
      let lost = fallback.sendFinished(
        sendID: send.id,
        result: .transportFailed(
          "the answer (\(answer)) could not be stored: \(storeProblem ?? "")"),
        now: now)
      machine = fallback
      publish(lost.events, at: now)
      return
    }
    machine = updated
    publish(step.events, at: now, wireBody: inFlightBody)
    for event in step.events {
      guard case .sent(_, _, _, let payload) = event else { continue }
      let delivery: ListenerDelivery
      switch configuration.profile.listenerPayload {
      case .sentBody: delivery = .registration(payload)
      case .answerBody:
        guard case .answered(_, _, let body?, _) = result, !body.isEmpty else { continue }
        delivery = .answer(body)
      }
      // A snapshot, so a listener may remove itself (or others) while being called (R5.2).
      for (id, listener) in listeners { await listener(delivery, id) }
    }
  }

  // MARK: Plumbing

  private func current() throws -> RegistrationMachine {
    if isShutDown { throw EngineError.shutDown }
    guard let machine else { throw EngineError.notLaunched }
    return machine
  }

  private func save(_ state: RegistrationState, appending send: SendRecord? = nil) throws {
    try store.save(state, appending: send)
    storeProblem = nil
  }

  private func publish(
    _ events: [RegistrationEvent], at now: Instant, wireBody: [UInt8]? = nil
  ) {
    for event in events {
      var timed = TimedEvent(at: now, event: event)
      switch event {
      case .sending, .sent: timed.wireBody = wireBody
      default: break
      }
      eventSink?(timed)
      for subscriber in subscribers.values { subscriber.yield(timed) }
    }
    scheduleChanged.fire()
  }
}

/// What a registration listener is handed after a 2xx, as the SDK profile decides.
public enum ListenerDelivery: Hashable, Sendable {
  /// The registration as sent (R5.1; Android's `onRegistrationReceived`).
  case registration(RegistrationPayload)
  /// The server's answer body, as text (iOS's registration callback).
  case answer(String)
}
