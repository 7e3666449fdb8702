import Foundation

/// Swift's comments and string literals, just enough to find single-line literals.
struct SwiftLiteralLexer {
    struct Literal {
        let text: String
        let offset: Int
        /// Just past the closing quote.
        let end: Int
        let line: Int
        /// `"iCloud.\(id)"`: `text` then holds `\(…)` where each interpolation was.
        let interpolated: Bool
    }

    /// The source with comments blanked out (newlines kept), for looking at the code around a
    /// literal.
    private(set) var code: [UInt8]
    private var offset = 0
    private var line = 1

    init(_ source: [UInt8]) {
        code = source
    }

    mutating func stringLiterals() -> [Literal] {
        var found: [Literal] = []
        while offset < code.count {
            let byte = code[offset]
            if byte == 0x0A {
                line += 1
                offset += 1
            } else if byte == 0x2F, peek(1) == 0x2F {
                blank(until: { $0.code[$0.offset] == 0x0A })
            } else if byte == 0x2F, peek(1) == 0x2A {
                blankBlockComment()
            } else if byte == 0x22, peek(1) == 0x22, peek(2) == 0x22 {
                skipMultilineString()
            } else if byte == 0x22 {
                let start = offset
                let startLine = line
                let (text, interpolated) = singleLineString()
                // A backslash at the very end steps past it: the end is clamped to the source.
                offset = min(offset, code.count)
                found.append(
                    Literal(
                        text: text, offset: start, end: offset, line: startLine,
                        interpolated: interpolated))
            } else {
                offset += 1
            }
        }
        return found
    }

    private func peek(_ distance: Int) -> UInt8? {
        offset + distance < code.count ? code[offset + distance] : nil
    }

    private mutating func blank(until stop: (Self) -> Bool) {
        while offset < code.count, !stop(self) {
            code[offset] = 0x20
            offset += 1
        }
    }

    /// Swift block comments nest.
    private mutating func blankBlockComment() {
        var depth = 0
        while offset < code.count {
            if code[offset] == 0x2F, peek(1) == 0x2A {
                depth += 1
                code[offset] = 0x20
                code[offset + 1] = 0x20
                offset += 2
            } else if code[offset] == 0x2A, peek(1) == 0x2F {
                depth -= 1
                code[offset] = 0x20
                code[offset + 1] = 0x20
                offset += 2
                if depth == 0 { return }
            } else {
                if code[offset] == 0x0A { line += 1 } else { code[offset] = 0x20 }
                offset += 1
            }
        }
    }

    private mutating func skipMultilineString() {
        offset += 3
        while offset < code.count {
            if code[offset] == 0x5C {
                offset += 2
                continue
            }
            if code[offset] == 0x0A { line += 1 }
            if code[offset] == 0x22, peek(1) == 0x22, peek(2) == 0x22 {
                offset += 3
                return
            }
            offset += 1
        }
    }

    /// The literal's text, and whether it interpolates (then it cannot be checked as written).
    private mutating func singleLineString() -> (String, Bool) {
        offset += 1
        var text: [UInt8] = []
        var interpolated = false
        while offset < code.count, code[offset] != 0x22, code[offset] != 0x0A {
            if code[offset] == 0x5C, peek(1) == 0x28 {
                interpolated = true
                text += Array("\\(…)".utf8)
                skipInterpolation()
                continue
            }
            if code[offset] == 0x5C {
                text.append(contentsOf: code[offset..<min(offset + 2, code.count)])
                offset += 2
                continue
            }
            text.append(code[offset])
            offset += 1
        }
        if offset < code.count, code[offset] == 0x22 { offset += 1 }
        return (String(decoding: text, as: UTF8.self), interpolated)
    }

    /// `\( ... )`, with nested parentheses and simple strings inside.
    private mutating func skipInterpolation() {
        offset += 2
        var depth = 1
        while offset < code.count, depth > 0, code[offset] != 0x0A {
            switch code[offset] {
            case 0x28: depth += 1
            case 0x29: depth -= 1
            case 0x22:
                offset += 1
                while offset < code.count, code[offset] != 0x22, code[offset] != 0x0A {
                    offset += code[offset] == 0x5C ? 2 : 1
                }
            default: break
            }
            offset += 1
        }
    }
}
