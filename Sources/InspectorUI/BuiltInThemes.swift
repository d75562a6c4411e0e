/// The built-in themes, embedded so the binary works anywhere. `Themes/*.yaml` are the
/// human-editable originals; a test keeps these copies identical to them.
public enum BuiltInThemes {
  public static let all: [(name: String, yaml: String)] = [
    (
      "default",
      #"""
      # RegScope's default theme: 256 colours on a dark background.
      # Keys are semantic roles; colours are 0-255, "#RRGGBB" (shown as the nearest of 256),
      # a name (black red green yellow blue magenta cyan white, bright-*), or default.
      # Attributes: bold, dim, reverse, underline. Missing keys come from this theme.
      name: default
      styles:
        normal:        { fg: 252 }
        dim:           { fg: 244 }
        header:        { fg: 232, bg: 110, bold: true }
        title:         { fg: 110 }
        titleFocused:  { fg: 229, bold: true }
        border:        { fg: 239 }
        borderFocused: { fg: 110 }
        changed:       { fg: 221, bold: true }
        warning:       { fg: 214 }
        error:         { fg: 203, bold: true }
        success:       { fg: 114 }
        accent:        { fg: 110 }
        locked:        { fg: 244 }
        selection:     { fg: 232, bg: 229 }
        keyName:       { fg: 229, bold: true }
        keyHint:       { fg: 246 }
        countdown:     { fg: 229, bold: true }
        input:         { fg: 255, underline: true }
      """#
    ),
    (
      "light",
      #"""
      # For light terminal backgrounds.
      name: light
      styles:
        normal:        { fg: 235 }
        dim:           { fg: 243 }
        header:        { fg: 255, bg: 25, bold: true }
        title:         { fg: 25 }
        titleFocused:  { fg: 88, bold: true }
        border:        { fg: 250 }
        borderFocused: { fg: 25 }
        changed:       { fg: 130, bold: true }
        warning:       { fg: 166 }
        error:         { fg: 160, bold: true }
        success:       { fg: 28 }
        accent:        { fg: 25 }
        locked:        { fg: 243 }
        selection:     { fg: 255, bg: 25 }
        keyName:       { fg: 88, bold: true }
        keyHint:       { fg: 241 }
        countdown:     { fg: 88, bold: true }
        input:         { fg: 232, underline: true }
      """#
    ),
    (
      "high-contrast",
      #"""
      # Maximum contrast: pure black and white with saturated accents.
      name: high-contrast
      styles:
        normal:        { fg: white, bg: black }
        dim:           { fg: bright-white, bg: black }
        header:        { fg: black, bg: bright-yellow, bold: true }
        title:         { fg: bright-cyan, bg: black, bold: true }
        titleFocused:  { fg: black, bg: bright-cyan, bold: true }
        border:        { fg: white, bg: black }
        borderFocused: { fg: bright-yellow, bg: black, bold: true }
        changed:       { fg: bright-yellow, bg: black, bold: true, underline: true }
        warning:       { fg: black, bg: bright-yellow }
        error:         { fg: bright-white, bg: red, bold: true }
        success:       { fg: bright-green, bg: black, bold: true }
        accent:        { fg: bright-cyan, bg: black }
        locked:        { fg: white, bg: black, dim: true }
        selection:     { fg: black, bg: bright-white }
        keyName:       { fg: bright-yellow, bg: black, bold: true }
        keyHint:       { fg: white, bg: black }
        countdown:     { fg: bright-yellow, bg: black, bold: true }
        input:         { fg: bright-white, bg: black, underline: true }
      """#
    ),
    (
      "monochrome",
      #"""
      # No colour at all: bold, dim, reverse and underline only. Used for NO_COLOR and for
      # terminals without colour (TERM=vt100).
      name: monochrome
      styles:
        normal:        {}
        dim:           { dim: true }
        header:        { reverse: true, bold: true }
        title:         { bold: true }
        titleFocused:  { reverse: true, bold: true }
        border:        { dim: true }
        borderFocused: { bold: true }
        changed:       { bold: true, underline: true }
        warning:       { bold: true }
        error:         { reverse: true }
        success:       {}
        accent:        { bold: true }
        locked:        { dim: true }
        selection:     { reverse: true }
        keyName:       { bold: true }
        keyHint:       {}
        countdown:     { bold: true }
        input:         { underline: true }
      """#
    ),
  ]
}
