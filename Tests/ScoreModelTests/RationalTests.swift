import Foundation
import Testing

@testable import ScoreModel

@Suite struct RationalTests {
  @Test func valuesAreReducedWithAPositiveDenominator() {
    #expect(Rational(6, -8) == Rational(-3, 4))
    #expect(Rational(6, -8).numerator == -3 && Rational(6, -8).denominator == 4)
    #expect(Rational(0, 7) == .zero && Rational(0, 7).denominator == 1)
    #expect(Rational(10, 5).isInteger && Rational(10, 5).description == "2")
  }

  @Test func tupletsAddUpExactly() {
    let triplet = Rational(1, 3)
    #expect(triplet + triplet + triplet == 1)
    let quintuplet = Rational(1, 5)
    var sum = Rational.zero
    for _ in 0..<5 { sum += quintuplet * Rational(1, 2) }
    #expect(sum == Rational(1, 2))
    #expect(Rational(3, 4) - Rational(5, 6) == Rational(-1, 12))
    #expect(Rational(3, 4) / Rational(3, 8) == 2)
    #expect((Rational(7, 3) * Rational(9, 14)).description == "3/2")
  }

  @Test func orderIsExactEvenForLargeTerms() {
    #expect(Rational(1, 3) < Rational(1, 2))
    #expect(Rational(-1, 2) < Rational(-1, 3))
    let big = Rational(Int.max / 3, 7)
    #expect(big < Rational(Int.max / 3 + 1, 7))
    #expect([Rational(5, 4), Rational(1, 8), 1].sorted() == [Rational(1, 8), 1, Rational(5, 4)])
  }

  @Test func approximatingSnapsToTheGrid() {
    #expect(Rational(approximating: 1.0 / 3, denominator: 960) == Rational(1, 3))
    #expect(Rational(approximating: 0.3334, denominator: 12) == Rational(1, 3))
    #expect(Rational(approximating: .nan, denominator: 960) == nil)
    #expect(Rational(approximating: 1e300, denominator: 960) == nil)
    #expect(Rational(7, 2).doubleValue == 3.5)
  }

  @Test func codableAsTextOrWholeNumber() throws {
    let encoded = try JSONEncoder().encode([Rational(3, 2), 4])
    #expect(String(decoding: encoded, as: UTF8.self) == #"["3\/2","4"]"#)
    #expect(try JSONDecoder().decode([Rational].self, from: Data(#"["3/2", 4, "-1/3"]"#.utf8)) == [Rational(3, 2), 4, Rational(-1, 3)])
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([Rational].self, from: Data(#"["1/0"]"#.utf8)) }
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([Rational].self, from: Data(#"["x"]"#.utf8)) }
  }
}
