import Foundation
import SystemCalls
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The one way RegScope replaces a file it writes: no fixed temporary name, nothing planted
/// followed, devices and pipes written in place, a second writer refused.
@Suite("writing a file RegScope owns")
struct ReplaceFileTests {
  func folder() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("replace-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test("a symlink planted at PATH.partial is neither followed nor overwritten")
  func plantedLink() throws {
    let dir = try folder()
    let victim = dir + "/victim"
    try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: dir + "/out.har.partial", withDestinationPath: victim)
    #expect(SystemCalls.replaceFile(dir + "/out.har", with: Array("new".utf8)) == nil)
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    #expect(try String(contentsOfFile: dir + "/out.har", encoding: .utf8) == "new")
    let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/out.har")
    #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o777 == 0o600)
    // No temporary is left beside it.
    let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    #expect(left == ["out.har", "out.har.partial", "victim"])
  }

  @Test("a pipe is written in place and stays a pipe")
  func pipe() throws {
    let dir = try folder()
    let fifo = dir + "/capture.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    #expect(SystemCalls.replaceFile(fifo, with: Array("through".utf8)) == nil)
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = read(reader, &bytes, bytes.count)
    #expect(String(decoding: bytes.prefix(max(0, count)), as: UTF8.self) == "through")
    var status = stat()
    #expect(lstat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
  }

  @Test("a link to a pipe (as /dev/stdout is) is written through, and stays a link")
  func linkToPipe() throws {
    let dir = try folder()
    let fifo = dir + "/out.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    try FileManager.default.createSymbolicLink(atPath: dir + "/stdout", withDestinationPath: fifo)
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(reader) }
    #expect(SystemCalls.replaceFile(dir + "/stdout", with: Array("via link".utf8)) == nil)
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = read(reader, &bytes, bytes.count)
    #expect(String(decoding: bytes.prefix(max(0, count)), as: UTF8.self) == "via link")
    var status = stat()
    #expect(lstat(dir + "/stdout", &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK)
  }

  @Test("a second writer of the same path is refused while the first holds it")
  func secondWriter() throws {
    let path = try folder() + "/shared.har"
    let first = try SystemCalls.lockForWriting(path).get()
    guard case .failure(let failure) = SystemCalls.lockForWriting(path) else {
      Issue.record("the second writer was let in")
      return
    }
    #expect(failure.description == "another RegScope is writing it")
    SystemCalls.unlock(first, path: path)
    let again = try SystemCalls.lockForWriting(path).get()
    SystemCalls.unlock(again, path: path)
  }
}
