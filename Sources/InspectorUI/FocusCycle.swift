/// Tab and Shift-Tab: the panes in the order of their numbers, round again at either end.
/// One helper for every screen, counting places in the list, never raw values.
extension CaseIterable where Self: Equatable {
  /// The case `step` places on (back when negative), wrapping past either end.
  func cycled(by step: Int) -> Self {
    let all = Array(Self.allCases)
    guard let index = all.firstIndex(of: self) else { return self }
    let count = all.count
    return all[((index + step) % count + count) % count]
  }
}
