import Foundation

/// A value of an old-style (OpenStep) property list, the format of `project.pbxproj`, with the line
/// each value starts on, so that a finding can name `project.pbxproj:LINE`.
package indirect enum OpenStepValue: Sendable, Equatable {
    case string(String, line: Int)
    case array([OpenStepValue], line: Int)
    /// Entries in file order; keys carry their own line.
    case dictionary([OpenStepEntry], line: Int)

    package var line: Int {
        switch self {
        case .string(_, let line), .array(_, let line), .dictionary(_, let line): return line
        }
    }

    package var string: String? {
        if case .string(let value, _) = self { return value }
        return nil
    }

    package var array: [OpenStepValue]? {
        if case .array(let values, _) = self { return values }
        return nil
    }

    package var entries: [OpenStepEntry]? {
        if case .dictionary(let entries, _) = self { return entries }
        return nil
    }

    /// The first entry named `key` in a dictionary.
    package subscript(key: String) -> OpenStepValue? {
        entries?.first { $0.key == key }?.value
    }

    /// The key's entry with its line (where the setting is written).
    package func entry(_ key: String) -> OpenStepEntry? {
        entries?.first { $0.key == key }
    }
}

package struct OpenStepEntry: Sendable, Equatable {
    package let key: String
    package let line: Int
    package let value: OpenStepValue
}

struct OpenStepPlistError: Error, Equatable, LocalizedError {
    package let line: Int
    package let reason: String

    package var errorDescription: String? { "line \(line): \(reason)" }
}

/// A recursive-descent parser over `OpenStepTokenizer`'s tokens.
enum OpenStepPlist {
    /// Deeply nested input is refused rather than allowed to exhaust the stack.
    static let maxDepth = 64

    package static func parse(_ text: String) throws(OpenStepPlistError) -> OpenStepValue {
        var tokens = OpenStepTokenizer(text)
        let value = try parseValue(&tokens, depth: 0)
        let trailing = try tokens.next()
        if trailing.kind != .end {
            throw OpenStepPlistError(
                line: trailing.line,
                reason: "unexpected \(trailing.kind.description) after the top-level value")
        }
        return value
    }

    private static func parseValue(_ tokens: inout OpenStepTokenizer, depth: Int)
        throws(OpenStepPlistError) -> OpenStepValue
    {
        let token = try tokens.next()
        guard depth < maxDepth else {
            throw OpenStepPlistError(
                line: token.line, reason: "nested more than \(maxDepth) levels")
        }
        switch token.kind {
        case .string(let value): return .string(value, line: token.line)
        case .openBrace: return try parseDictionary(&tokens, line: token.line, depth: depth)
        case .openParenthesis: return try parseArray(&tokens, line: token.line, depth: depth)
        default:
            throw OpenStepPlistError(
                line: token.line, reason: "expected a value, found \(token.kind.description)")
        }
    }

    private static func parseDictionary(_ tokens: inout OpenStepTokenizer, line: Int, depth: Int)
        throws(OpenStepPlistError) -> OpenStepValue
    {
        var entries: [OpenStepEntry] = []
        while true {
            let keyToken = try tokens.next()
            switch keyToken.kind {
            case .closeBrace:
                return .dictionary(entries, line: line)
            case .string(let key):
                try tokens.expect(.equals)
                let value = try parseValue(&tokens, depth: depth + 1)
                try tokens.expect(.semicolon)
                entries.append(OpenStepEntry(key: key, line: keyToken.line, value: value))
            default:
                throw OpenStepPlistError(
                    line: keyToken.line,
                    reason: "expected a key or }, found \(keyToken.kind.description)")
            }
        }
    }

    private static func parseArray(_ tokens: inout OpenStepTokenizer, line: Int, depth: Int)
        throws(OpenStepPlistError) -> OpenStepValue
    {
        var values: [OpenStepValue] = []
        while true {
            if try tokens.peek().kind == .closeParenthesis {
                _ = try tokens.next()
                return .array(values, line: line)
            }
            values.append(try parseValue(&tokens, depth: depth + 1))
            let separator = try tokens.next()
            switch separator.kind {
            case .comma: continue
            case .closeParenthesis: return .array(values, line: line)
            default:
                throw OpenStepPlistError(
                    line: separator.line,
                    reason: "expected , or ), found \(separator.kind.description)")
            }
        }
    }
}
