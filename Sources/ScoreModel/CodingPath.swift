import Foundation

extension Array where Element == any CodingKey {
  /// The coding path as it reads in a JSON document: members joined by dots, array positions in
  /// brackets (`voices[1].level`); empty at the document's root. For the error messages of the
  /// package's JSON readers.
  package var jsonPath: String {
    var text = ""
    for key in self {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text
  }
}
