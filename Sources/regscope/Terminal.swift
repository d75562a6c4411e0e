import CNcursesw
import Foundation
import InspectorUI
import Session
import SessionValues
import SystemCalls

/// The ncurses backend: the only code that talks to curses. It writes the cells of a frame
/// that changed since the last one, decodes keys, and maps theme roles to colours.
final class Terminal {
  private let screen: OpaquePointer
  private(set) var colors: Int
  private var styles: [StyleRole: (attrs: attr_t, pair: Int16)] = [:]
  /// The frame on the screen now, for drawing only what changed.
  private var shown: CellBuffer?
  private var line: [wchar_t] = []
  let utf8: Bool

  struct StartError: Error, CustomStringConvertible {
    var description: String
  }

  /// Starts curses on the terminal (or, headless, on /dev/null at a given size).
  init(headless: (width: Int, height: Int)? = nil) throws {
    setlocale(LC_ALL, "")
    utf8 = regscope_locale_is_utf8() != 0
    let term = ProcessInfo.processInfo.environment["TERM"].flatMap { $0.isEmpty ? nil : $0 }
    let output: UnsafeMutablePointer<FILE>?
    let input: UnsafeMutablePointer<FILE>?
    if headless != nil {
      output = fopen("/dev/null", "w")
      input = fopen("/dev/null", "r")
    } else {
      output = fdopen(1, "w")
      input = fdopen(0, "r")
    }
    // newterm, unlike initscr, reports an unknown TERM instead of exiting the process.
    guard let output, let input,
      let screen = regscope_newterm(headless != nil ? "xterm-256color" : term, output, input)
    else {
      throw StartError(
        description:
          "cannot start the terminal UI: TERM=\(term ?? "(unset)") is not a terminal type this system knows (try TERM=xterm-256color)"
      )
    }
    self.screen = screen
    set_term(screen)
    if let headless { resizeterm(Int32(headless.height), Int32(headless.width)) }
    raw()
    noecho()
    nonl()
    keypad(regscope_stdscr(), true)
    nodelay(regscope_stdscr(), true)
    regscope_set_escdelay(25)
    // Keys are read when poll() says so; curses need not poll for them on every refresh.
    typeahead(-1)
    curs_set(0)
    colors = 0
    if has_colors() {
      start_color()
      use_default_colors()
      colors = Int(regscope_colors())
    }
    // ncurses flushes its output after every cursor move until the screen has once come back
    // from endwin() (`_nc_mvcur` checks `_endwin == ewInitial`): a tick would cost a write(2)
    // per changed run. Leaving and resuming once, before anything is drawn, makes a refresh
    // one write.
    if headless == nil {
      def_prog_mode()
      endwin()
      refresh()
    }
    // ncurses turns the keypad's application mode on (smkx) in its first read, not in
    // `keypad`: until then an arrow comes as ESC [ B, which the key table does not know, and
    // the user's first arrow would be taken for Escape. A read that finds nothing sends it.
    var nothing: UInt32 = 0
    _ = regscope_get_wch(&nothing)
  }

  var size: (width: Int, height: Int) { (Int(regscope_cols()), Int(regscope_lines())) }

  /// After SIGWINCH: asks the kernel for the size and tells curses.
  func refreshSize() -> (width: Int, height: Int) {
    shown = nil
    var rows: Int32 = 0
    var columns: Int32 = 0
    if regscope_window_size(1, &rows, &columns) == 0, rows > 0, columns > 0 {
      resizeterm(rows, columns)
    }
    return size
  }

  /// Colours for every role. Monochrome when NO_COLOR is set or the terminal has none.
  func apply(_ theme: Theme, monochrome: Bool) {
    let colorless = monochrome || colors < 8
    let effective = colorless ? (ThemeLoader.builtIn("monochrome")?.theme ?? theme) : theme
    styles = [:]
    shown = nil
    for (index, role) in StyleRole.allCases.enumerated() {
      let style = effective.style(role)
      var attrs = regscope_a_normal()
      if style.bold { attrs |= regscope_a_bold() }
      if style.dim { attrs |= regscope_a_dim() }
      if style.reverse { attrs |= regscope_a_reverse() }
      if style.underline { attrs |= regscope_a_underline() }
      var pair: Int16 = 0
      if !colorless {
        pair = Int16(index + 1)
        init_pair(pair, colorNumber(style.foreground), colorNumber(style.background))
      }
      styles[role] = (attrs, pair)
    }
  }

  private func colorNumber(_ color: ThemeColor) -> Int16 {
    switch color.degraded(to: colors) {
    case .terminalDefault: -1
    case .index(let value): Int16(value)
    }
  }

  /// Writes to the screen only the cells that differ from the frame drawn before, one run of
  /// changed, same-styled cells at a time (ratatui's backend does the same). The whole frame
  /// goes out after a resize or a theme change. Returns how many cells were written.
  @discardableResult
  func draw(_ buffer: CellBuffer) -> Int {
    let written = write(buffer.changes(since: shown))
    shown = buffer
    return written
  }

  /// Lets `paint` change the frame on the screen in place and writes the runs it reports
  /// (a clock tick: no frame copied, no cell compared twice). Nil when nothing is shown or
  /// `paint` declines, which leaves the frame as it was.
  func redraw(_ paint: (inout CellBuffer) -> [CellRun]?) -> Int? {
    guard var frame = shown else { return nil }
    shown = nil  // so `frame` is the cells' only owner while it is painted
    defer { shown = frame }
    return paint(&frame).map(write)
  }

  private func write(_ runs: [CellRun]) -> Int {
    var written = 0
    for run in runs {
      line.removeAll(keepingCapacity: true)
      for scalar in run.text.unicodeScalars { line.append(wchar_t(bitPattern: scalar.value)) }
      let style = styles[run.role] ?? (regscope_a_normal(), 0)
      regscope_put(Int32(run.y), Int32(run.x), line, Int32(line.count), style.attrs, style.pair)
      written += run.width
    }
    if !runs.isEmpty { refresh() }
    return written
  }

  /// The next frame is drawn whole (measurements, and after anything that may have
  /// disturbed the screen).
  func forgetScreen() { shown = nil }

  /// Every key waiting, decoded. Never blocks.
  func readKeys() -> (keys: [Key], resized: Bool) {
    var keys: [Key] = []
    var resized = false
    var value: UInt32 = 0
    while true {
      let result = regscope_get_wch(&value)
      if result == regscope_ok() {
        keys.append(Self.decode(character: value))
      } else if result == regscope_key_code_yes() {
        if Int32(truncatingIfNeeded: value) == regscope_key_resize() {
          resized = true
        } else if let key = Self.decode(function: Int32(truncatingIfNeeded: value)) {
          keys.append(key)
        }
      } else {
        break
      }
    }
    return (keys, resized)
  }

  static func decode(character value: UInt32) -> Key {
    switch value {
    case 10, 13: return .enter
    case 27: return .escape
    case 9: return .tab
    case 8, 127: return .backspace
    case 1...26: return .control(Character(Unicode.Scalar(value + 96) ?? "?"))
    default:
      guard let scalar = Unicode.Scalar(value) else { return .character("?") }
      return .character(Character(scalar))
    }
  }

  static func decode(function code: Int32) -> Key? {
    switch code {
    case regscope_key_up(): .up
    case regscope_key_down(): .down
    case regscope_key_left(): .left
    case regscope_key_right(): .right
    case regscope_key_home(): .home
    case regscope_key_end(): .end
    case regscope_key_ppage(): .pageUp
    case regscope_key_npage(): .pageDown
    case regscope_key_backspace(): .backspace
    case regscope_key_dc(): .delete
    case regscope_key_btab(): .backTab
    case regscope_key_enter(): .enter
    default:
      (1...12).first { regscope_key_f(Int32($0)) == code }.map(Key.function)
    }
  }

  /// Why standard input is closed (EOF) or failing (EIO), or nil when it is a live terminal.
  /// Asked when poll() said it was readable but curses found no key in it.
  func inputClosed() -> String? {
    SystemCalls.standardInputEnded()
  }

  /// Gives the terminal back as it was.
  func stop() {
    endwin()
    delscreen(screen)
  }
}
