import Foundation
import PerformanceAnalysis

/// Which help video to show for a rating: a JSON catalog of video ids per rating, rotated so
/// that the same video does not play twice in a row, with an alert text when a rating has no
/// video.
///
/// The JSON: `{"videos": {"aBitSharp": ["vid-sharp-1", "vid-sharp-2"]}, "alerts": {"missed":
/// "Play every note."}}`; both objects are optional. Ratings without an alert of their own get a
/// built-in sentence (``defaultAlert(for:)``).
public struct HelpVideoCatalog: Sendable, Hashable, Codable {
  /// Video ids per rating name.
  public var videos: [String: [String]]
  /// Alert texts per rating name.
  public var alerts: [String: String]
  /// The last video given per rating (the rotation's state).
  public private(set) var lastGiven: [String: Int] = [:]

  enum CodingKeys: String, CodingKey {
    case videos, alerts
  }

  /// Creates a catalog.
  ///
  /// - Parameters:
  ///   - videos: Video ids per rating name.
  ///   - alerts: Alert texts per rating name.
  public init(videos: [String: [String]] = [:], alerts: [String: String] = [:]) {
    self.videos = videos
    self.alerts = alerts
  }

  /// Reads a catalog; both fields are optional.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    videos = try container.decodeIfPresent([String: [String]].self, forKey: .videos) ?? [:]
    alerts = try container.decodeIfPresent([String: String].self, forKey: .alerts) ?? [:]
  }

  /// Reads a catalog from JSON.
  ///
  /// - Throws: ``PerformanceAnalysisError/invalidJSON(reason:)`` with the decoder's reason.
  public init(json: Data) throws(PerformanceAnalysisError) {
    do {
      self = try JSONDecoder().decode(HelpVideoCatalog.self, from: json)
    } catch {
      throw .invalidJSON(reason: "help-video catalog: \(error)")
    }
  }

  /// The next video for a rating: the one after the last given (so two in a row differ when
  /// there are two or more different ones; a video listed twice is passed over where it would
  /// come again), or `nil` when the rating has none.
  public mutating func nextVideo(for rating: Rating) -> String? {
    guard let list = videos[rating.rawValue], !list.isEmpty else { return nil }
    let last = lastGiven[rating.rawValue]
    var next = ((last ?? -1) + 1) % list.count
    if let last, list.indices.contains(last) {
      var steps = 1
      while list[next] == list[last], steps < list.count {
        next = (next + 1) % list.count
        steps += 1
      }
    }
    lastGiven[rating.rawValue] = next
    return list[next]
  }

  /// The alert text for a rating: the catalog's, else the built-in one.
  public func alert(for rating: Rating) -> String {
    alerts[rating.rawValue] ?? Self.defaultAlert(for: rating)
  }

  /// A built-in sentence for each built-in rating.
  public static func defaultAlert(for rating: Rating) -> String {
    switch rating {
    case .correct: "Well played."
    case .aBitEarly: "You came in a little early: wait for the beat."
    case .veryEarly: "You came in much too early: count the rests and wait for the beat."
    case .aBitLate: "You came in a little late: be ready before the beat."
    case .veryLate: "You came in much too late: prepare the note while counting."
    case .aBitShort, .veryShort, .tooShort: "Hold the note for its full value."
    case .aBitLong, .veryLong, .tooLong: "Release the note on time: count its value."
    case .aBitFlat: "A little flat: lift the pitch."
    case .veryFlat: "Very flat: listen and bring the pitch up."
    case .aBitSharp: "A little sharp: relax the pitch down."
    case .verySharp: "Very sharp: listen and bring the pitch down."
    case .wrongNote: "A wrong note: check the fingering and the key signature."
    case .octave: "The right note in the wrong octave."
    case .upperPartial: "You hit a higher partial of the same fingering: less air pressure, a more open embouchure."
    case .lowerPartial: "You hit a lower partial of the same fingering: more air support, a firmer embouchure."
    case .wavering: "The pitch wavered: keep the air steady."
    case .missed: "This note was not played."
    case .soundDuringRest: "There was sound during a rest: stop on time and count the rest."
    default: "Look at this note again: \(rating.rawValue)."
    }
  }
}
