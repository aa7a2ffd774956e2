/// An exact fraction, for score positions and durations in quarter notes.
///
/// Score time is rational: a triplet eighth lasts 1/3 of a quarter, a quintuplet sixteenth 1/5.
/// Adding such values as `Double` drifts; `Rational` stays exact, and converts to `Double` for
/// seconds. The value is always reduced, with a positive denominator, so equal values compare
/// equal and hash alike.
///
/// ```swift
/// let tripletEighth = Rational(1, 3)
/// tripletEighth + tripletEighth + tripletEighth == 1   // true
/// ```
///
/// Arithmetic traps on `Int` overflow like `Int` does; the values a score produces (numerators and
/// denominators of a few thousand) are far from it.
public struct Rational: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
  ExpressibleByIntegerLiteral
{
  /// The numerator, sign included.
  public let numerator: Int
  /// The denominator, always positive.
  public let denominator: Int

  /// Zero.
  public static let zero = Rational(0)

  /// Creates `numerator / denominator`, reduced.
  ///
  /// - Precondition: `denominator` is not 0 (a programmer error; parsers check first).
  public init(_ numerator: Int, _ denominator: Int = 1) {
    precondition(denominator != 0, "a rational number needs a non-zero denominator")
    let divisor = Self.gcd(numerator.magnitude, denominator.magnitude)
    let sign = denominator < 0 ? -1 : 1
    self.numerator = sign * numerator / Int(divisor)
    self.denominator = sign * denominator / Int(divisor)
  }

  /// Creates a whole number.
  public init(integerLiteral value: Int) { self.init(value) }

  /// The nearest fraction to `value` whose denominator divides `denominator` (rounding half away
  /// from zero), or `nil` when `value` is not finite or too large.
  ///
  /// - Parameters:
  ///   - value: The value, such as beats from a MIDI JSON composition.
  ///   - denominator: The grid, such as 960 ticks per quarter note; positive.
  public init?(approximating value: Double, denominator: Int) {
    precondition(denominator > 0, "the grid needs a positive denominator")
    let scaled = (value * Double(denominator)).rounded()
    guard scaled.isFinite, abs(scaled) < 9.0e15 else { return nil }
    self.init(Int(scaled), denominator)
  }

  /// The value as a `Double`.
  public var doubleValue: Double { Double(numerator) / Double(denominator) }

  /// `true` for whole numbers.
  public var isInteger: Bool { denominator == 1 }

  /// The text form, `3/2` or `2` (whole numbers without a denominator).
  public var description: String { isInteger ? String(numerator) : "\(numerator)/\(denominator)" }

  /// The exact sum, in lowest terms.
  public static func + (a: Rational, b: Rational) -> Rational {
    let divisor = Int(gcd(a.denominator.magnitude, b.denominator.magnitude))
    return Rational(
      a.numerator * (b.denominator / divisor) + b.numerator * (a.denominator / divisor),
      a.denominator / divisor * b.denominator)
  }

  /// The exact difference, in lowest terms.
  public static func - (a: Rational, b: Rational) -> Rational { a + (-b) }

  /// The negation.
  public static prefix func - (a: Rational) -> Rational { Rational(-a.numerator, a.denominator) }

  /// The exact product, in lowest terms (common factors cancelled before multiplying).
  public static func * (a: Rational, b: Rational) -> Rational {
    let ad = Int(gcd(a.numerator.magnitude, b.denominator.magnitude))
    let bd = Int(gcd(b.numerator.magnitude, a.denominator.magnitude))
    return Rational((a.numerator / max(ad, 1)) * (b.numerator / max(bd, 1)), (a.denominator / max(bd, 1)) * (b.denominator / max(ad, 1)))
  }

  /// The exact quotient, in lowest terms.
  ///
  /// - Precondition: `b` is not zero.
  public static func / (a: Rational, b: Rational) -> Rational {
    precondition(b.numerator != 0, "division by zero")
    return a * Rational(b.denominator, b.numerator)
  }

  /// Adds `b` to `a`.
  public static func += (a: inout Rational, b: Rational) { a = a + b }
  /// Subtracts `b` from `a`.
  public static func -= (a: inout Rational, b: Rational) { a = a - b }

  /// Whether `a` is less than `b`, compared exactly.
  public static func < (a: Rational, b: Rational) -> Bool {
    // Cross-multiplication in double width never overflows.
    let left = a.numerator.multipliedFullWidth(by: b.denominator)
    let right = b.numerator.multipliedFullWidth(by: a.denominator)
    return (left.high, left.low) < (right.high, right.low)
  }

  /// Decodes `"3/2"`, `"2"` or a bare integer.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text: String
    do {
      text = try container.decode(String.self)
    } catch DecodingError.typeMismatch {
      // Not text: it must be a whole number (any other type rethrows from here).
      self.init(try container.decode(Int.self))
      return
    }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let n = Int(parts[0]), let d = parts.count == 2 ? Int(parts[1]) : 1, d != 0
    else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected a fraction such as \"3/2\", found \"\(text)\"")
    }
    self.init(n, d)
  }

  /// Encodes as text, `"3/2"` or `"2"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  private static func gcd(_ a: UInt, _ b: UInt) -> UInt {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return max(x, 1)
  }
}
