import Foundation
import Session
import SessionValues

#if canImport(Glibc)
  import Glibc
#endif

// Two ways to run the same targets:
// - built with `-Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address`, libFuzzer drives
//   `fuzzOne` (Benchmarks/fuzz.sh); the target comes from REGSCOPE_FUZZ_TARGET;
// - built plainly, this is a seeded mutation runner:
//   `regscope-fuzz TARGET|all [--seconds S] [--runs N] [--seed S] [--write-corpus DIR]`.

enum FuzzFailure {
  /// A broken property: the input is written out like a crash's, then the process stops.
  static func report(_ message: String) {
    FileHandle.standardError.write(Data("property broken: \(message)\n".utf8))
    CrashCapture.save()
    exit(3)
  }
}

#if FUZZING
  /// libFuzzer's driver, from the runtime `-sanitize=fuzzer` links. SwiftPM names the
  /// executable's entry point itself, so libFuzzer's own `main` is not used: this one hands
  /// the command line to the driver.
  @_silgen_name("LLVMFuzzerRunDriver")
  func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  @main
  enum FuzzMain {
    static func main() {
      var argc = CommandLine.argc
      var argv = CommandLine.unsafeArgv
      exit(runFuzzerDriver(&argc, &argv, fuzzOne))
    }
  }

  /// libFuzzer's runtime refers to this name even when the driver is given the callback.
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let name = ProcessInfo.processInfo.environment["REGSCOPE_FUZZ_TARGET"] ?? "scenario"
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget(rawValue: name)?.run(input)
    return 0
  }
#else
  @main
  enum FuzzMain {
    static func main() { FuzzRunner.main() }
  }
#endif
