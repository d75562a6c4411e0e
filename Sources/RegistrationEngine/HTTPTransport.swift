import Clocks
import Foundation
import RegistrationCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends registrations over HTTP with URLSession (R6.1): a real Marketing Cloud tenant or the
/// local Engagement server.
public struct HTTPTransport: RegistrationTransport {
  private let session: URLSession
  private let wallClock: @Sendable () -> Date

  public init(wallClock: @escaping @Sendable () -> Date = { Date() }) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieAcceptPolicy = .never
    configuration.urlCache = nil
    session = URLSession(configuration: configuration)
    self.wallClock = wallClock
  }

  /// URLSession on Linux does not reliably honour a request's time-out while the server holds
  /// the connection open, so the time-out is enforced here: whichever comes first, the answer
  /// or the deadline, decides; the loser is cancelled.
  public func send(_ request: RegistrationRequest) async -> SendResult {
    let timeout = request.timeout
    return await withTaskGroup(of: SendResult?.self) { group in
      group.addTask { await self.exchange(request) }
      group.addTask {
        do {
          try await Task.sleep(for: .seconds(timeout))
        } catch {
          return nil
        }
        return .transportFailed("timed out after \(Self.seconds(timeout)) s")
      }
      var result: SendResult = .transportFailed("cancelled")
      for await answer in group {
        guard let answer else { continue }
        result = answer
        break
      }
      group.cancelAll()
      return result
    }
  }

  static func seconds(_ value: Double) -> String {
    NumberText.compact(value)
  }

  private func exchange(_ request: RegistrationRequest) async -> SendResult {
    var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout)
    urlRequest.httpMethod = "POST"
    urlRequest.httpBody = Data(request.body)
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    // A registration goes out at most once a minute: a fresh connection each time costs
    // nothing and never meets a pooled one that a server restart left stale.
    urlRequest.setValue("close", forHTTPHeaderField: "Connection")
    do {
      let (_, response) = try await session.data(for: urlRequest)
      guard let http = response as? HTTPURLResponse else {
        return .transportFailed("the answer was not HTTP")
      }
      let retryAfter = http.value(forHTTPHeaderField: "Retry-After").flatMap {
        RetryAfter.seconds(from: $0, now: serverDate(http) ?? wallClock())
      }
      return .answered(status: http.statusCode, retryAfter: retryAfter)
    } catch {
      return .transportFailed(Self.describe(error, timeout: request.timeout))
    }
  }

  /// A Retry-After date is measured against the server's own Date header when it has one.
  private func serverDate(_ response: HTTPURLResponse) -> Date? {
    response.value(forHTTPHeaderField: "Date").flatMap(RetryAfter.httpDate)
  }

  static func describe(_ error: any Error, timeout: Double) -> String {
    guard let error = error as? URLError else { return "\(error.localizedDescription)" }
    switch error.code {
    case .timedOut: return "timed out after \(seconds(timeout)) s"
    case .cannotConnectToHost: return "connection refused"
    case .networkConnectionLost: return "the connection was dropped"
    case .cannotFindHost: return "unknown host"
    case .notConnectedToInternet: return "no network connection"
    case .badServerResponse: return "the server's answer was not valid HTTP"
    default: return "network error \(error.code.rawValue): \(error.localizedDescription)"
    }
  }
}
