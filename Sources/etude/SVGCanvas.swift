/// The text of one inline SVG element, built shape by shape: coordinates at one decimal, text
/// and tooltips escaped, styling by CSS class (the report's stylesheet) or an explicit fill.
struct SVGCanvas {
  /// The size, in CSS pixels.
  let width: Double
  let height: Double
  /// The shapes so far.
  private(set) var body = ""

  init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  static func number(_ value: Double) -> String { HTMLText.fixed(value, 1) }

  /// `name="value"` pairs, values escaped; empty values are left out.
  static func attributes(_ pairs: [(String, String)]) -> String {
    pairs.filter { !$0.1.isEmpty }.map { " \($0.0)=\"\(HTMLText.escaped($0.1))\"" }.joined()
  }

  /// An element, closed at once or holding a `<title>` tooltip.
  mutating func element(_ name: String, _ pairs: [(String, String)], title: String? = nil) {
    body += "<\(name)\(Self.attributes(pairs))"
    if let title {
      body += "><title>\(HTMLText.escaped(title))</title></\(name)>\n"
    } else {
      body += "/>\n"
    }
  }

  /// A rectangle; a negative width or height is drawn as 0.
  mutating func rect(
    x: Double, y: Double, width: Double, height: Double, class className: String = "", fill: String = "",
    title: String? = nil, data: [(String, String)] = []
  ) {
    element(
      "rect",
      [
        ("x", Self.number(x)), ("y", Self.number(y)), ("width", Self.number(max(0, width))),
        ("height", Self.number(max(0, height))), ("class", className), ("fill", fill),
      ] + data, title: title)
  }

  /// A straight line.
  mutating func line(
    x1: Double, y1: Double, x2: Double, y2: Double, class className: String = "", stroke: String = ""
  ) {
    element(
      "line",
      [
        ("x1", Self.number(x1)), ("y1", Self.number(y1)), ("x2", Self.number(x2)), ("y2", Self.number(y2)),
        ("class", className), ("stroke", stroke),
      ])
  }

  /// A line through `points` (nothing for fewer than two).
  mutating func polyline(_ points: [(x: Double, y: Double)], class className: String) {
    guard points.count >= 2 else { return }
    let list = points.map { Self.number($0.x) + "," + Self.number($0.y) }.joined(separator: " ")
    element("polyline", [("points", list), ("class", className)])
  }

  /// A text label (`anchor`: start, middle or end).
  mutating func text(
    _ string: String, x: Double, y: Double, class className: String = "", anchor: String = ""
  ) {
    body +=
      "<text\(Self.attributes([("x", Self.number(x)), ("y", Self.number(y)), ("class", className), ("text-anchor", anchor)]))>"
      + HTMLText.escaped(string) + "</text>\n"
  }

  /// Opens a group (close it with ``close()``).
  mutating func group(class className: String = "", data: [(String, String)] = [], title: String? = nil) {
    body += "<g\(Self.attributes([("class", className)] + data))>"
    if let title { body += "<title>\(HTMLText.escaped(title))</title>" }
    body += "\n"
  }

  /// Closes the innermost group.
  mutating func close() { body += "</g>\n" }

  /// The `<svg>` element, sized in CSS pixels, with an accessible label.
  func svg(id: String = "", label: String) -> String {
    let size = Self.attributes([
      ("id", id), ("width", Self.number(width)), ("height", Self.number(height)),
      ("viewBox", "0 0 \(Self.number(width)) \(Self.number(height))"), ("role", "img"), ("aria-label", label),
    ])
    return "<svg\(size)>\n" + body + "</svg>\n"
  }
}
