import AsyncHTTPClient
import EngagementCore
import Foundation
import HAR
import NIOCore
import NIOHTTP1
import QA
import RegistrationCore
import Scenarios
import Session
import SessionHTTP
import SystemCalls

extension RegScopeTools {
  // MARK: The receiver's devices

  func listDevices() async -> Answer {
    let fetched = await get("api/devices?limit=100")
    guard case .success(let (status, body)) = fetched else { return failure(fetched) }
    guard status == 200,
      let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      let devices = object["devices"] as? [[String: Any]]
    else { return .error("the receiver answered \(status) to GET /api/devices") }
    guard !devices.isEmpty else {
      return Answer(
        text: "no device has registered with the receiver at \(receiver) yet", isError: false)
    }
    // Written here, not passed on: the API's device carries tokens, which stay out.
    let lines = devices.map { device -> String in
      let client = device["client"] as? [String: Any] ?? [:]
      let severities = client["severities"] as? [String: Int] ?? [:]
      let sdk = [client["sdk"] as? String, client["sdkVersion"] as? String].compactMap { $0 }
      let counted = ["violation", "warning", "note"].map { severity in
        let count = severities[severity] ?? 0
        return "\(count) \(severity)\(count == 1 ? "" : "s")"
      }
      return [
        device["deviceID"] as? String ?? "?",
        "sdk " + (sdk.isEmpty ? "not seen by this run" : sdk.joined(separator: " ")),
        (client["profile"] as? String).map { "judged as \($0)" },
        (device["contactKey"] as? String).map { "contact \($0)" } ?? "no contact yet",
        "findings: " + counted.joined(separator: ", "),
      ].compactMap { $0 }.joined(separator: "  ")
    }
    // Each line escaped on its own: the line breaks between them stay line breaks.
    return Answer(
      text: lines.map { TerminalText.escaped($0) }.joined(separator: "\n"), isError: false)
  }

  func deviceStory(_ deviceID: String, explained: Bool) async -> Answer {
    let escaped = deviceID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    let fetched = await get("api/devices/\(escaped)/\(explained ? "explain" : "fields")")
    guard case .success(let (status, body)) = fetched else { return failure(fetched) }
    guard status == 200 else {
      let message =
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["message"]
        as? String
      return .error(
        "device \"\(TerminalText.escaped(deviceID))\": \(message ?? "the receiver answered \(status)") (list_devices shows the devices)"
      )
    }
    guard explained else {
      return Answer(text: String(decoding: body, as: UTF8.self), isError: false)
    }
    let sentences =
      (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["sentences"]
      as? [String] ?? []
    return Answer(text: sentences.joined(separator: "\n"), isError: false)
  }

  func injectFault(token: String, fault: String) async -> Answer {
    var request = HTTPClientRequest(
      url: receiver.appendingPathComponent("api/faults").absoluteString)
    request.method = .POST
    request.headers.add(name: "Authorization", value: "Bearer \(token)")
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(string: fault))
    let fetched = await execute(request)
    guard case .success(let (status, body)) = fetched else { return failure(fetched) }
    let text = TerminalText.escaped(String(decoding: body, as: UTF8.self))
    guard status == 200 else {
      return .error("the receiver refused the fault (\(status)): \(text)")
    }
    return Answer(text: text, isError: false)
  }

  private func get(_ path: String) async -> Result<(Int, [UInt8]), HTTPFailure> {
    await execute(HTTPClientRequest(url: receiver.absoluteString.trimmingSuffix("/") + "/" + path))
  }

  struct HTTPFailure: Error { var message: String }

  /// One client for the process, never shut down. A refused connection is an answer at once
  /// (no receiver there), not retried until a time-out.
  static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow, timeout: .init(connect: .seconds(3)))
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }()

  private func execute(_ request: HTTPClientRequest) async -> Result<(Int, [UInt8]), HTTPFailure> {
    do {
      let response = try await Self.client.execute(request, timeout: .seconds(10))
      var body: [UInt8] = []
      for try await chunk in response.body where body.count < Self.answerLimit {
        body += chunk.readableBytesView.prefix(Self.answerLimit - body.count)
      }
      return .success((Int(response.status.code), body))
    } catch {
      return .failure(
        HTTPFailure(
          message:
            "the receiver at \(receiver) did not answer (\(error)): start one with regscope --receive or regctl serve, or give regctl mcp --receiver URL"
        ))
    }
  }

  private func failure(_ result: Result<(Int, [UInt8]), HTTPFailure>) -> Answer {
    if case .failure(let failure) = result { return .error(TerminalText.escaped(failure.message)) }
    return .error("no answer")
  }

  // MARK: Captures, scenarios, plans: no receiver needed

  func judgeCapture(_ path: String) -> Answer {
    do {
      let judge = try HARReader.judge([path])
      return Answer(text: CaptureText.report(judge, sources: [path]), isError: false)
    } catch {
      return .error("\(error)")
    }
  }

  func runScenario(_ name: String) async -> Answer {
    if FileManager.default.fileExists(atPath: name) || name.hasSuffix(".yaml")
      || name.hasSuffix(".yml")
    {
      guard case .success(let file) = SystemCalls.fileInfo(name), file.kind == .regular else {
        return .error("\(TerminalText.escaped(name)): not a regular file that can be read")
      }
    }
    do {
      guard let scenario = try BuiltInScenarios.load(name) else {
        return .error(
          "no scenario file or built-in named \"\(TerminalText.escaped(name))\"; the built-ins are \(BuiltInScenarios.all.map(\.name).joined(separator: ", "))"
        )
      }
      let report = try await ScenarioRunner.run(
        scenario, factory: SessionFactory(network: HTTPNetwork()), overHTTP: false, sdk: nil
      ) { _ in }
      return Answer(text: TimelinePrinter.summary(report), isError: false)
    } catch {
      return .error(TerminalText.escaped("\(error)"))
    }
  }

  func listPlans() -> Answer {
    let lines = BuiltInPlans.names.compactMap { name in
      BuiltInPlans.plan(name).map { "\(name): \($0.description)" }
    }
    return Answer(
      text: lines.joined(separator: "\n") + "\n(run one on a real app with regctl qa NAME)",
      isError: false)
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
