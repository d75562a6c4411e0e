/// What went wrong with the store, naming the file. The store never deletes or rewrites a
/// file it cannot read: a reset happens only through `RegistrationStore.moveAside`.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
  case cannotCreate(path: String, reason: String)
  /// The file is there but cannot be opened for reading and writing (its mode, its owner).
  case cannotOpen(path: String, reason: String)
  case corrupt(path: String, detail: String)
  case newerSchema(path: String, version: Int)
  case writeFailed(path: String, reason: String)

  public var description: String {
    switch self {
    case .cannotCreate(let path, let reason):
      "cannot create the state store at \(path): \(reason)"
    case .cannotOpen(let path, let reason):
      "cannot open the state store at \(path): \(reason); it was left untouched. Check its mode and owner (it should be yours, mode 600)"
    case .corrupt(let path, let detail):
      "the state store \(path) is damaged and was left untouched (\(detail)). Move it aside with --reset-state to start afresh, or restore it from a backup"
    case .newerSchema(let path, let version):
      "the state store \(path) was written by a newer RegScope (schema \(version)); it was left untouched"
    case .writeFailed(let path, let reason):
      "could not write to the state store \(path): \(reason); the edit was not applied"
    }
  }
}
