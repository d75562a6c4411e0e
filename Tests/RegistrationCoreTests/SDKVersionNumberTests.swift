import RegistrationCore
import Testing

/// SDK versions read by one grammar: digits alone in each part, no sign, a bounded length;
/// anything else (huge, signed, not a number, empty, a control character) read as no version,
/// never a trap.
@Suite("SDK version numbers")
struct SDKVersionNumberTests {
  @Test("majors and order")
  func read() {
    #expect(SDKVersionNumber.major("9.0.3") == 9 && SDKVersionNumber.major("11") == 11)
    #expect(SDKVersionNumber.isLater("9.0.10", than: "9.0.9"))
    #expect(!SDKVersionNumber.isLater("8.2.1", than: "9.0.0"))
    #expect(!SDKVersionNumber.isLater("9.0", than: "9.0.0"))
    #expect(SDKVersionNumber.parts("10.0.0") == [10, 0, 0])
    #expect(SDKVersionNumber.parts("999999.0.0.1") == [999_999, 0, 0, 1])
  }

  @Test(
    "what a user or an app may write never traps, and is no version",
    arguments: [
      "1e20", "99999999999999999999", "-1", "NaN", "", "\u{1B}[31m", "9..", ".", "8.-1.0",
      "8.+2.+1", "+8.2.1", "-9.0.0", "8.2.1-beta", " 8.2.1", "8. 2.1", "8.02.1", "8.2.1.0.0",
      "10.00000000000000000001.0", "1000000.0.0", "8..1", "8.2.", ".8.2", "٨.٢.١",
    ])
  func hostile(text: String) {
    #expect(SDKVersionNumber.parts(text) == nil)
    #expect(SDKVersionNumber.major(text) == nil)
    #expect(SDKVersionNumber.triple(text) == nil)
    // Not a version is earlier than every version, and never later than another.
    #expect(!SDKVersionNumber.isLater(text, than: "99999999999999999999.1"))
    #expect(SDKVersionNumber.isLater("8.0.0", than: text))
    #expect(SDKProfile.android.at(version: text) == nil)
    #expect(SDKProfile(loose: "android@\(text)") == nil)
  }

  @Test("--sdk's reading says what a version looks like when the version is not one")
  func sdkOptionProblem() throws {
    #expect(SDKProfile.versionProblem(loose: "android@8.2.1") == nil)
    #expect(SDKProfile(loose: "android@8.2.1")?.spelled == "android@8.2.1")
    for text in ["android@8.-1.0", "android@8.+2.+1", "ios@8.2.1x"] {
      let problem = try #require(SDKProfile.versionProblem(loose: text))
      #expect(problem.contains("is not a version: a version is three whole numbers"), "\(problem)")
      #expect(problem.contains("no sign"))
    }
    #expect(
      SDKProfile.versionProblem(loose: "android@7.0.0")?.contains("not a version read") == true)
    #expect(SDKProfile.versionProblem(loose: "windows") == nil)
  }
}
