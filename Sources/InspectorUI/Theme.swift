import Foundation
import RegistrationCore
import SessionValues
import YAMLFiles
import Yams

/// A colour as a theme names it.
public enum ThemeColor: Hashable, Sendable {
  case terminalDefault
  /// 0-255 (0-7 basic, 8-15 bright, 16-231 the colour cube, 232-255 greys).
  case index(Int)

  /// The nearest colour a terminal with `colors` colours can show.
  public func degraded(to colors: Int) -> ThemeColor {
    guard case .index(let value) = self else { return self }
    if colors >= 256 || value < colors { return self }
    if colors >= 16 && value < 16 { return self }
    let (r, g, b) = Self.rgb(of: value)
    if colors < 16 { return .index(Self.basicByHue(r, g, b)) }
    var best = 0
    var bestDistance = Int.max
    for candidate in 0..<min(colors, 16) {
      let (cr, cg, cb) = Self.rgb(of: candidate)
      let distance = (r - cr) * (r - cr) + (g - cg) * (g - cg) + (b - cb) * (b - cb)
      if distance < bestDistance {
        best = candidate
        bestDistance = distance
      }
    }
    return .index(best)
  }

  /// The basic colour (0-7) with the same dominant channels: nearest-by-distance picks white
  /// for light green, which reads as the wrong colour. Greys go to white, or black when dark.
  static func basicByHue(_ r: Int, _ g: Int, _ b: Int) -> Int {
    let high = max(r, g, b)
    let low = min(r, g, b)
    if high - low < 40 { return high < 60 ? 0 : 7 }
    let middle = (high + low) / 2
    return (r > middle ? 1 : 0) | (g > middle ? 2 : 0) | (b > middle ? 4 : 0)
  }

  static let basic: [(Int, Int, Int)] = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
    (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
    (255, 0, 255), (0, 255, 255), (255, 255, 255),
  ]

  static func rgb(of index: Int) -> (Int, Int, Int) {
    if index < 16 { return basic[index] }
    if index >= 232 {
      let level = 8 + (index - 232) * 10
      return (level, level, level)
    }
    let cube = index - 16
    let steps = [0, 95, 135, 175, 215, 255]
    return (steps[cube / 36], steps[(cube / 6) % 6], steps[cube % 6])
  }

  /// The nearest of the 256 colours to a truecolour value.
  static func nearest(red: Int, green: Int, blue: Int) -> Int {
    var best = 16
    var bestDistance = Int.max
    for candidate in 16..<256 {
      let (r, g, b) = rgb(of: candidate)
      let distance = (red - r) * (red - r) + (green - g) * (green - g) + (blue - b) * (blue - b)
      if distance < bestDistance {
        best = candidate
        bestDistance = distance
      }
    }
    return best
  }
}

public struct RoleStyle: Hashable, Sendable {
  public var foreground: ThemeColor = .terminalDefault
  public var background: ThemeColor = .terminalDefault
  public var bold = false
  public var dim = false
  public var reverse = false
  public var underline = false

  public init() {}
}

public struct Theme: Sendable, Hashable {
  public var name: String
  public var styles: [StyleRole: RoleStyle]

  public func style(_ role: StyleRole) -> RoleStyle { styles[role] ?? RoleStyle() }

  public static let builtInNames = BuiltInThemes.all.map(\.name)

  /// The default theme; its text is known good, so reading it cannot fail.
  public static var standard: Theme {
    ThemeLoader.builtIn("default")?.theme ?? Theme(name: "default", styles: [:])
  }
}

/// Reads theme files. Problems are reported with the key and line; the theme is still made,
/// with the default's value wherever the file's is missing or wrong.
public enum ThemeLoader {
  public struct Loaded: Sendable {
    public var theme: Theme
    public var problems: [String]
  }

  public static func builtIn(_ name: String) -> Loaded? {
    guard let entry = BuiltInThemes.all.first(where: { $0.name == name }) else { return nil }
    return parse(entry.yaml, source: "theme \(name)", base: nil)
  }

  /// `NAME` of a built-in, or a path to a YAML file.
  public static func load(_ nameOrPath: String) -> Loaded {
    if let builtIn = builtIn(nameOrPath) { return builtIn }
    let text: String
    do {
      text = try YAMLText.read(nameOrPath)
    } catch  where !error.message.hasPrefix("cannot be read") {
      // There, but no theme file: a directory, a device, too large, not UTF-8.
      return Loaded(theme: .standard, problems: ["\(error); using default"])
    } catch {
      var message =
        "theme \"\(nameOrPath)\" is neither a built-in (\(Theme.builtInNames.joined(separator: ", "))) nor a readable file; using default"
      if let nearest = Suggestion.nearest(to: nameOrPath, in: Theme.builtInNames) {
        message += ". Did you mean \"\(nearest)\"?"
      }
      return Loaded(theme: .standard, problems: [message])
    }
    return parse(text, source: nameOrPath, base: .standard)
  }

  public static func parse(_ yaml: String, source: String, base: Theme?) -> Loaded {
    var problems: [String] = []
    var theme = base ?? Theme(name: "default", styles: [:])
    func at(_ node: Node?) -> String { "\(source):\(node?.mark?.line ?? 1)" }
    let root: Node
    if let found = YAMLText.firstUnprintable(in: yaml) {
      return Loaded(
        theme: theme,
        problems: [
          "\(source):\(found.line): holds the control character U+\(found.code); using default"
        ])
    }
    if let use = YAMLAliases.firstUse(in: yaml) {
      return Loaded(
        theme: theme,
        problems: ["\(source):\(use.line): \(YAMLAliases.message(alias: use.alias)); using default"]
      )
    }
    do {
      // Every value is read as text, so no tag needs resolving: the basic resolver spares the
      // default one's regular expressions (ICU's pattern tables and heap) at every start.
      guard let node = try Yams.compose(yaml: yaml, .basic) else {
        return Loaded(theme: theme, problems: ["\(source): empty theme file; using default"])
      }
      root = node
    } catch let error as YamlError {
      var line = 1
      switch error {
      case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
        line = mark.line
      default: break
      }
      return Loaded(theme: theme, problems: ["\(source):\(line): not valid YAML; using default"])
    } catch {
      return Loaded(theme: theme, problems: ["\(source): \(error); using default"])
    }
    guard let mapping = root.mapping else {
      return Loaded(
        theme: theme, problems: ["\(at(root)): a theme is a mapping with name and styles"])
    }
    for (keyNode, value) in mapping {
      switch keyNode.scalar?.string {
      case "name": theme.name = value.scalar?.string ?? theme.name
      case "styles":
        guard let styles = value.mapping else {
          problems.append("\(at(value)): styles must map role names to { fg, bg, bold, ... }")
          continue
        }
        for (roleNode, styleNode) in styles {
          let roleName = roleNode.scalar?.string ?? ""
          guard let role = StyleRole(rawValue: roleName) else {
            problems.append("\(at(roleNode)): unknown key \"\(roleName)\", ignored")
            continue
          }
          switch style(styleNode, role: roleName, at: at) {
          case .success(let parsed): theme.styles[role] = parsed
          case .failure(let problem): problems.append(problem.text)
          }
        }
      default:
        problems.append("\(at(keyNode)): unknown key \"\(keyNode.scalar?.string ?? "?")\", ignored")
      }
    }
    return Loaded(theme: theme, problems: problems)
  }

  struct Problem: Error {
    var text: String
  }

  static func style(_ node: Node, role: String, at: (Node?) -> String) -> Result<RoleStyle, Problem>
  {
    guard let mapping = node.mapping else {
      return .failure(
        Problem(
          text:
            "\(at(node)): key \(role) must be { fg, bg, bold, dim, reverse, underline }; default used"
        ))
    }
    var style = RoleStyle()
    for (keyNode, value) in mapping {
      let key = keyNode.scalar?.string ?? ""
      let text = value.scalar?.string ?? ""
      switch key {
      case "fg", "bg":
        guard let color = color(text) else {
          return .failure(
            Problem(
              text:
                "\(at(value)): key \(role).\(key): \"\(text)\" is not a colour (0-255, #RRGGBB, a name, default); default used"
            ))
        }
        if key == "fg" { style.foreground = color } else { style.background = color }
      case "bold", "dim", "reverse", "underline":
        guard let flag = Bool(text.lowercased()) else {
          return .failure(
            Problem(text: "\(at(value)): key \(role).\(key) must be true or false; default used"))
        }
        switch key {
        case "bold": style.bold = flag
        case "dim": style.dim = flag
        case "reverse": style.reverse = flag
        default: style.underline = flag
        }
      default:
        return .failure(
          Problem(
            text:
              "\(at(keyNode)): key \(role).\(key) is not fg, bg, bold, dim, reverse or underline; default used"
          ))
      }
    }
    return .success(style)
  }

  static let names = [
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
  ]

  static func color(_ text: String) -> ThemeColor? {
    let lowered = text.lowercased()
    if lowered == "default" { return .terminalDefault }
    if let index = Int(lowered), (0...255).contains(index) { return .index(index) }
    if let index = names.firstIndex(of: lowered) { return .index(index) }
    if lowered.hasPrefix("bright-"), let index = names.firstIndex(of: String(lowered.dropFirst(7)))
    {
      return .index(index + 8)
    }
    if lowered.hasPrefix("#"), lowered.count == 7, let value = Int(lowered.dropFirst(), radix: 16) {
      return .index(
        ThemeColor.nearest(red: value >> 16, green: (value >> 8) & 0xFF, blue: value & 0xFF))
    }
    return nil
  }
}
