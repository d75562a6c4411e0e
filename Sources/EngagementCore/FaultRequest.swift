import Foundation
import RegistrationCore

/// Parses the body of `POST /api/faults` (S7), naming the field that is wrong:
/// `{"status": 503, "times": 3}`, `{"status": 429, "retryAfter": 120, "seconds": 600}`,
/// `{"mode": "hang"}`, `{"mode": "drop", "times": 1}`, `{"mode": "down", "seconds": 30}`.
public enum FaultRequest {
  public struct Invalid: Error {
    public var field: String
    public var message: String
  }

  public static func parse(_ body: [UInt8], now: Instant) throws(Invalid) -> ServerFault {
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    else { throw Invalid(field: "body", message: "must be a JSON object") }
    func number(_ key: String) throws(Invalid) -> Double? {
      guard let value = object[key] else { return nil }
      guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
        number.doubleValue.isFinite
      else { throw Invalid(field: key, message: "\(key) must be a number") }
      return number.doubleValue
    }
    let times = try number("times")
    let seconds = try number("seconds")
    let retryAfter = try number("retryAfter")
    let longest = ValueLimits.longestDuration
    let largestCount = ValueLimits.largestCount
    if let times, times < 1 || times > Double(largestCount) || times != times.rounded() {
      throw Invalid(
        field: "times", message: "times must be a whole number from 1 to \(largestCount)")
    }
    if let seconds, seconds <= 0 || seconds > longest {
      throw Invalid(
        field: "seconds",
        message: "seconds must be more than 0 and at most \(NumberText.compact(longest))")
    }
    if let retryAfter, retryAfter < 0 || retryAfter > longest {
      throw Invalid(
        field: "retryAfter",
        message: "retryAfter must be from 0 to \(NumberText.compact(longest)) seconds")
    }
    if object["status"] != nil, object["mode"] != nil {
      throw Invalid(field: "mode", message: "give a status or a mode, not both")
    }
    let kind: ServerFault.Kind
    if let status = try number("status") {
      // Checked as a Double first: converting 1e20 to Int would trap.
      guard (400...599).contains(status), status == status.rounded() else {
        throw Invalid(field: "status", message: "status must be an HTTP error, 400 to 599")
      }
      kind = .status(Int(status), retryAfter: retryAfter)
    } else if let mode = object["mode"] {
      switch mode as? String {
      case "hang": kind = .hang
      case "drop": kind = .drop
      case "down":
        guard seconds != nil else {
          throw Invalid(
            field: "seconds",
            message: "down needs seconds: a server that is down cannot be brought up over HTTP")
        }
        kind = .down
      default:
        throw Invalid(field: "mode", message: "mode must be \"hang\", \"drop\" or \"down\"")
      }
    } else {
      throw Invalid(field: "status", message: "give a status (500, 503, 429, ...) or a mode")
    }
    // In range by the checks above, so the conversion cannot trap.
    return ServerFault(kind: kind, remaining: times.map(Int.init), until: seconds.map { now + $0 })
  }
}
