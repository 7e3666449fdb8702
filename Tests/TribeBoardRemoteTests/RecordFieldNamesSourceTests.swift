import Foundation
import Testing
@testable import TribeBoardRemote

/// A record field's name is written in one place, its catalogue (`FamilyField`, `ProfileField`,
/// `MembershipField`, `CodeClaim.familyField`): a module that reads or writes a record field by a
/// name spelt out again would go on reading the old field after a rename, with no test failing.
/// This scan finds a field name spelt as a literal where a record is read, written or queried.
struct RecordFieldNamesSourceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The catalogues themselves, and what writes records of its own on purpose (the emulator's
    /// wire types, the tests' fixtures, which stand for other writers).
    static let homes = ["TribeBoardRemote/RemoteRecords.swift", "TribeBoardRemote/CodeClaim.swift"]
    static let skippedModules = ["TribeBoardCloudKitEmulator", "TribeBoardCloudFixtures", "TribeBoardStoreFixtures",
                                 "TribeBoardTestSupport", "TribeBoardReportMirrors", "TribeBoardXcodeProject"]

    static var fieldNames: Set<String> {
        Set(FamilyField.allCases.map(\.rawValue) + ProfileField.allCases.map(\.rawValue)
            + MembershipField.allCases.map(\.rawValue) + [CodeClaim.familyField])
    }

    /// Where a record's field is named: its accessors, its fields dictionary, a query's filter,
    /// a list of fields walked in turn.
    static let patternTexts = [
        #"\.(?:string|reference)\("(\w+)"\)"#,
        #"reference\([\w$.]+, "(\w+)"\)"#,
        #"\("(\w+)", \.\w+\)"#,
        #"== \["(\w+)"\]"#,
        #"fields\??\["(\w+)"\]"#,
        #"\.(?:equals|notEquals|references|isIn|notBeginsWith|after)\("(\w+)""#,
        #"in \[(?:"\w+", )*"(\w+)"(?:, "\w+")*\]"#,
        #"in \["(\w+)", "\w+"\]"#,
        #"static let \w+ = "(\w+)"$"#,
    ]
    static let patterns = patternTexts.compactMap { try? NSRegularExpression(pattern: $0) }

    /// Each line of `text` (1-based) that names a record field by a literal, with the name.
    static func spelledOut(in text: String) -> [(line: Int, name: String)] {
        var found: [(Int, String)] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            let range = NSRange(code.startIndex..., in: code)
            for pattern in patterns {
                for match in pattern.matches(in: code, range: range) {
                    guard let name = Range(match.range(at: 1), in: code).map({ String(code[$0]) }),
                          fieldNames.contains(name) else { continue }
                    found.append((index + 1, name))
                }
            }
        }
        return found
    }

    @Test func recordFieldsAreNamedByTheirCatalogues() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 100, "the Sources tree was read: \(files.count) files")
        var found: [String] = []
        for file in files {
            let path = file.path.replacingOccurrences(of: sources.path + "/", with: "")
            if Self.homes.contains(path) || Self.skippedModules.contains(where: { path.hasPrefix($0 + "/") }) { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            found += Self.spelledOut(in: text).map { "\(path):\($0.line) \"\($0.name)\"" }
        }
        #expect(found.isEmpty, "record fields spelt out instead of named by their catalogue: \(found)")
    }

    /// The scan sees each way a field is named, and not a plist key or a CSV column.
    @Test func theScanFindsFieldNamesWhereRecordsAreRead() {
        #expect(Self.patterns.count == Self.patternTexts.count, "every pattern compiles")
        let source = """
            let code = record.string("code")
            let user = RemoteCase.reference($0, "user")
            copy.fields?["code"] = .string(code)
            let query = CloudKitQuery(recordType: type, filterBy: [.equals("code", code)])
            for field in ["family", "user"] {
            let fields = [("family", .family), ("user", .userProfile)]
            // record.string("name") in a comment
            let environment = file.string("aps-environment")
            let header = ["line", "external_id", "family_id", "family_name", "code"]
            let name = record.string(FamilyField.name.rawValue)
            """
        #expect(Self.spelledOut(in: source).map(\.line) == [1, 2, 3, 4, 5, 5, 6, 6])
    }
}
