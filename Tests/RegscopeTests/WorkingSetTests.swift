import Foundation
import Testing

@testable import regscope

@Suite("giving back the start's code pages")
struct WorkingSetTests {
  static let sample = """
    55d0c0a00000-55d0c1a7b000 r-xp 00200000 fe:00 5485107                    /opt/app/regscope
    Size:              16876 kB
    Rss:                8848 kB
    Private_Dirty:         0 kB
    55d0c1a7b000-55d0c1b2f000 r--p 01000000 fe:00 5485107                    /opt/app/regscope
    Size:                720 kB
    Rss:                 720 kB
    Private_Dirty:       720 kB
    7f00a0000000-7f00a0100000 r-xp 00000000 fe:00 99     /lib/with a space/libpatched.so
    Rss:                  64 kB
    Private_Dirty:         4 kB
    7f00a1000000-7f00a1100000 rw-p 00000000 00:00 0
    Rss:                 800 kB
    Private_Dirty:       800 kB
    7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0                          [vdso]
    Rss:                   8 kB
    Private_Dirty:         0 kB
    garbage line without a range
    Rss: not-a-number kB
    """

  @Test("only executable file mappings with no private changes are trimmed")
  func whatIsTrimmed() {
    let mappings = WorkingSet.Mapping.parse(Self.sample)
    #expect(mappings.count == 5)
    #expect(
      mappings.map(\.path) == [
        "/opt/app/regscope", "/opt/app/regscope", "/lib/with a space/libpatched.so", "", "[vdso]",
      ])
    #expect(mappings[0].residentKB == 8848 && mappings[1].privateDirtyKB == 720)
    // The code, yes; the relocated read-only data, a patched library, the heap, the vDSO: no.
    #expect(mappings.map(\.isTrimmable) == [true, false, false, false, false])
  }

  @Test("trimming this very process gives pages back, and the code it needs comes back")
  func trimsAndRuns() throws {
    let trimmed = WorkingSet.trimStartupCode()
    #expect(trimmed > 0)
    // Code and tables just unmapped run again: parse, format, decode.
    let again = WorkingSet.Mapping.parse(Self.sample)
    #expect(again.count == 5)
    #expect(try JSONDecoder().decode([Int].self, from: Data("[1,2]".utf8)) == [1, 2])
  }
}
