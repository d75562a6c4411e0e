import Foundation
import SystemCalls
import Testing

@Suite("the C library, through one file", .timeLimit(.minutes(10)))
struct SystemCallsTests {
  @Test("a private file is created 0600; an impossible path says why")
  func privateFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "systemcalls-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(SystemCalls.createPrivateFile(path) == nil)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let refused = SystemCalls.createPrivateFile("/nonexistent-folder/x")
    #expect(refused?.contains("No such file") == true)
  }

  @Test("what a path is: a file with its size, a folder, or why not")
  func fileInfo() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "systemcalls-\(UUID().uuidString)"
    ).path
    try "12345".write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = try SystemCalls.fileInfo(path).get()
    #expect(file.kind == .regular && file.size == 5)
    #expect(try SystemCalls.fileInfo("/").get().kind == .directory)
    #expect(try SystemCalls.fileInfo("/dev/null").get().kind == .other)
    guard case .failure(let failure) = SystemCalls.fileInfo("/nonexistent") else {
      Issue.record("a missing path has no info")
      return
    }
    #expect(failure.description.contains("No such file"))
  }

  @Test("a byte in the wake pipe wakes the wait; drained, the wait times out")
  func wakePipe() throws {
    let pipe = try SystemCalls.makeWakePipe()
    defer {
      SystemCalls.close(pipe.read)
      SystemCalls.close(pipe.write)
    }
    SystemCalls.writeByte(to: pipe.write)
    let woken = try SystemCalls.waitForInput(orWake: pipe.read, milliseconds: 1_000).get()
    #expect(woken.wake)
    SystemCalls.drain(pipe.read)
    let quiet = try SystemCalls.waitForInput(orWake: pipe.read, milliseconds: 10).get()
    #expect(!quiet.wake)
  }

  @Test("a held port refuses connections; released, it is free to bind again")
  func heldPort() throws {
    let port = 20_000 + Int.random(in: 0..<20_000)
    guard let held = SystemCalls.holdPort(host: "127.0.0.1", port: port) else {
      Issue.record("port \(port) could not be held")
      return
    }
    #expect(!SystemCalls.connects(host: "127.0.0.1", port: port))
    SystemCalls.close(held)
    let again = try #require(SystemCalls.holdPort(host: "127.0.0.1", port: port))
    SystemCalls.close(again)
  }

  @Test("errors, cores and the local offset read as a person expects")
  func words() {
    #expect(SystemCalls.describeNetworkError(111) == "connection refused")
    #expect(SystemCalls.onlineCores >= 1)
    // No time zone is more than 14 hours from UTC.
    #expect(abs(SystemCalls.localOffsetFromUTC(atEpochSeconds: 1.8e9)) <= 14 * 3600)
  }
}
