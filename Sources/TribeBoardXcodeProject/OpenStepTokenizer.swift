import Foundation

/// Splits an old-style property list into tokens, counting lines: `/* */` and `//` comments are
/// skipped, strings are quoted (with backslash escapes) or bare (`[A-Za-z0-9_$+/:.-]`), and
/// `<hex data>` is kept as a string. Works on bytes: a pbxproj is ASCII or UTF-8.
struct OpenStepTokenizer {
    enum Kind: Equatable {
        case string(String)
        case openBrace, closeBrace, openParenthesis, closeParenthesis, equals, semicolon, comma, end

        var description: String {
            switch self {
            case .string(let value): return "\"\(value.prefix(40))\""
            case .openBrace: return "{"
            case .closeBrace: return "}"
            case .openParenthesis: return "("
            case .closeParenthesis: return ")"
            case .equals: return "="
            case .semicolon: return ";"
            case .comma: return ","
            case .end: return "the end of the file"
            }
        }
    }

    struct Token {
        let kind: Kind
        let line: Int
    }

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var lookahead: Token?

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    mutating func peek() throws(OpenStepPlistError) -> Token {
        if let lookahead { return lookahead }
        let token = try scan()
        lookahead = token
        return token
    }

    mutating func next() throws(OpenStepPlistError) -> Token {
        if let token = lookahead {
            lookahead = nil
            return token
        }
        return try scan()
    }

    mutating func expect(_ kind: Kind) throws(OpenStepPlistError) {
        let token = try next()
        guard token.kind == kind else {
            throw OpenStepPlistError(
                line: token.line,
                reason: "expected \(kind.description), found \(token.kind.description)")
        }
    }

    private mutating func scan() throws(OpenStepPlistError) -> Token {
        try skipSpaceAndComments()
        guard offset < bytes.count else { return Token(kind: .end, line: line) }
        let start = line
        let byte = bytes[offset]
        let punctuation: [UInt8: Kind] = [
            0x7B: .openBrace, 0x7D: .closeBrace, 0x28: .openParenthesis, 0x29: .closeParenthesis,
            0x3D: .equals, 0x3B: .semicolon, 0x2C: .comma
        ]
        if let kind = punctuation[byte] {
            offset += 1
            return Token(kind: kind, line: start)
        }
        switch byte {
        case 0x22, 0x27: return Token(kind: .string(try quoted(byte)), line: start)
        case 0x3C: return Token(kind: .string(try data()), line: start)
        default:
            guard Self.isBare(byte) else {
                throw OpenStepPlistError(
                    line: line, reason: "unexpected character \"\(Unicode.Scalar(byte))\"")
            }
            let begin = offset
            while offset < bytes.count, Self.isBare(bytes[offset]) { offset += 1 }
            return Token(
                kind: .string(String(decoding: bytes[begin..<offset], as: UTF8.self)), line: start)
        }
    }

    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x5F, 0x24, 0x2B, 0x2F, 0x3A, 0x2E, 0x2D: return true  // _ $ + / : . -
        default: return byte >= 0x80  // UTF-8 in a bare word: Xcode quotes it, others may not
        }
    }

    private mutating func skipSpaceAndComments() throws(OpenStepPlistError) {
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == 0x0A {
                line += 1
                offset += 1
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0C {
                offset += 1
            } else if byte == 0x2F, offset + 1 < bytes.count, bytes[offset + 1] == 0x2A {
                let opened = line
                offset += 2
                while offset + 1 < bytes.count,
                    !(bytes[offset] == 0x2A && bytes[offset + 1] == 0x2F)
                {
                    if bytes[offset] == 0x0A { line += 1 }
                    offset += 1
                }
                guard offset + 1 < bytes.count else {
                    throw OpenStepPlistError(line: opened, reason: "unclosed /* comment")
                }
                offset += 2
            } else if byte == 0x2F, offset + 1 < bytes.count, bytes[offset + 1] == 0x2F {
                while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
            } else {
                return
            }
        }
    }

    private mutating func quoted(_ quote: UInt8) throws(OpenStepPlistError) -> String {
        let opened = line
        offset += 1
        var value: [UInt8] = []
        while offset < bytes.count, bytes[offset] != quote {
            var byte = bytes[offset]
            if byte == 0x0A { line += 1 }
            if byte == 0x5C, offset + 1 < bytes.count {
                offset += 1
                byte = bytes[offset]
                switch byte {
                case 0x6E: value.append(0x0A)  // \n
                case 0x74: value.append(0x09)  // \t
                case 0x72: value.append(0x0D)  // \r
                case 0x55, 0x75: value += unicodeEscape()  // \U1234
                default:
                    if byte == 0x0A { line += 1 }
                    value.append(byte)
                }
            } else {
                value.append(byte)
            }
            offset += 1
        }
        guard offset < bytes.count else {
            throw OpenStepPlistError(line: opened, reason: "unclosed quoted string")
        }
        offset += 1
        return String(decoding: value, as: UTF8.self)
    }

    /// `\U` followed by up to four hex digits; leaves `offset` on the last byte consumed.
    private mutating func unicodeEscape() -> [UInt8] {
        var scalarValue: UInt32 = 0
        var digits = 0
        while digits < 4, offset + 1 < bytes.count, let digit = Self.hexValue(bytes[offset + 1]) {
            scalarValue = scalarValue * 16 + UInt32(digit)
            offset += 1
            digits += 1
        }
        guard digits > 0, let scalar = Unicode.Scalar(scalarValue) else {
            return Array("\u{FFFD}".utf8)
        }
        return Array(String(Character(scalar)).utf8)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    private mutating func data() throws(OpenStepPlistError) -> String {
        let opened = line
        let begin = offset
        while offset < bytes.count, bytes[offset] != 0x3E {
            if bytes[offset] == 0x0A { line += 1 }
            offset += 1
        }
        guard offset < bytes.count else {
            throw OpenStepPlistError(line: opened, reason: "unclosed <data>")
        }
        offset += 1
        return String(decoding: bytes[begin..<offset], as: UTF8.self)
    }
}
