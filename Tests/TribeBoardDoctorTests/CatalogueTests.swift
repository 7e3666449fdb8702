import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardDoctor

/// The doctor's check ids against what they must agree with and did not come from: the ids the
/// docs promise scripts.
@Suite struct CatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The first cell of each row of docs/doctor.md's "Check ids" table, without backticks.
    static func documentedCheckIDs() throws -> [String] {
        let text = try String(contentsOfFile: root.appendingPathComponent("docs/doctor.md").path, encoding: .utf8)
        guard let start = text.range(of: "## Check ids") else { return [] }
        let section = text[start.upperBound...].prefix { $0 != "#" }
        return section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `") else { return nil }
            return line.split(separator: "`").dropFirst().first.map(String.init)
        }
    }

    @Test func everyCheckIDIsDocumentedInChecklistOrder() throws {
        let documented = try Self.documentedCheckIDs()
        #expect(documented == DoctorCheckID.allCases.map(\.rawValue))
    }

    /// Probe ids keep the `remote.schema.TYPE.FIELD` form scripts were given before the catalogue.
    @Test func schemaProbesAreNamedAfterTheirQuery() {
        for probe in RemoteSchemaChecks.probes {
            #expect(probe.id.rawValue == "remote.schema.\(probe.recordType.name).\(probe.codeFilter ? "code" : "recordID")")
        }
        #expect(Set(RemoteSchemaChecks.probes.map(\.id)).count == RemoteSchemaChecks.probes.count)
    }

    /// The id prefixes of the catalogue (`store.`, `family.`…): a backticked word of the prose
    /// starting with one of them names a check.
    static var prefixes: Set<String> {
        Set(DoctorCheckID.allCases.compactMap { $0.rawValue.split(separator: ".").first.map { String($0) + "." } })
    }

    /// The check ids a passage of docs/doctor.md names in backticks (of the given prefixes).
    static func namedCheckIDs(in passage: Substring, prefixes: Set<String>) -> Set<String> {
        let words = passage.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        return Set(words.filter { word in
            prefixes.contains { word.hasPrefix($0) } && word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." }
        })
    }

    /// The checklist table's row of each section, and `doctor family`'s paragraph, say in words
    /// what each check of theirs checks, its id beside the words: a check added without its
    /// words, or words naming an id that is gone or misspelt, fail here.
    @Test func eachSectionsProseNamesItsChecksAndNoOthers() throws {
        let text = try String(contentsOfFile: Self.root.appendingPathComponent("docs/doctor.md").path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var passages: [(prefix: String, text: Substring)] = []
        for section in DoctorSection.allCases {
            let row = try #require(lines.first { $0.hasPrefix("| \(section.title) ") }, "no row for \(section.title)")
            passages.append((section.rawValue + ".", row))
        }
        let family = try #require(text.range(of: "`tribeboard doctor family CODE_OR_ID` looks"), "doctor family's paragraph")
        let paragraph = text[family.lowerBound...]
        passages.append(("family.", paragraph[..<(paragraph.range(of: "\n\n")?.lowerBound ?? paragraph.endIndex)]))
        var covered = Set<String>()
        for (prefix, passage) in passages {
            // The family paragraph also names report keys (`remote.caller`): only its own ids count.
            let named = Self.namedCheckIDs(in: passage, prefixes: prefix == "family." ? [prefix] : Self.prefixes)
            let catalogue = Set(DoctorCheckID.allCases.map(\.rawValue).filter { $0.hasPrefix(prefix) })
            #expect(!catalogue.isEmpty, "\(prefix): no check in the catalogue")
            #expect(catalogue.subtracting(named).isEmpty, "\(prefix) checks without words: \(catalogue.subtracting(named).sorted())")
            #expect(named.subtracting(catalogue).isEmpty, "\(prefix) words naming no check of it: \(named.subtracting(catalogue).sorted())")
            covered.formUnion(catalogue)
        }
        #expect(covered == Set(DoctorCheckID.allCases.map(\.rawValue)), "a prefix with no passage")
    }
}
