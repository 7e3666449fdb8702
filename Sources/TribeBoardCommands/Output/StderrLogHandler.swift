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
        let details = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.escaped("\($0.value)"))" }.joined(separator: " ")
        let levelText = useColour ? colour(event.level) : "\(event.level)"
        Terminal.clearProgressLine()
        Terminal.writeError("tribeboard: \(levelText): \(Self.escaped("\(event.message)"))\(details.isEmpty ? "" : " " + details)\n")
    }

    /// Control characters from input files (an ESC in a CSV field) must not drive the terminal.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else { return text }
        return text.unicodeScalars.map { scalar in
            CharacterSet.controlCharacters.contains(scalar) ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
    }

    private func colour(_ level: Logger.Level) -> String {
        switch level {
        case .error, .critical: return "\u{1B}[31m\(level)\u{1B}[0m"
        case .warning: return "\u{1B}[33m\(level)\u{1B}[0m"
        default: return "\(level)"
        }
    }
}
