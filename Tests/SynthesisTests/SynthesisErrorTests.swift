import Testing

@testable import Synthesis

@Suite struct SynthesisErrorTests {
  @Test func tabSyntaxNamesTheColumnAndWhatWasExpected() {
    let error = SynthesisError.tabSyntax(column: 7, expected: "a fret digit", found: "\"x\"")
    #expect(error.description == "tab, column 7: expected a fret digit, found \"x\"")
  }

  @Test func presetNotFoundNamesBankAndProgram() {
    #expect(SynthesisError.presetNotFound(bank: 128, program: 0).description.contains("bank 128, program 0"))
  }
}
