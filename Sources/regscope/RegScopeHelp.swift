/// What `regscope --help` says besides the options, which the manual page says too:
/// scripts/manual-page.sh turns the EXAMPLES and EXIT STATUS paragraphs into the page's own
/// sections (RepositoryTests hold the examples to the options that exist).
enum RegScopeHelp {
  static let usage = """
    regscope [--sdk <sdk>] [--config <file>] [--speed <speed>]
    regscope --scenario <name> [--step]
    regscope --receive [--config <file>] [--har <file>] [--qa <plan>]
    regscope --judge <file> | --import-state <dump> | --fleet
    """

  static let discussion = """
    With no options it opens on its embedded default: a simulated device, the local \
    Engagement server in process, a demo app configuration, state under \
    $XDG_STATE_HOME/regscope. Press ? for every key, q to quit.

    It opens instead on a narrated demo (--scenario), on real apps' registrations judged as \
    they arrive (--receive), on a capture (--judge), on a shipped SDK's state dump \
    (--import-state) or on many devices at once (--fleet). regctl is the same engine with no \
    screen, for scripts and CI.

    EXAMPLES:
      regscope --sdk android@8.2.1
      regscope --scenario throttle-coalesces --step
      regscope --receive --config app.json --har session.har
      regscope --receive --qa first-registration
      regscope --judge session.har
      regscope --fleet --fleet-devices 100000

    EXIT STATUS:
      0    you quit (q)
      1    the terminal was lost (the screen is restored, nothing is lost)
      2    it could not start: a file it cannot read, a terminal it cannot drive
      64   a wrong option (the message says which)
      130  a --qa run was stopped before its end (its report is written)
    """
}
