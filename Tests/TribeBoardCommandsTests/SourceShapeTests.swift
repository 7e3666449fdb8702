import Foundation
import Testing

/// The shape of `Sources/`: no line over 150 columns and no function over 60 lines, so a long
/// one is split into named steps when it is written, not found later by a reviewer. Lines aim at
/// swift-format's 100 columns where that reads better; 150 is the line no file may cross.
struct SourceShapeTests {
    static let maxColumns = 150
    static let maxFunctionLines = 60

    /// Every Swift file under `Sources/`, as `(path relative to Sources, text)`.
    static func sources() throws -> [(path: String, text: String)] {
        let sources = ReadmeTables.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { file in
            let path = file.path.replacingOccurrences(of: sources.path + "/", with: "")
            return (path, try String(contentsOf: file, encoding: .utf8))
        }.sorted { $0.path < $1.path }
    }

    @Test func noLineIsOver150Columns() throws {
        let files = try Self.sources()
        #expect(files.count > 100, "the Sources tree was read: \(files.count) files")
        let long = files.flatMap { file in
            SourceShape.longLines(in: file.text, over: Self.maxColumns).map { "\(file.path):\($0)" }
        }
        #expect(long.isEmpty, "lines over \(Self.maxColumns) columns (wrap them): \(long)")
    }

    /// Modules already within swift-format's 100 columns, where nothing reads better longer:
    /// they stay there (the others still wrap where that reads better).
    static let modulesWithin100Columns = ["TribeBoardQR", "TribeBoardReportMirrors", "TribeBoardSupport",
                                          "TribeBoardTestSupport"]

    @Test func modulesWithin100ColumnsStayThere() throws {
        let files = try Self.sources().filter { file in
            Self.modulesWithin100Columns.contains { file.path.hasPrefix($0 + "/") }
        }
        #expect(files.count > 10, "the modules were read: \(files.count) files")
        let long = files.flatMap { file in
            SourceShape.longLines(in: file.text, over: 100).map { "\(file.path):\($0)" }
        }
        #expect(long.isEmpty, "lines over 100 columns in a module kept within 100: \(long)")
    }

    @Test func noFunctionIsOver60Lines() throws {
        let files = try Self.sources()
        #expect(files.count > 100, "the Sources tree was read: \(files.count) files")
        let long = files.flatMap { file in
            SourceShape.functions(in: file.text).filter { $0.lines > Self.maxFunctionLines }
                .map { "\(file.path):\($0.line) \($0.name) (\($0.lines) lines)" }
        }
        #expect(long.isEmpty,
                "functions over \(Self.maxFunctionLines) lines (split them into named steps): \(long)")
    }

    /// Braces in strings, interpolations and comments are not the function's; a requirement
    /// without a body is no function; `.init(` is a call.
    @Test func theScanCountsCodeBracesOnly() {
        let source = #"""
            protocol P {
                func required()
            }
            struct S {
                init(x: Int = { 1 }()) {
                    let s = "}{ \(x.description) }"
                    /* } /* nested { */ } */
                    // }
                    let raw = #"\(not) } "# + """
                        }
                        """
                    _ = Self.init(y: 2)
                }
                func body()
                    async throws -> Int
                {
                    return 1
                }
            }
            """#
        let found = SourceShape.functions(in: source)
        #expect(found.map(\.name) == ["init", "body"])
        #expect(found.map(\.line) == [5, 14])
        #expect(found.map(\.lines) == [9, 5])
    }

    @Test func theScanMeasuresColumnsInCharacters() {
        let wide = String(repeating: "é", count: 150)
        #expect(SourceShape.longLines(in: "\(wide)\n\(wide)x\n", over: 150) == [2])
    }
}

/// A Swift source read just far enough to measure it: code with its strings and comments
/// blanked (newlines kept), and the functions, initialisers and subscripts found in it.
enum SourceShape {
    struct Function: Equatable {
        var name: String
        /// The line of its declaration (1-based).
        var line: Int
        /// From the declaration's first line to the closing brace, both included.
        var lines: Int
    }

    static func longLines(in text: String, over columns: Int) -> [Int] {
        text.components(separatedBy: "\n").enumerated()
            .filter { $0.element.count > columns }.map { $0.offset + 1 }
    }

    static func functions(in text: String) -> [Function] {
        let code = blankingStringsAndComments(Array(text.unicodeScalars))
        var lineStarts = [0]
        for (index, scalar) in code.enumerated() where scalar == "\n" {
            lineStarts.append(index + 1)
        }
        func line(at offset: Int) -> Int {
            var low = 0
            var high = lineStarts.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
            }
            return low + 1
        }
        return declarations(in: code).compactMap { declaration in
            guard let open = bodyStart(in: code, after: declaration.end),
                  let close = matchingBrace(in: code, from: open) else { return nil }
            let first = line(at: declaration.start)
            return Function(name: declaration.name, line: first, lines: line(at: close) - first + 1)
        }
    }

    private static let declarationWords: Set<String> = ["func", "init", "deinit", "subscript"]
    /// Words that start another declaration: met before a `{`, the one read had no body.
    private static let nextDeclarationWords: Set<String> = [
        "func", "init", "deinit", "subscript", "var", "let", "case", "typealias", "associatedtype",
        "struct", "class", "enum", "protocol", "extension", "actor",
    ]

    private static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }

    /// Each declaration keyword as a whole word not after a `.` (`Self.init(` is a call), with
    /// the function's name (the keyword for the others) and where its header goes on.
    private static func declarations(in code: [Unicode.Scalar])
        -> [(name: String, start: Int, end: Int)] {
        var found: [(name: String, start: Int, end: Int)] = []
        var index = 0
        while index < code.count {
            guard isIdentifier(code[index]) else { index += 1; continue }
            let start = index
            while index < code.count, isIdentifier(code[index]) { index += 1 }
            let word = String(String.UnicodeScalarView(code[start..<index]))
            guard declarationWords.contains(word), start == 0 || code[start - 1] != "." else {
                continue
            }
            let name = word == "func" ? nameAfter(index, in: code) : word
            found.append((name: name, start: start, end: index))
        }
        return found
    }

    private static func nameAfter(_ index: Int, in code: [Unicode.Scalar]) -> String {
        var start = index
        while start < code.count, code[start] == " " || code[start] == "\n" { start += 1 }
        var end = start
        while end < code.count, !" (<\n".unicodeScalars.contains(code[end]) { end += 1 }
        return String(String.UnicodeScalarView(code[start..<end]))
    }

    /// The `{` that opens the body: the first one outside the parameters' parentheses and
    /// brackets, unless a `}` or another declaration comes first (a requirement, no body).
    private static func bodyStart(in code: [Unicode.Scalar], after index: Int) -> Int? {
        var depth = 0
        var position = index
        while position < code.count {
            let scalar = code[position]
            switch scalar {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "{" where depth == 0: return position
            case "}" where depth == 0: return nil
            default:
                if depth == 0, isIdentifier(scalar), !isIdentifier(code[position - 1]) {
                    var end = position
                    while end < code.count, isIdentifier(code[end]) { end += 1 }
                    let word = String(String.UnicodeScalarView(code[position..<end]))
                    if nextDeclarationWords.contains(word) { return nil }
                    position = end
                    continue
                }
            }
            position += 1
        }
        return nil
    }

    private static func matchingBrace(in code: [Unicode.Scalar], from open: Int) -> Int? {
        var depth = 0
        for position in open..<code.count {
            if code[position] == "{" { depth += 1 }
            if code[position] == "}" {
                depth -= 1
                if depth == 0 { return position }
            }
        }
        return nil
    }

    /// The code with every string's and comment's characters turned to spaces, newlines kept;
    /// an interpolation's code stays code.
    static func blankingStringsAndComments(_ text: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var blanker = Blanker(text: text)
        while blanker.index < text.count {
            if let current = blanker.strings.last, current.interpolationDepth == nil {
                blanker.readStringText(current)
            } else if blanker.starts("//") {
                blanker.skipLineComment()
            } else if blanker.starts("/*") {
                blanker.skipBlockComment()
            } else if text[blanker.index] == "\"" || text[blanker.index] == "#" {
                blanker.openStringOrSkip()
            } else {
                blanker.readInterpolationCode()
            }
        }
        return blanker.out
    }
}

/// `SourceShape`'s reader: where it is, the strings open there and the text blanked so far.
private struct Blanker {
    /// A string being read: its `#` count, whether it is `"""`, and, inside one of its
    /// interpolations, the parentheses opened there.
    struct OpenString {
        var hashes: Int
        var multiline: Bool
        var interpolationDepth: Int?
    }

    let text: [Unicode.Scalar]
    var out: [Unicode.Scalar]
    var strings: [OpenString] = []
    var index = 0

    init(text: [Unicode.Scalar]) {
        self.text = text
        out = text
    }

    mutating func blank(_ range: Range<Int>) {
        for position in range.clamped(to: 0..<text.count) where out[position] != "\n" {
            out[position] = " "
        }
    }

    func starts(_ literal: String, at position: Int? = nil) -> Bool {
        let from = position ?? index
        let scalars = Array(literal.unicodeScalars)
        return from + scalars.count <= text.count
            && Array(text[from..<from + scalars.count]) == scalars
    }

    /// One step inside a string's text: an interpolation opens, an escape, the end, or a character.
    mutating func readStringText(_ current: OpenString) {
        let hashes = String(repeating: "#", count: current.hashes)
        let close = (current.multiline ? "\"\"\"" : "\"") + hashes
        let length: Int
        if starts("\\" + hashes + "(") {
            length = current.hashes + 2
            strings[strings.count - 1].interpolationDepth = 0
        } else if starts("\\" + hashes) {
            length = current.hashes + 2
        } else if starts(close) {
            length = close.unicodeScalars.count
            strings.removeLast()
        } else {
            length = 1
        }
        blank(index..<index + length)
        index += length
    }

    mutating func skipLineComment() {
        var end = index
        while end < text.count, text[end] != "\n" { end += 1 }
        blank(index..<end)
        index = end
    }

    /// `/* … */`, nested ones included.
    mutating func skipBlockComment() {
        var depth = 0
        var end = index
        while end < text.count {
            if starts("/*", at: end) {
                depth += 1
                end += 2
            } else if starts("*/", at: end) {
                depth -= 1
                end += 2
                if depth == 0 { break }
            } else {
                end += 1
            }
        }
        blank(index..<end)
        index = end
    }

    /// A `"`, `"""` or raw `#"` opens a string; a `#` of anything else (`#if`) is code.
    mutating func openStringOrSkip() {
        var hashes = 0
        while index + hashes < text.count, text[index + hashes] == "#" { hashes += 1 }
        guard index + hashes < text.count, text[index + hashes] == "\"" else {
            index += max(hashes, 1)
            return
        }
        let multiline = starts("\"\"\"", at: index + hashes)
        let length = hashes + (multiline ? 3 : 1)
        blank(index..<index + length)
        strings.append(OpenString(hashes: hashes, multiline: multiline, interpolationDepth: nil))
        index += length
    }

    /// Code at the top or in an interpolation, whose closing `)` returns to the string's text.
    mutating func readInterpolationCode() {
        if let depth = strings.last?.interpolationDepth {
            if text[index] == "(" { strings[strings.count - 1].interpolationDepth = depth + 1 }
            if text[index] == ")" {
                strings[strings.count - 1].interpolationDepth = depth == 0 ? nil : depth - 1
                if depth == 0 { out[index] = " " }
            }
        }
        index += 1
    }
}
