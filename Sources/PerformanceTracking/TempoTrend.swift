import Foundation

/// The local tempo of a take: at each note, how far the student's neighbouring notes ran from
/// the score, fitted robustly so that early or late notes do not move it.
///
/// A robust local regression (in the manner of Cleveland's LOWESS) of offset (played −
/// expected) against expected time. At each note, a line is fitted to the ``neighbours``
/// nearest linked notes in time — never the note itself — weighted by a tricube of their
/// distance in time and by a robustness weight; its value at the note is the local offset.
/// The robustness weights come from every linked note's own leave-one-out residual: a
/// biweight at six times the residuals' median absolute size (within ``scaleSeconds`` and
/// ``maximumScaleSeconds``), so a
/// note well off the trend counts for nothing in the fit around it. ``iterations`` rounds
/// refine the weights.
///
/// A drifting tempo follows the trend; a note is then early or late *relative to the local
/// tempo* by its own offset minus this one.
///
/// With ``anchorsStart``, the take is taken to start on the score's clock: a point on time
/// (offset 0) at the first note's time joins the fit, like a note played there. Without it
/// the first notes' trend is the line of later notes extrapolated backwards, and a drift (or
/// one early note among the first few) swung it by 40–90 ms, calling notes played on time
/// early or late. A take that starts well off the clock (by more than six times the robust
/// scale, 90 ms by default) keeps its own trend: the anchor is then an outlier, and its
/// robustness weight falls to 0 like any other; a smaller steady offset is drawn towards 0 at
/// the first notes by a fraction of itself (20 ms by about 8 ms at the first note).
public struct TempoTrend: Sendable, Hashable {
  /// The linked notes each local line is fitted to.
  public var neighbours: Int
  /// The smallest robust scale (the residuals' typical size), in seconds.
  public var scaleSeconds: Double
  /// The largest robust scale, in seconds: however many notes are early or late, a note this
  /// far off six times over counts for nothing.
  public var maximumScaleSeconds: Double
  /// The rounds of robustness weighting after the first fit.
  public var iterations: Int
  /// Whether a point on time at the first note anchors the trend (see above).
  public var anchorsStart: Bool

  /// Creates the fit.
  ///
  /// - Parameters:
  ///   - neighbours: Linked notes per local line, at least 2.
  ///   - scaleSeconds: The smallest robust scale, in seconds.
  ///   - maximumScaleSeconds: The largest robust scale, in seconds.
  ///   - iterations: Rounds of robustness weighting, 0...10.
  ///   - anchorsStart: Whether a point on time at the first note anchors the trend.
  public init(
    neighbours: Int = 10, scaleSeconds: Double = 0.008, maximumScaleSeconds: Double = 0.015, iterations: Int = 3,
    anchorsStart: Bool = true
  ) {
    self.neighbours = max(2, neighbours)
    self.scaleSeconds = scaleSeconds
    self.maximumScaleSeconds = max(scaleSeconds, maximumScaleSeconds)
    self.iterations = min(10, max(0, iterations))
    self.anchorsStart = anchorsStart
  }

  /// The local offset at each note.
  ///
  /// - Parameters:
  ///   - times: Each note's expected time, in order.
  ///   - offsets: Each note's offset (played − expected), or `nil` when it was not played.
  /// - Returns: For each note, the local offset of its neighbours (0 when none was played;
  ///   without the anchor, the note's own offset when it is the only one).
  /// - Complexity: O(notes · (neighbours + log notes) · iterations).
  public func localOffsets(times: [Double], offsets: [Double?]) -> [Double] {
    guard anchorsStart, let first = times.first else { return fittedOffsets(times: times, offsets: offsets) }
    return Array(fittedOffsets(times: [first] + times, offsets: [0] + offsets).dropFirst())
  }

  /// ``localOffsets(times:offsets:)`` of the given points alone (no anchor).
  func fittedOffsets(times: [Double], offsets: [Double?]) -> [Double] {
    let linked = offsets.indices.filter { offsets[$0] != nil }
    guard linked.count >= 2 else {
      let only = linked.first.flatMap { offsets[$0] } ?? 0
      return [Double](repeating: only, count: times.count)
    }
    let x = linked.map { times[$0] }
    let y = linked.map { offsets[$0]! }
    var robustness = [Double](repeating: 1, count: linked.count)
    for _ in 0..<iterations {
      let residuals = linked.indices.map { k in abs(y[k] - fit(at: x[k], excluding: k, x: x, y: y, robustness: robustness)) }
      let scale = 6 * min(maximumScaleSeconds, max(scaleSeconds, Self.median(residuals)))
      robustness = residuals.map { r in
        let u = r / scale
        return u < 1 ? (1 - u * u) * (1 - u * u) : 0
      }
    }
    return times.indices.map { i in
      let own = linked.partitioningIndex { $0 >= i }
      let excluded = own < linked.count && linked[own] == i ? own : nil
      return fit(at: times[i], excluding: excluded, x: x, y: y, robustness: robustness)
    }
  }

  /// The local line's value at `time`, fitted to the nearest linked notes but `excluding`.
  func fit(at time: Double, excluding: Int?, x: [Double], y: [Double], robustness: [Double]) -> Double {
    // The nearest notes in time: grow a window outward from where `time` falls.
    var low = x.partitioningIndex { $0 >= time }
    var high = low
    var chosen: [Int] = []
    chosen.reserveCapacity(neighbours)
    while chosen.count < neighbours, low > 0 || high < x.count {
      let takeLow = low > 0 && (high >= x.count || time - x[low - 1] <= x[high] - time)
      let k = takeLow ? low - 1 : high
      if takeLow { low -= 1 } else { high += 1 }
      if k != excluding { chosen.append(k) }
    }
    guard !chosen.isEmpty else { return excluding.map { y[$0] } ?? 0 }
    let reach = chosen.map { abs(x[$0] - time) }.max()! * 1.001 + 1e-6
    var sw = 0.0
    var sx = 0.0
    var sy = 0.0
    var sxx = 0.0
    var sxy = 0.0
    for k in chosen {
      let d = abs(x[k] - time) / reach
      let tricube = pow(1 - d * d * d, 3)
      let w = tricube * robustness[k]
      let dx = x[k] - time
      sw += w
      sx += w * dx
      sy += w * y[k]
      sxx += w * dx * dx
      sxy += w * dx * y[k]
    }
    guard sw > 1e-12 else { return Self.median(chosen.map { y[$0] }) }
    let denominator = sw * sxx - sx * sx
    // Too few weighted points spread in time for a slope: the weighted mean.
    guard denominator > 1e-9 * sw * sw else { return sy / sw }
    let slope = (sw * sxy - sx * sy) / denominator
    return (sy - slope * sx) / sw
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
