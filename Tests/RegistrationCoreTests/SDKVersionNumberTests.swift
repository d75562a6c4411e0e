import RegistrationCore
import Testing

/// SDK versions read in one place: numbers as the SDKs write them, and anything else (huge,
/// negative, not a number, empty, a control character) read as no version, never a trap.
@Suite("SDK version numbers")
struct SDKVersionNumberTests {
  @Test("majors and order")
  func read() {
    #expect(SDKVersionNumber.major("9.0.3") == 9 && SDKVersionNumber.major("11") == 11)
    #expect(SDKVersionNumber.isLater("9.0.10", than: "9.0.9"))
    #expect(!SDKVersionNumber.isLater("8.2.1", than: "9.0.0"))
    #expect(!SDKVersionNumber.isLater("9.0", than: "9.0.0"))
  }

  @Test(
    "what a user or an app may write never traps",
    arguments: ["1e20", "99999999999999999999", "-1", "NaN", "", "\u{1B}[31m", "9..", "."])
  func hostile(text: String) {
    let majors = ["-1": -1, "9..": 9]
    #expect(SDKVersionNumber.major(text) == majors[text])
    _ = SDKVersionNumber.isLater(text, than: "99999999999999999999.1")
    #expect(SDKProfile.android.at(version: text) == nil)
  }
}
