extension Tab {
  /// The Sound Track seed's example, exactly as the seed gives it: the first bar of its "Castle in
  /// the Sky" arrangement (G4 F♯4 G4 G4 B4 on string 1).
  public static let seedExampleText = #"("13",1.5)|("12",0.5)|("13",1)|("13",0.5)|("17",0.5)"#

  /// The tune the demo plays: the opening of Beethoven's "Ode to Joy" (public domain) on the
  /// top two strings at 100 beats per minute, ending on a let-ring C major chord.
  public static let demoTuneText = """
    tempo=100
    ("10",1)|("10",1)|("11",1)|("13",1)|
    ("13",1)|("11",1)|("10",1)|("23",1)|
    ("21",1)|("21",1)|("23",1)|("10",1)|
    ("10",1.5)|("23",0.5)|("23",2)|
    ("10",1)|("10",1)|("11",1)|("13",1)|
    ("13",1)|("11",1)|("10",1)|("23",1)|
    ("21",1)|("21",1)|("23",1)|("10",1)|
    ("23",1.5)|("21",0.5)|("53+42+30+21+10",4,ring)
    """

  /// ``demoTuneText``, parsed.
  public static var demoTune: Tab {
    do { return try Tab(parsing: demoTuneText) } catch { fatalError("the built-in tune does not parse: \(error)") }
  }
}
