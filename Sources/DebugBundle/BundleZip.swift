import Foundation
import RegistrationCore
import ZIPFoundation

/// The zip itself, through ZIPFoundation, in memory: written whole, then handed to the one
/// writer (`BundleTarget`); read back bounded, entry by entry.
enum BundleZip {
  static func zip(_ entries: [(path: String, bytes: [UInt8])], date: Date) throws(BundleError)
    -> [UInt8]
  {
    do {
      let archive = try Archive(accessMode: .create)
      for entry in entries {
        let data = Data(entry.bytes)
        try archive.addEntry(
          with: entry.path, type: .file, uncompressedSize: Int64(data.count),
          modificationDate: date, permissions: 0o644, compressionMethod: .deflate
        ) { position, size in
          data.subdata(in: Int(position)..<Int(position) + size)
        }
      }
      guard let data = archive.data else {
        throw BundleError(.input, "the zip could not be made in memory")
      }
      return Array(data)
    } catch let error as BundleError {
      throw error
    } catch {
      throw BundleError(.input, "the zip could not be made (\(error))")
    }
  }

  /// Every file of the zip at `path`, refused past `DebugBundle.largestBytes` unpacked
  /// (counted as it is inflated, whatever the entries claim) or `largestFileCount` files, or
  /// with a path that climbs out (`..`, `/`). Read from the file, never from memory:
  /// ZIPFoundation's in-memory reader traps on a zip whose offsets point past its end (found
  /// by the `bundle` fuzz target), where a file's reads only come back short.
  static func unzip(path: String, name: String) throws(BundleError) -> [String: [UInt8]] {
    let archive: Archive
    do {
      archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    } catch {
      throw BundleError(
        .notABundle, "\(TerminalText.escaped(name)) is not a zip file RegScope can read")
    }
    var files: [String: [UInt8]] = [:]
    var total = 0
    var count = 0
    for entry in archive where entry.type == .file {
      count += 1
      let path = entry.path
      guard count <= DebugBundle.largestFileCount,
        !path.hasPrefix("/"), !path.split(separator: "/").contains("..")
      else {
        throw BundleError(
          .notABundle,
          "\(TerminalText.escaped(name)): entry \(TerminalText.escaped(path)) is not one a RegScope bundle holds"
        )
      }
      var content: [UInt8] = []
      do {
        _ = try archive.extract(entry, skipCRC32: false) { chunk in
          total += chunk.count
          guard total <= DebugBundle.largestBytes else { throw Unpacked.tooLarge }
          content += chunk
        }
      } catch Unpacked.tooLarge {
        throw BundleError(
          .tooLarge,
          "\(TerminalText.escaped(name)) unpacks to more than the \(DebugBundle.largestSaid) a bundle holds"
        )
      } catch {
        throw BundleError(
          .notABundle,
          "\(TerminalText.escaped(name)): entry \(TerminalText.escaped(path)) cannot be read (\(error))"
        )
      }
      files[path] = content
    }
    return files
  }

  private enum Unpacked: Error { case tooLarge }
}
