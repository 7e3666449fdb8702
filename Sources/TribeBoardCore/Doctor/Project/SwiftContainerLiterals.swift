import Foundation

/// A CloudKit container identifier written as a string literal in a Swift source.
public struct ContainerLiteral: Sendable, Equatable {
    public enum Context: String, Sendable, Codable {
        /// `ModelConfiguration(..., cloudKitDatabase: .private("..."))`
        case modelConfiguration
        /// `CKContainer(identifier: "...")`
        case ckContainer
        /// Any other `"iCloud...."` literal (a constant the calls above use, most likely).
        case other
    }

    public let value: String
    public let context: Context
    public let location: SourceLocation
}

/// Finds `"iCloud.…"` string literals in Swift sources, outside comments, and tells which call
/// they are passed to. A small lexer rather than a regex: comments, escapes and multi-line strings
/// must not produce false findings or hide real ones.
public enum SwiftContainerLiterals {
    /// Folders never scanned: build products, dependencies, version control.
    static let skippedFolders: Set<String> = [".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules", ".swiftpm"]
    static let maxFiles = 20_000
    static let maxFileSize = 2_000_000

    /// Every literal in the `.swift` files below `folder` (sorted by path, then line).
    public static func scan(folder: String) -> [ContainerLiteral] {
        swiftFiles(below: folder).flatMap { path -> [ContainerLiteral] in
            guard let data = FileManager.default.contents(atPath: path), data.count <= maxFileSize else { return [] }
            return literals(in: Array(data), path: path)
        }
    }

    static func swiftFiles(below folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String, files.count < maxFiles {
            let name = (relative as NSString).lastPathComponent
            if skippedFolders.contains(name) || name.hasSuffix(".xcodeproj") {
                enumerator.skipDescendants()
            } else if name.hasSuffix(".swift") {
                files.append(folder + "/" + relative)
            }
        }
        return files.sorted()
    }

    static func literals(in source: [UInt8], path: String) -> [ContainerLiteral] {
        var lexer = SwiftLiteralLexer(source)
        return lexer.stringLiterals().compactMap { literal in
            guard literal.text.hasPrefix("iCloud.") else { return nil }
            return ContainerLiteral(value: literal.text, context: context(before: literal.offset, in: lexer.code),
                                    location: SourceLocation(path: path, line: literal.line))
        }
    }

    /// What the code right before the literal's opening quote says, white space ignored.
    private static func context(before offset: Int, in code: [UInt8]) -> ContainerLiteral.Context {
        let window = code[max(0, offset - 200)..<offset].filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }
        let prefix = String(decoding: window, as: UTF8.self)
        if prefix.hasSuffix("CKContainer(identifier:") { return .ckContainer }
        if prefix.hasSuffix("cloudKitDatabase:.private(") { return .modelConfiguration }
        return .other
    }
}

/// Swift's comments and string literals, just enough to find single-line literals.
struct SwiftLiteralLexer {
    struct Literal {
        let text: String
        let offset: Int
        let line: Int
    }

    /// The source with comments blanked out (newlines kept), for looking at the code around a literal.
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
                if let text = singleLineString() { found.append(Literal(text: text, offset: start, line: startLine)) }
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

    /// The literal's text when it has no interpolation; nil otherwise (it cannot be a plain identifier).
    private mutating func singleLineString() -> String? {
        offset += 1
        var text: [UInt8] = []
        var interpolated = false
        while offset < code.count, code[offset] != 0x22, code[offset] != 0x0A {
            if code[offset] == 0x5C, peek(1) == 0x28 {
                interpolated = true
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
        return interpolated ? nil : String(decoding: text, as: UTF8.self)
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
