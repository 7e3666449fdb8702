import Foundation

/// A place in Swift code that names a CloudKit container (or relies on the default one).
package struct ContainerReference: Sendable, Equatable {
    package enum Value: Sendable, Equatable {
        /// `"iCloud.com.company.Product"`, directly or through a constant.
        case literal(String)
        /// `"iCloud." + Bundle.main.bundleIdentifier!`: the prefix, then the target's bundle id.
        case bundleIDSuffix(prefix: String)
        /// `"iCloud.\(id)"`: cannot be verified from the source.
        case interpolated(String)
        /// `CKContainer.default()`, `cloudKitDatabase: .automatic`, `NSPersistentCloudKitContainer`
        /// without options: the first container of the entitlements, as Apple defines it.
        case defaultContainer
    }

    package let value: Value
    /// `CKContainer(identifier:)`, `ModelConfiguration cloudKitDatabase`...
    package let call: String
    package let location: SourceLocation
}

/// Finds container references in Swift sources: string literals only where a container goes
/// (`CKContainer(identifier:)`, `cloudKitDatabase: .private(…)`, `containerIdentifier:`), and
/// constants passed there; a localization key or prose that starts with "iCloud." is no finding.
/// Comments and string contents are skipped by a small lexer, not a regex over the raw text.
package enum SwiftContainerLiterals {
    /// Folders never scanned: build products, dependencies, version control.
    static let skippedFolders: Set<String> = [".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules", ".swiftpm"]
    static let maxFiles = 20_000
    static let maxFileSize = 2_000_000

    /// One file's findings: references made directly, constants holding a literal, and names
    /// used in container positions (so a constant defined in another file can be matched).
    package struct FileScan: Sendable {
        var direct: [ContainerReference] = []
        var constants: [String: (String, SourceLocation, Bool)] = [:]
        var namedUses: [(name: String, call: String, location: SourceLocation)] = []
    }

    /// `CKContainer(` or `CKContainer.init(`.
    static let containerInit = #"CKContainer\s*(?:\.\s*init\s*)?\("#
    /// `.private`, `CloudKitDatabase.private`, `ModelConfiguration.CloudKitDatabase.private` (any spelling Swift accepts).
    static let database = #"(?:(?:ModelConfiguration\s*\.\s*)?CloudKitDatabase\s*)?\.\s*"#
    static let positions: [(pattern: String, call: String)] = [
        (containerInit + #"\s*identifier\s*:\s*$"#, "CKContainer(identifier:)"),
        (#"cloudKitDatabase\s*:\s*"# + database + #"private\s*\(\s*$"#, "ModelConfiguration cloudKitDatabase: .private"),
        (#"CloudKitDatabase\s*\.\s*private\s*\(\s*$"#, "ModelConfiguration.CloudKitDatabase.private"),
        (#"NSPersistentCloudKitContainerOptions\s*\(\s*containerIdentifier\s*:\s*$"#, "NSPersistentCloudKitContainerOptions(containerIdentifier:)"),
        (#"[(,]\s*[cC]ontainerIdentifier\s*:\s*$"#, "containerIdentifier:"),
        // An app's own parameter (`iCloudContainerId: "iCloud.…"`): the literal says what it is.
        (#"[(,]\s*[A-Za-z_]*[cC]ontainer(?:Identifier|Id|ID)\s*:\s*$"#, "container argument"),
        (#"\.\s*(?:cloudKitC|c)ontainerIdentifier\s*=\s*$"#, ".containerIdentifier ="),
    ]
    static let defaults: [(pattern: String, call: String)] = [
        (#"CKContainer\s*\.\s*default\s*\(\s*\)"#, "CKContainer.default()"),
        (#"(?:cloudKitDatabase\s*:\s*"# + database + #"|CloudKitDatabase\s*\.\s*)automatic\b"#, "ModelConfiguration cloudKitDatabase: .automatic"),
    ]
    static let namedUse = #"("# + containerInit + #"\s*identifier\s*:|(?:cloudKitDatabase\s*:\s*"# + database + #"|CloudKitDatabase\s*\.\s*)private\s*\(|[(,]\s*[cC]ontainerIdentifier\s*:|\.\s*(?:cloudKitC|c)ontainerIdentifier\s*=)\s*([A-Za-z_][A-Za-z0-9_.]*)\s*[,)\n]"#
    /// `let NAME = "…"`, `case NAME = "…"`, and a computed `var NAME: String { "…" }` (or `{ return "…" }`).
    static let constant = #"(?:let|var|case)\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*String\s*)?(?:=|\{\s*(?:return\s+)?)\s*$"#

    /// Every reference in `files`, constants resolved across them (sorted by path, then line).
    package static func references(in files: [String], display: (String) -> String) -> [ContainerReference] {
        let scans = files.compactMap { path -> FileScan? in
            guard let data = try? ProjectFileReader.read(path, limit: maxFileSize) else { return nil }
            return scan(Array(data), path: display(path))
        }
        var constants: [String: (String, SourceLocation, Bool)] = [:]
        for scan in scans { constants.merge(scan.constants) { first, _ in first } }
        var references = scans.flatMap(\.direct)
        for scan in scans {
            for use in scan.namedUses {
                let parts = use.name.split(separator: ".").filter { $0 != "rawValue" }
                let name = String(parts.last ?? "")
                guard let (value, location, interpolated) = constants[name], value.hasPrefix("iCloud") else { continue }
                references.append(ContainerReference(value: interpolated ? .interpolated(value) : .literal(value),
                                                     call: "\(use.call) via \(use.name) (\(use.location))", location: location))
            }
        }
        return references.sorted { ($0.location.path, $0.location.line ?? 0) < ($1.location.path, $1.location.line ?? 0) }
    }

    package static func scan(_ source: [UInt8], path: String) -> FileScan {
        var result = FileScan()
        // Most files never mention CloudKit: skip the lexer and the patterns for them.
        let raw = String(decoding: source, as: UTF8.self)
        guard ["CKContainer", "cloudKitDatabase", "CloudKitDatabase", "ontainerIdentifier", "NSPersistentCloudKitContainer", "\"iCloud"].contains(where: raw.contains) else {
            return result
        }
        var lexer = SwiftLiteralLexer(source)
        let literals = lexer.stringLiterals()
        let code = lexer.code
        let lineStarts = [0] + code.indices.filter { code[$0] == 0x0A }.map { $0 + 1 }
        let lineOf = { (offset: Int) in (lineStarts.lastIndex { $0 <= offset } ?? 0) + 1 }
        // A container identifier starts with "iCloud."; an interpolation may hide that.
        for literal in literals where literal.text.hasPrefix("iCloud") || literal.text.hasPrefix("\\(") {
            let before = String(decoding: code[max(0, literal.offset - 240)..<literal.offset], as: UTF8.self)
            let location = SourceLocation(path: path, line: literal.line)
            if let call = positions.first(where: { matches($0.pattern, before) })?.call {
                result.direct.append(ContainerReference(value: value(of: literal, code: code), call: call, location: location))
            } else if literal.text.hasPrefix("iCloud"), let name = capture(constant, before) {
                result.constants[name] = (literal.text, location, literal.interpolated)
            }
        }
        let text = String(decoding: code, as: UTF8.self)
        // NSPersistentCloudKitContainer without options mirrors to the first container listed.
        let persistent = matches(#"[cC]ontainerIdentifier"#, text) ? [] : [(#"NSPersistentCloudKitContainer\s*\(\s*name"#, "NSPersistentCloudKitContainer(name:)")]
        for (pattern, call) in defaults + persistent {
            for offset in utf8Offsets(pattern, text) {
                result.direct.append(ContainerReference(value: .defaultContainer, call: call, location: SourceLocation(path: path, line: lineOf(offset))))
            }
        }
        let calls = captures(namedUse, text, group: 1)
        for (index, (offset, name)) in captures(namedUse, text, group: 2).enumerated() where !["iCloud"].contains(name) {
            let written = index < calls.count ? calls[index].1 : ""
            result.namedUses.append((name, Self.callName(written), SourceLocation(path: path, line: lineOf(offset))))
        }
        return result
    }

    /// The call a named use sits in, as findings name it.
    static func callName(_ written: String) -> String {
        if written.hasPrefix("CKContainer") { return "CKContainer(identifier:)" }
        if written.contains("private") { return "ModelConfiguration cloudKitDatabase: .private" }
        if written.contains("=") { return ".containerIdentifier =" }
        return "containerIdentifier:"
    }

    /// A literal in a container position: as written, completed with the bundle id, or unverifiable.
    private static func value(of literal: SwiftLiteralLexer.Literal, code: [UInt8]) -> ContainerReference.Value {
        if literal.interpolated { return .interpolated(literal.text) }
        let after = String(decoding: code[literal.end..<min(code.count, literal.end + 120)], as: UTF8.self)
        if matches(#"^\s*\+\s*\(?\s*Bundle\s*\.\s*main\s*\.\s*bundleIdentifier"#, after) { return .bundleIDSuffix(prefix: literal.text) }
        if matches(#"^\s*\+"#, after) { return .interpolated(literal.text + " + …") }
        return .literal(literal.text)
    }

    package static func swiftFiles(below folder: String) -> [String] {
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

    private static func regex(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
    }

    static func matches(_ pattern: String, _ text: String) -> Bool {
        guard let regex = regex(pattern.hasSuffix("$") ? String(pattern.dropLast()) + #"\z"# : pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private static func capture(_ pattern: String, _ text: String) -> String? {
        guard let regex = regex(String(pattern.dropLast()) + #"\z"#),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }

    private static func utf8Offsets(_ pattern: String, _ text: String) -> [Int] {
        captures(pattern, text, group: 0).map(\.0)
    }

    private static func captures(_ pattern: String, _ text: String, group: Int) -> [(Int, String)] {
        guard let regex = regex(pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let range = Range(match.range(at: group), in: text) else { return nil }
            return (text.utf8.distance(from: text.startIndex, to: range.lowerBound), String(text[range]))
        }
    }
}
