import Foundation
import Session
import SessionValues

/// The seeded mutation runner: no libFuzzer needed, so it runs anywhere `swift build` does,
/// CI included.
enum FuzzRunner {
  static func main() {
    var arguments = Array(CommandLine.arguments.dropFirst())
    func option(_ name: String) -> String? {
      guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else {
        return nil
      }
      defer { arguments.removeSubrange(index...(index + 1)) }
      return arguments[index + 1]
    }
    let seconds = option("--seconds").flatMap(Double.init) ?? 10
    let runs = option("--runs").flatMap(Int.init) ?? Int.max
    let seed = option("--seed").flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
    let corpus = option("--write-corpus")
    let replay = option("--replay")
    let names =
      arguments.first == nil || arguments.first == "all"
      ? FuzzTarget.allCases.map(\.rawValue) : [arguments[0]]
    var targets: [FuzzTarget] = []
    for name in names {
      guard let target = FuzzTarget(rawValue: name) else {
        let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(
          Data("unknown target \"\(name)\"; one of: \(known), all\n".utf8))
        exit(2)
      }
      targets.append(target)
    }
    if let corpus {
      writeCorpus(targets, to: corpus)
      return
    }
    if let replay, let target = targets.first {
      guard let data = FileManager.default.contents(atPath: replay) else {
        FileHandle.standardError.write(Data("cannot read \(replay)\n".utf8))
        exit(2)
      }
      target.run(Array(data))
      print("replayed \(replay) on \(target.rawValue): no failure")
      return
    }
    print("seed \(seed) (replay with --seed \(seed))")
    let budget = seconds / Double(targets.count)
    for target in targets {
      let (count, elapsed) = fuzz(target, seed: seed, seconds: budget, runs: runs)
      print(
        "\(target.rawValue): \(count) inputs in \(String(format: "%.1f", elapsed)) s, no failure")
    }
  }

  static func fuzz(_ target: FuzzTarget, seed: UInt64, seconds: Double, runs: Int) -> (Int, Double)
  {
    CrashCapture.install(target: target.rawValue)
    var mutator = Mutator(seed: seed ^ UInt64(target.rawValue.hashValue & 0xFFFF))
    var pool = target.seeds
    let start = Date()
    var count = 0
    for seed in pool {
      CrashCapture.keep(seed)
      target.run(seed)
      count += 1
    }
    while count < runs && Date().timeIntervalSince(start) < seconds {
      let base = pool[mutator.below(pool.count)]
      let other = pool[mutator.below(pool.count)]
      let input = mutator.mutate(base, splicing: other)
      CrashCapture.keep(input)
      target.run(input)
      count += 1
      // Keep some mutants as new bases, so inputs drift away from the seeds over time.
      if mutator.below(16) == 0 {
        if pool.count < 512 { pool.append(input) } else { pool[mutator.below(pool.count)] = input }
      }
    }
    return (count, Date().timeIntervalSince(start))
  }

  /// The seeds as files, one folder per target: libFuzzer's starting corpus.
  static func writeCorpus(_ targets: [FuzzTarget], to folder: String) {
    for target in targets {
      let directory = URL(fileURLWithPath: folder).appendingPathComponent(target.rawValue)
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for (index, seed) in target.seeds.enumerated() {
        try? Data(seed).write(to: directory.appendingPathComponent("seed-\(index)"))
      }
      print("\(directory.path): \(target.seeds.count) seeds")
    }
  }
}
