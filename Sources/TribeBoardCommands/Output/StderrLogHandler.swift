import Foundation
import Logging

/// Diagnostics on stderr as `tribeboard: level: message key=value`, colour only on a terminal
/// and never with NO_COLOR.
struct StderrLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let useColour: Bool

    init(level: Logger.Level) {
        self.logLevel = level
        self.useColour = Terminal.isTerminal(.standardError) && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        event.metadata?.forEach { fields[$0.key] = $0.value }
        let details = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let levelText = useColour ? colour(event.level) : "\(event.level)"
        Terminal.clearProgressLine()
        Terminal.writeError("tribeboard: \(levelText): \(event.message)\(details.isEmpty ? "" : " " + details)\n")
    }

    private func colour(_ level: Logger.Level) -> String {
        switch level {
        case .error, .critical: return "\u{1B}[31m\(level)\u{1B}[0m"
        case .warning: return "\u{1B}[33m\(level)\u{1B}[0m"
        default: return "\(level)"
        }
    }
}
