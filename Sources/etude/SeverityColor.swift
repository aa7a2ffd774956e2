/// The colour of a severity on the report: green for 0 (correct), yellow halfway, red from
/// ``redAt`` up, interpolated in RGB and written as `#rrggbb`.
struct SeverityColor {
  /// The severity drawn fully red; the report uses a wrong note's, so a wrong or missed note is
  /// red, a late attack (3 of 5 by default) orange and a slightly flat note (1) yellow-green.
  var redAt: Double

  /// The stops: green, yellow, red.
  static let stops: [(red: Double, green: Double, blue: Double)] = [
    (46, 158, 68), (236, 190, 24), (214, 48, 39),
  ]

  /// The colour of `severity` (0 best).
  func hex(_ severity: Double) -> String {
    let t = severity.isFinite ? min(max(severity / max(redAt, 1e-9), 0), 1) : 1
    let (low, high, f) =
      t < 0.5 ? (Self.stops[0], Self.stops[1], t * 2) : (Self.stops[1], Self.stops[2], t * 2 - 1)
    func channel(_ a: Double, _ b: Double) -> String {
      let value = Int((a + (b - a) * f).rounded())
      let digits = Array("0123456789abcdef")
      return String([digits[value / 16], digits[value % 16]])
    }
    return "#" + channel(low.red, high.red) + channel(low.green, high.green) + channel(low.blue, high.blue)
  }
}
