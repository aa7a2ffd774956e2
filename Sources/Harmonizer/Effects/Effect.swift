/// An audio effect for the ``EffectsRack``: the seam where users plug their own processing in.
///
/// An effect is a value with all its state inside (delay lines, filter state), sized when it is
/// made, that processes mono `Float` samples in place, on blocks of any size. Its parameters are
/// numbered (``parameters`` describes them, in index order) and addressed by name for presets
/// and the command line; a new value is clamped into the parameter's range and glides there over
/// about 20 ms, so turning a knob while audio runs makes no zipper noise and no click.
///
/// ```swift
/// var delay = Delay(sampleRate: 48_000)
/// try delay.setValue(0.3, named: "time")
/// buffer.withUnsafeMutableBufferPointer { delay.process($0) }
/// ```
///
/// Built-in effects: ``Chorus``, ``Overdrive``, ``Delay``, ``Reverb``, ``ADSR``,
/// ``ResonantLowPass`` and ``Volume`` (see ``EffectKind``).
///
/// A conforming type must keep ``process(_:)`` and ``setValue(_:at:)`` real-time safe (no
/// allocation, no locks, no I/O): the rack calls them on the audio thread. NaN or infinite input
/// samples must not poison the state (treat them as 0).
public protocol Effect: Sendable {
  /// The sample rate, in Hz, fixed when the effect is made.
  var sampleRate: Double { get }

  /// How many samples the output lags the input (0 for every built-in effect).
  var latencySamples: Int { get }

  /// How long the output may keep sounding after the input falls silent, in seconds, with the
  /// current parameters (a delay's echoes, a reverb's decay); used to render tails.
  var tailSeconds: Double { get }

  /// The parameters, in index order.
  var parameters: [EffectParameter] { get }

  /// The value a parameter is set to (its target; the sound may still be gliding there).
  ///
  /// - Parameter index: An index into ``parameters`` (a precondition).
  /// - Returns: The value, in the parameter's unit.
  func value(at index: Int) -> Float

  /// Sets a parameter; the value is clamped into its range and reached smoothly.
  ///
  /// - Parameters:
  ///   - value: The new value, in the parameter's unit.
  ///   - index: An index into ``parameters``; others are ignored.
  /// - Note: Real-time safe.
  mutating func setValue(_ value: Float, at index: Int)

  /// Processes a block of mono samples in place.
  ///
  /// - Parameter buffer: Any number of samples.
  /// - Note: Real-time safe.
  mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>)

  /// Forgets the signal so far (clears delay lines and filters); parameters stay, arrived.
  mutating func reset()
}

extension Effect {
  /// The names of the parameters, in index order.
  public var parameterNames: [String] { parameters.map(\.name) }

  /// The index of the parameter called `name`.
  ///
  /// - Parameter name: A parameter name (case-sensitive).
  /// - Returns: Its index in ``parameters``.
  /// - Throws: ``EffectError/unknownParameter(effect:name:valid:)`` listing the valid names.
  public func parameterIndex(named name: String) throws(EffectError) -> Int {
    guard let index = parameters.firstIndex(where: { $0.name == name }) else {
      throw .unknownParameter(effect: String(describing: Self.self), name: name, valid: parameterNames)
    }
    return index
  }

  /// The value of the parameter called `name`.
  ///
  /// - Parameter name: A parameter name.
  /// - Returns: Its value.
  /// - Throws: ``EffectError/unknownParameter(effect:name:valid:)``.
  public func value(named name: String) throws(EffectError) -> Float {
    value(at: try parameterIndex(named: name))
  }

  /// Sets the parameter called `name` (clamped into its range, reached smoothly).
  ///
  /// - Parameters:
  ///   - value: The new value, in the parameter's unit.
  ///   - name: A parameter name.
  /// - Throws: ``EffectError/unknownParameter(effect:name:valid:)``.
  public mutating func setValue(_ value: Float, named name: String) throws(EffectError) {
    setValue(value, at: try parameterIndex(named: name))
  }
}
