import ArgumentParser

/// pyin-live's look-ahead, shared by the commands that track pitch.
struct LookAheadOptions: ParsableArguments {
  @Option(
    help: """
      pyin-live only: how long after a frame its pitch is decided, in milliseconds, rounded to \
      whole hops (1...64). Longer look-ahead decides note starts better and reports later.
      """)
  var lookAheadMs: Double = 80

  /// The look-ahead in hops of `hopSeconds`.
  ///
  /// - Throws: `ValidationError` when it rounds to fewer than 1 or more than 64 hops.
  func frames(hopSeconds: Double) throws -> Int {
    let frames = (lookAheadMs / 1000 / hopSeconds).rounded()
    guard frames.isFinite, (1...64).contains(frames) else {
      throw ValidationError("--look-ahead-ms must be 1...64 hops (\(hopSeconds * 1000) ms each)")
    }
    return Int(frames)
  }
}
