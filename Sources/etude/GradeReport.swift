import Foundation

/// The HTML report of a graded take.
struct GradeReport {
  let result: GradingResult
  init(_ result: GradingResult) { self.result = result }

  /// The report; not written yet in this step.
  func html() throws -> String {
    throw ValidationErrorMessage("--report is not available yet")
  }
}

struct ValidationErrorMessage: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
