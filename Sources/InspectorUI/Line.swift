/// Text in one style: the unit panes build their lines from (ratatui's Span).
public typealias Span = (String, StyleRole)

/// One line of a pane: spans side by side, drawn by `Canvas.line`, cut with an ellipsis when
/// it does not fit (ratatui's Line).
public typealias Line = [Span]
