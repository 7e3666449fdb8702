import ArgumentParser
import Foundation
import TribeBoardSupport

/// `90s`, `30m`, `24h`, `2d`, or plain seconds: more than zero, at most ten years.
struct StaleAfter {
    static let maximumSeconds: TimeInterval = 3650 * 86_400

    let seconds: TimeInterval

    init(seconds: TimeInterval) { self.seconds = seconds }

    /// The options' transform: a message that says what is accepted, for `soon`, `-5m` or `1e300d`.
    static func parse(_ argument: String) throws -> StaleAfter {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        var unit = 1.0
        if let last = text.last, let multiplier = units[last] {
            unit = multiplier
            text.removeLast()
        }
        guard let value = Double(text), value.isFinite, value > 0, value * unit <= maximumSeconds
        else {
            throw ValidationError(
                "it must be a duration above zero and at most 3650d: 90s, 30m, 24h, 2d or plain seconds."
            )
        }
        return StaleAfter(seconds: value * unit)
    }
}
