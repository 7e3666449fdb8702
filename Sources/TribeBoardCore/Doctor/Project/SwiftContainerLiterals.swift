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
