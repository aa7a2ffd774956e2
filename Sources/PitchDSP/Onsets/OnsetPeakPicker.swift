/// The causal peak picker of Böck, Krebs and Schedl (ISMIR 2012) with a few frames of
/// look-ahead: frame `n` of a detection function is an onset when it is the maximum of frames
/// `n − preMaximum ... n + lookAhead`, at least `threshold` above the mean of frames
/// `n − preAverage ... n`, above 0, and at least `minimumInterval` frames after the last onset.
///
/// Frame `n` is decided when frame `n + lookAhead` is pushed. Frames before `firstFrame` (the
/// warm-up) are never onsets, count as 0 for the maximum, and are left out of the mean.
/// Memory is allocated in `init`; ``push(_:)`` allocates nothing.
struct OnsetPeakPicker: ~Copyable {
  let lookAhead: Int
  let preMaximum: Int
  let preAverage: Int
  let minimumInterval: Int
  let threshold: Float
  let firstFrame: Int
  private let mask: Int
  private let values: UnsafeMutableBufferPointer<Float>
  /// Frames pushed.
  private(set) var frames = 0
  private var lastOnset = Int.min / 2
  /// The strength of the last frame ``push(_:)`` returned: its margin over the mean, divided by
  /// the threshold.
  private(set) var strength = 0.0

  init(
    lookAhead: Int, preMaximum: Int, preAverage: Int, minimumInterval: Int, threshold: Float, firstFrame: Int
  ) {
    self.lookAhead = lookAhead
    self.preMaximum = preMaximum
    self.preAverage = preAverage
    self.minimumInterval = minimumInterval
    self.threshold = threshold
    self.firstFrame = firstFrame
    var size = 1
    while size < max(preAverage, preMaximum) + lookAhead + 2 { size <<= 1 }
    mask = size - 1
    values = .allocate(capacity: size)
    values.initialize(repeating: 0)
  }

  deinit {
    values.deallocate()
  }

  mutating func reset() {
    values.update(repeating: 0)
    frames = 0
    lastOnset = Int.min / 2
    strength = 0
  }

  /// Pushes the next frame's value; returns the frame decided now if it is an onset, else −1.
  @_noLocks
  mutating func push(_ value: Float) -> Int {
    let newest = frames
    values[newest & mask] = value
    frames += 1
    let n = newest - lookAhead
    guard n >= firstFrame else { return -1 }
    let candidate = values[n & mask]
    guard candidate > 0, n - lastOnset >= minimumInterval else { return -1 }
    for j in max(firstFrame, n - preMaximum)...newest where values[j & mask] > candidate { return -1 }
    let first = max(firstFrame, n - preAverage)
    var sum: Float = 0
    for j in first...n { sum += values[j & mask] }
    let mean = sum / Float(n - first + 1)
    guard candidate >= mean + threshold else { return -1 }
    lastOnset = n
    strength = Double((candidate - mean) / threshold)
    return n
  }
}
