import Foundation
import TribeBoardSupport
import Logging

/// Diagnostics on stderr as `tribeboard: level: message key=value`, colour only on a terminal
/// and never with NO_COLOR.
struct StderrLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let useColour: Bool
    /// Leaves warnings out: they are what the summary printed on the same terminal lists.
    var dropsWarnings = false

    init(level: Logger.Level) {
        self.logLevel = level
        self.useColour = Self.colourOnStderr
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if dropsWarnings && event.level == .warning { return }
        var fields = metadata
        event.metadata?.forEach { fields[$0.key] = $0.value }
        let details = fields.sorted { $0.key < $1.key }.map {
            "\($0.key)=\(OutsideText.inline("\($0.value)", limit: 2000))"
        }.joined(separator: " ")
        Terminal.clearProgressLine()
        let message = OutsideText.inline("\(event.message)", limit: 2000)
        Terminal.writeError(Self.prefix(event.level, colour: useColour)
                            + "\(message)\(details.isEmpty ? "" : " " + details)\n")
    }

    /// The one prefix of every diagnostic, whatever the executable or link name it ran as:
    /// `tribeboard: error: ` (the level in colour on a terminal). Usage errors use it too.
    static func prefix(_ level: Logger.Level, colour: Bool = colourOnStderr) -> String {
        "tribeboard: \(colour ? Self.colour(level) : "\(level)"): "
    }

    static var colourOnStderr: Bool {
        Terminal.isTerminal(.standardError)
            && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    // Messages and their values carry text from input files and CloudKit (an ESC in a CSV
    // field, a claim's 900,000-character `family`): each goes through OutsideText, one line,
    // bounded.

    private static func colour(_ level: Logger.Level) -> String {
        switch level {
        case .error, .critical: return "\u{1B}[31m\(level)\u{1B}[0m"
        case .warning: return "\u{1B}[33m\(level)\u{1B}[0m"
        default: return "\(level)"
        }
    }
}
