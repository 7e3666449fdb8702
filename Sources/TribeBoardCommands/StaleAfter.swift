import ArgumentParser
import Foundation

/// `90s`, `30m`, `24h`, `2d`, or plain seconds.
struct StaleAfter: ExpressibleByArgument {
    let seconds: TimeInterval

    init(seconds: TimeInterval) { self.seconds = seconds }

    init?(argument: String) {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        var unit = 1.0
        if let last = text.last, let multiplier = units[last] {
            unit = multiplier
            text.removeLast()
        }
        guard let value = Double(text), value > 0, value.isFinite else { return nil }
        seconds = value * unit
    }

    var defaultValueDescription: String { "24h" }
}
