// Every curses call the inspector makes (Sources/regscope/Terminal.swift), with the Swift
// types it makes them with: type-checked against a header by scripts/macos-shim-check.sh.
// Not built by the package.
import CNcursesw
import Foundation

func probe() {
  setlocale(LC_ALL, "")
  _ = regscope_locale_is_utf8() != 0
  let output: UnsafeMutablePointer<FILE>? = fopen("/dev/null", "w")
  let input: UnsafeMutablePointer<FILE>? = fopen("/dev/null", "r")
  let term: String? = "xterm-256color"
  guard let output, let input, let screen = regscope_newterm(term, output, input) else { return }
  let opaque: OpaquePointer = screen
  set_term(opaque)
  resizeterm(Int32(24), Int32(80))
  raw()
  noecho()
  nonl()
  keypad(regscope_stdscr(), true)
  nodelay(regscope_stdscr(), true)
  regscope_set_escdelay(25)
  typeahead(-1)
  curs_set(0)
  if has_colors() {
    start_color()
    use_default_colors()
    _ = Int(regscope_colors())
  }
  def_prog_mode()
  endwin()
  refresh()
  var value: UInt32 = 0
  let result = regscope_get_wch(&value)
  _ = result == regscope_ok() || result == regscope_key_code_yes()
  _ = Int32(truncatingIfNeeded: value) == regscope_key_resize()
  for code in [
    regscope_key_up(), regscope_key_down(), regscope_key_left(), regscope_key_right(),
    regscope_key_home(), regscope_key_end(), regscope_key_ppage(), regscope_key_npage(),
    regscope_key_backspace(), regscope_key_dc(), regscope_key_btab(), regscope_key_enter(),
    regscope_key_f(Int32(1)),
  ] { _ = code == Int32(0) }
  _ = (Int(regscope_cols()), Int(regscope_lines()), Int(regscope_color_pairs()))
  var rows: Int32 = 0
  var columns: Int32 = 0
  _ = regscope_window_size(1, &rows, &columns)
  var attrs: attr_t = regscope_a_normal()
  attrs |= regscope_a_bold() | regscope_a_dim() | regscope_a_reverse() | regscope_a_underline()
  let pair: Int16 = 1
  init_pair(pair, Int16(-1), Int16(7))
  let line: [wchar_t] = [wchar_t(bitPattern: UInt32(65))]
  regscope_put(Int32(0), Int32(0), line, Int32(line.count), attrs, pair)
  endwin()
  delscreen(opaque)
}
