import Foundation

/// Where an app's code looks TribeBoard family codes up: the function that does it, and the
/// database and zone its file reads. The toolkit writes families to the public database's default
/// zone; an app that looks them up in each user's private database (or a custom zone of it)
/// finds none of them. Comments are blanked first (the Swift lexer), so commented-out code is no
/// finding.
package struct FamilyLookupScan: Sendable {
    package struct Signal: Sendable, Equatable {
        /// What was found, as a support engineer would say it (`privateCloudDatabase`).
        package let what: String
        package let location: SourceLocation
    }

    /// `import TribeBoardJoinKit`.
    package var kitImports: [Signal] = []
    /// A function that finds a family by its code, or a `CKQuery` on the `Family` record type.
    package var lookups: [Signal] = []
    package var publicDatabase: [Signal] = []
    /// `privateCloudDatabase`, a custom zone, SwiftData mirroring to the private database.
    package var privateDatabase: [Signal] = []

    /// The code speaks of TribeBoard's families at all (else the check does not apply).
    package var applies: Bool { !kitImports.isEmpty || !lookups.isEmpty }

    static let kit = #"^\s*(?:@testable\s+|@_exported\s+)?import\s+TribeBoardJoinKit\b"#
    static let lookupPatterns: [(pattern: String, what: String)] = [
        (#"func\s+([A-Za-z_]*[Ff]amil[A-Za-z_]*\s*\(\s*(?:by[Cc]ode|with[Cc]ode|for[Cc]ode|code)\b)"#, "looks a family up by code"),
        (#"(CKQuery\s*\(\s*recordType\s*:\s*"Family")"#, "queries the Family record type"),
    ]
    static let publicPatterns = [
        #"(publicCloudDatabase)"#, #"(\.public\s*\))"#, #"(databaseScope\s*:\s*\.public)"#
    ]
    static let privatePatterns = [
        #"(privateCloudDatabase)"#, #"(CKRecordZone\s*\.\s*ID\s*\(\s*zoneName\s*:[^)\n]*)"#,
        #"(CKRecordZone\s*\(\s*zoneName\s*:[^)\n]*)"#,
        #"(cloudKitDatabase\s*:\s*(?:[^,;(){}]*[?:]\s*)?\.\s*private\s*\([^)\n]*\))"#
    ]

    /// Scans `files` once each (the app targets' own and linked code).
    package static func scan(_ files: [String], display: (String) -> String) -> FamilyLookupScan {
        var result = FamilyLookupScan()
        for path in Set(files).sorted() {
            guard
                let data = try? ProjectFileReader.read(
                    path, limit: SwiftContainerLiterals.maxFileSize)
            else { continue }
            let raw = String(decoding: data, as: UTF8.self)
            guard
                ["TribeBoardJoinKit", "Family", "CloudDatabase", "CKRecordZone", "cloudKitDatabase"]
                    .contains(where: raw.contains)
            else { continue }
            var lexer = SwiftLiteralLexer(Array(data))
            _ = lexer.stringLiterals()
            let code = String(decoding: lexer.code, as: UTF8.self)
            let shown = display(path)
            let signals = { (pattern: String, what: String?) -> [Signal] in
                matches(pattern, code).map {
                    Signal(
                        what: what ?? $0.text, location: SourceLocation(path: shown, line: $0.line))
                }
            }
            result.kitImports += signals(kit, "import TribeBoardJoinKit")
            for (pattern, what) in lookupPatterns {
                result.lookups += matches(pattern, code).map {
                    Signal(
                        what: "\($0.text.hasPrefix("CKQuery") ? "" : "func ")\($0.text)…): \(what)",
                        location: SourceLocation(path: shown, line: $0.line))
                }
            }
            for pattern in publicPatterns { result.publicDatabase += signals(pattern, nil) }
            for pattern in privatePatterns { result.privateDatabase += signals(pattern, nil) }
        }
        return result
    }

    /// Each match's first group (or the whole match) with its line.
    private static func matches(_ pattern: String, _ text: String) -> [(text: String, line: Int)] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            match in
            let group = match.numberOfRanges > 1 ? 1 : 0
            guard let range = Range(match.range(at: group), in: text) else { return nil }
            let line = text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            return (
                String(text[range]).replacingOccurrences(
                    of: #"\s+"#, with: " ", options: .regularExpression), line
            )
        }
    }
}
