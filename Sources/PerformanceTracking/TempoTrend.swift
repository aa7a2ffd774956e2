/// The local tempo of a take: at each note, how far the student's neighbouring notes ran from
/// the score, fitted robustly so that a single early or late note does not move it.
///
/// For each note the fit takes up to ``neighbours`` linked notes on each side (not the note
/// itself), weights them by a Tukey biweight on their distance from the neighbours' median
/// (scale ``scaleSeconds`` or the spread, whichever is larger), and fits a weighted line of
/// offset against expected time: its value at the note is the local offset. A drifting tempo
/// follows the line; a note is then early or late *relative to the local tempo* by its own
/// offset minus this one.
public struct TempoTrend: Sendable, Hashable {
  /// The linked notes on each side used at each note.
  public var neighbours: Int
  /// The smallest scale of the robust weights, in seconds.
  public var scaleSeconds: Double

  /// Creates the fit.
  ///
  /// - Parameters:
  ///   - neighbours: Linked notes on each side, at least 1.
  ///   - scaleSeconds: The smallest robust scale, in seconds.
  public init(neighbours: Int = 4, scaleSeconds: Double = 0.03) {
    self.neighbours = max(1, neighbours)
    self.scaleSeconds = scaleSeconds
  }

  /// The local offset at each note.
  ///
  /// - Parameters:
  ///   - times: Each note's expected time, in order.
  ///   - offsets: Each note's offset (played − expected), or `nil` when it was not played.
  /// - Returns: For each note, the local offset of its neighbours (0 when none was played).
  public func localOffsets(times: [Double], offsets: [Double?]) -> [Double] {
    let linked = offsets.indices.filter { offsets[$0] != nil }
    guard !linked.isEmpty else { return [Double](repeating: 0, count: times.count) }
    return times.indices.map { i in
      // The linked notes before and after i, nearest first.
      let split = linked.partitioningIndex { $0 >= i }
      var chosen: [Int] = []
      var k = split - 1
      while k >= 0, chosen.count < neighbours {
        chosen.append(linked[k])
        k -= 1
      }
      var after = split
      var taken = 0
      while after < linked.count, taken < neighbours {
        if linked[after] != i {
          chosen.append(linked[after])
          taken += 1
        }
        after += 1
      }
      guard !chosen.isEmpty else { return offsets[i] ?? 0 }
      let values = chosen.map { offsets[$0]! }
      let median = Self.median(values)
      let spread = Self.median(values.map { abs($0 - median) }) * 1.4826
      let c = 4.685 * max(scaleSeconds, spread)
      var weights = values.map { v -> Double in
        let u = (v - median) / c
        return abs(u) < 1 ? (1 - u * u) * (1 - u * u) : 0
      }
      if weights.allSatisfy({ $0 == 0 }) { weights = values.map { $0 == median ? 1 : 0 } }
      // Weighted line through (time − t_i, offset): its intercept.
      var sw = 0.0
      var sx = 0.0
      var sy = 0.0
      var sxx = 0.0
      var sxy = 0.0
      for (index, note) in chosen.enumerated() {
        let w = weights[index]
        let x = times[note] - times[i]
        sw += w
        sx += w * x
        sy += w * values[index]
        sxx += w * x * x
        sxy += w * x * values[index]
      }
      guard sw > 0 else { return median }
      let denominator = sw * sxx - sx * sx
      // Too few points spread in time for a slope: the weighted mean.
      guard denominator > 1e-9 * sw * sw, chosen.count >= 3 else { return sy / sw }
      let slope = (sw * sxy - sx * sy) / denominator
      return (sy - slope * sx) / sw
    }
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
