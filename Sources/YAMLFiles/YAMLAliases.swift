/// RegScope's YAML files (scenarios, QA plans, themes) need no anchors or aliases, and an
/// alias can make a file of a few hundred bytes expand (or hash, as a key) exponentially: a
/// reader refuses them before the YAML library composes anything.
public enum YAMLAliases {
  /// Where the first anchor (`&name`) or alias (`*name`) starts a node, as 1-based line and
  /// column; nil when there is none. Quoted text and comments are skipped, and a `*` or `&`
  /// inside a plain value (`say: a *b*`) is text, not an alias.
  public static func firstUse(in text: String) -> (line: Int, column: Int, alias: Bool)? {
    var (line, column) = (1, 0)
    var quote: Character?
    var comment = false
    // At a place where a node may begin: a line's start, after "- ", ": ", "? ", "[", "{", ",".
    var nodeStart = true
    // An indicator ("-", ":", "?") whose meaning depends on the space after it.
    var indicator = false
    var previous: Character = "\n"
    for character in text {
      column += 1
      defer { previous = character }
      if character == "\n" {
        (line, column, comment, indicator) = (line + 1, 0, false, false)
        nodeStart = quote == nil
        continue
      }
      if comment { continue }
      if let open = quote {
        if character == open && previous != "\\" { quote = nil }
        continue
      }
      let blank = character == " " || character == "\t"
      if indicator {
        indicator = false
        if blank {
          nodeStart = true
          continue
        }
      }
      if blank {
        if previous == "\n" { nodeStart = true }
        continue
      }
      if character == "#" && (previous == " " || previous == "\t" || previous == "\n") {
        comment = true
        continue
      }
      if nodeStart && (character == "&" || character == "*") {
        return (line, column, character == "*")
      }
      if nodeStart && (character == "'" || character == "\"") {
        quote = character
        nodeStart = false
        continue
      }
      if character == "[" || character == "{" || character == "," {
        nodeStart = true
        continue
      }
      if character == "-" || character == ":" || character == "?" {
        indicator = true
        nodeStart = false
        continue
      }
      nodeStart = false
    }
    return nil
  }

  /// The error's words, for the file's own reader to place.
  public static func message(alias: Bool) -> String {
    "\(alias ? "an alias (*name)" : "an anchor (&name)") is not accepted in RegScope files: write the value out (aliases can expand a small file without bound)"
  }
}
