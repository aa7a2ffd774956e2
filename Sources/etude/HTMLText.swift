import Foundation

/// Text for the HTML report: escaping for element content and attribute values, and numbers in
/// fixed formats that do not depend on the locale (a point as the decimal separator, never
/// `-0`), so that the same take always gives the same bytes.
enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references: safe inside an
  /// element and inside a quoted attribute value.
  static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }

  /// `value` rounded half away from zero to `digits` decimals (`fixed(2.345, 2)` is `2.35`,
  /// `fixed(-0.01, 1)` is `0.0`); `–` when it is not finite.
  static func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "–" }
    let scale = pow(10, Double(digits))
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return value < 0 ? "-∞" : "∞" }
    let units = UInt64(scaled)
    let whole = units / UInt64(scale)
    let sign = value < 0 && units != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let fraction = String(units % UInt64(scale))
    return sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
  }

  /// `value` like ``fixed(_:_:)`` with a `+` before positive values (`+12.0`, `-3.5`, `0.0`).
  static func signed(_ value: Double, _ digits: Int) -> String {
    let text = fixed(value, digits)
    return value > 0 && text.contains(where: { $0 != "0" && $0 != "." }) ? "+" + text : text
  }

  /// A rating's or category's lowerCamelCase name as words: `aBitLate` is `a bit late`,
  /// `soundDuringRest` is `sound during rest`.
  static func words(_ name: String) -> String {
    var out = ""
    for character in name {
      if character.isUppercase {
        out += " " + character.lowercased()
      } else {
        out.append(character)
      }
    }
    return out
  }
}
