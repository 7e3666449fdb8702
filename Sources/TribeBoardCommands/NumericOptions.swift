import ArgumentParser

/// Range checks for numeric options. Each numeric option is declared with `parsing: .unconditional`
/// so that `--sample -1` reaches this check instead of being taken for an unknown flag (which
/// ArgumentParser reports as "Missing value").
enum NumericOption {
    static func check<Value: Comparable & Numeric>(
        _ value: Value, _ option: String, in range: ClosedRange<Value>,
        unit: String = ""
    ) throws {
        guard range.contains(value) else {
            let suffix = unit.isEmpty ? "" : " \(unit)"
            throw ValidationError("\(option) must be between \(range.lowerBound) and \(range.upperBound)\(suffix) (got \(value)).")
        }
    }

    /// NaN and infinities fail every comparison a range makes, but say so plainly.
    static func check(
        _ value: Double, _ option: String, in range: ClosedRange<Double>, unit: String = ""
    ) throws {
        guard value.isFinite, range.contains(value) else {
            let suffix = unit.isEmpty ? "" : " \(unit)"
            let bounds = "between \(range.lowerBound.formatted()) and \(range.upperBound.formatted())\(suffix)"
            throw ValidationError("\(option) must be \(bounds) (got \(value)).")
        }
    }
}
