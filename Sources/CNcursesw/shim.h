// The ncurses API as Swift 6 can use it (DESIGN.md, "ncurses from Swift 6 on Linux").
// SwiftPM drops pkg-config's -D flags, so the wide-character API is switched on here; C
// globals and macros that Swift refuses are reached through small inline functions, and
// every call whose C types differ between platforms goes through one with fixed types.
//
// The header by platform: Linux (and Homebrew's keg on macOS, found through pkg-config)
// installs <ncursesw/curses.h>; macOS's own ncurses (5.7 up to macOS 10.x's SDKs, 6.0 since)
// is <curses.h>, wide API included, with `char *` where ncurses 6 on Linux says `const`, and
// `wint_t` signed where Linux's is unsigned. REGSCOPE_SYSTEM_CURSES picks <curses.h> anywhere:
// docs/testing.md compiles this file against Apple's published headers with it.
#ifndef REGSCOPE_NCURSES_SHIM_H
#define REGSCOPE_NCURSES_SHIM_H

#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#if defined(REGSCOPE_SYSTEM_CURSES) || (defined(__APPLE__) && !__has_include(<ncursesw/curses.h>))
#include <curses.h>
#else
#include <ncursesw/curses.h>
#endif

static inline WINDOW *regscope_stdscr(void) { return stdscr; }
static inline int regscope_lines(void) { return LINES; }
static inline int regscope_cols(void) { return COLS; }
static inline int regscope_colors(void) { return COLORS; }
static inline int regscope_color_pairs(void) { return COLOR_PAIRS; }
static inline void regscope_set_escdelay(int ms) { set_escdelay(ms); }

static inline attr_t regscope_a_normal(void) { return A_NORMAL; }
static inline attr_t regscope_a_bold(void) { return A_BOLD; }
static inline attr_t regscope_a_dim(void) { return A_DIM; }
static inline attr_t regscope_a_reverse(void) { return A_REVERSE; }
static inline attr_t regscope_a_underline(void) { return A_UNDERLINE; }

static inline int regscope_key_resize(void) { return KEY_RESIZE; }
static inline int regscope_key_up(void) { return KEY_UP; }
static inline int regscope_key_down(void) { return KEY_DOWN; }
static inline int regscope_key_left(void) { return KEY_LEFT; }
static inline int regscope_key_right(void) { return KEY_RIGHT; }
static inline int regscope_key_home(void) { return KEY_HOME; }
static inline int regscope_key_end(void) { return KEY_END; }
static inline int regscope_key_ppage(void) { return KEY_PPAGE; }
static inline int regscope_key_npage(void) { return KEY_NPAGE; }
static inline int regscope_key_backspace(void) { return KEY_BACKSPACE; }
static inline int regscope_key_dc(void) { return KEY_DC; }
static inline int regscope_key_btab(void) { return KEY_BTAB; }
static inline int regscope_key_enter(void) { return KEY_ENTER; }
static inline int regscope_key_f(int n) { return KEY_F(n); }
static inline int regscope_ok(void) { return OK; }
static inline int regscope_key_code_yes(void) { return KEY_CODE_YES; }

/// Writes `count` wide characters at (y, x) with the given attributes and color pair.
static inline void regscope_put(int y, int x, const wchar_t *text, int count, attr_t attrs,
                                short pair) {
  attr_set(attrs, pair, NULL);
  mvaddnwstr(y, x, text, count);
}

/// get_wch with the character as an unsigned 32-bit value on every platform.
static inline int regscope_get_wch(unsigned int *out) {
  wint_t value = 0;
  int result = get_wch(&value);
  *out = (unsigned int)value;
  return result;
}

/// newterm, whose first parameter is `char *` in macOS's ncurses and `const char *` in 6.x.
static inline SCREEN *regscope_newterm(const char *type, FILE *out, FILE *in) {
  return newterm((NCURSES_CONST char *)type, out, in);
}

#include <sys/ioctl.h>
#include <langinfo.h>
#include <string.h>

/// The terminal's size from the kernel (ioctl is variadic, which Swift cannot call).
static inline int regscope_window_size(int fd, int *rows, int *cols) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
  *rows = size.ws_row;
  *cols = size.ws_col;
  return 0;
}

/// True when the locale's character set is UTF-8.
static inline int regscope_locale_is_utf8(void) {
  const char *codeset = nl_langinfo(CODESET);
  return codeset != NULL && strcmp(codeset, "UTF-8") == 0;
}
#endif
