import Foundation
import Testing
@testable import TribeBoardDoctor

/// A check id in the catalogue (and docs/doctor.md) that no check reports is a promise to scripts
/// nothing keeps: every case of `DoctorCheckID` is named by the doctor's code outside the
/// catalogue (a `DoctorCheck(.id, …)`, a probe's id).
struct CheckIDUseTests {
    static let folder = CatalogueTests.root.appendingPathComponent("Sources/TribeBoardDoctor")

    /// Each case's Swift name by its raw value, from `case name = "raw"` in DoctorCheckID.swift.
    static func caseNames() throws -> [String: String] {
        let source = try String(contentsOf: folder.appendingPathComponent("DoctorCheckID.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"case (\w+) = "([^"]+)""#)
        var names: [String: String] = [:]
        for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
            guard let name = Range(match.range(at: 1), in: source), let raw = Range(match.range(at: 2), in: source) else { continue }
            names[String(source[raw])] = String(source[name])
        }
        return names
    }

    @Test func everyCheckIDIsReportedBySomeCheck() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasSuffix("DoctorCheckID.swift") }
        let code = try files.map { try String(contentsOf: Self.folder.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        let names = try Self.caseNames()
        #expect(files.count >= 10 && names.count == DoctorCheckID.allCases.count)
        let unused = DoctorCheckID.allCases.filter { id in
            guard let name = names[id.rawValue] else { return true }
            return code.range(of: #"\.\#(name)\b"#, options: .regularExpression) == nil
        }
        #expect(unused.isEmpty, "no check reports \(unused.map(\.rawValue))")
    }
}
