/// A matrix of real weights stored by rows, keeping only the non-zero entries (compressed sparse
/// rows); it owns its memory. Built in `init` (allocates), read on the audio thread.
struct SparseRows: ~Copyable {
  let rowCount: Int
  /// Row `r` holds entries `starts[r]..<starts[r + 1]`.
  let starts: UnsafeMutableBufferPointer<Int>
  let columns: UnsafeMutableBufferPointer<Int>
  let weights: UnsafeMutableBufferPointer<Float>

  /// Copies `rows`, each a list of `(column, weight)` entries.
  init(rows: [[(column: Int, weight: Float)]]) {
    rowCount = rows.count
    let total = rows.reduce(0) { $0 + $1.count }
    starts = .allocate(capacity: rows.count + 1)
    columns = .allocate(capacity: max(1, total))
    weights = .allocate(capacity: max(1, total))
    columns.initialize(repeating: 0)
    weights.initialize(repeating: 0)
    var offset = 0
    for (r, row) in rows.enumerated() {
      starts.initializeElement(at: r, to: offset)
      for entry in row {
        columns[offset] = entry.column
        weights[offset] = entry.weight
        offset += 1
      }
    }
    starts.initializeElement(at: rows.count, to: offset)
  }

  deinit {
    starts.deallocate()
    columns.deallocate()
    weights.deallocate()
  }

  /// The number of stored entries.
  var entryCount: Int { starts[rowCount] }

  /// The dot product of row `row` with `x`.
  @_noLocks
  func dot(row: Int, _ x: UnsafeMutableBufferPointer<Float>) -> Float {
    var sum: Float = 0
    for e in starts[row]..<starts[row + 1] { sum += weights[e] * x[columns[e]] }
    return sum
  }

  /// The entries of row `row` as an array (tests and set-up only; allocates).
  func entries(row: Int) -> [(column: Int, weight: Float)] {
    (starts[row]..<starts[row + 1]).map { (columns[$0], weights[$0]) }
  }
}
