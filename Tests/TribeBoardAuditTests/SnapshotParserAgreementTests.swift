import CSnapshotParser
import Foundation
import Testing
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardTestSupport
@testable import TribeBoardAudit

/// The snapshot parser (C++, simdjson) and the Remote module's decoder (`RemoteFamily`, what a live
/// read uses) read the same fields with the same rule: the same line gives the same summary
/// either way, so an audit of a snapshot and a live audit of the same records agree.
struct SnapshotParserAgreementTests {
    static func family(_ fields: String, created: String? = nil, type: String = "Family", name: String = "F1") -> String {
        let stamp = created.map { #","created":{"timestamp":\#($0)}"# } ?? ""
        return #"{"recordName":"\#(name)","recordType":"\#(type)","fields":{\#(fields)}\#(stamp)}"#
    }

    static let code = #""code":{"type":"STRING","value":"QX7K2M"}"#
    static let named = #""name":{"type":"STRING","value":"Nguyễn 山田"}"#

    static func createdAt(_ value: String) -> String { #""createdAt":{"type":"TIMESTAMP","value":\#(value)}"# }

    /// Lines a broken or hostile writer can leave, each with a field the two readers could read
    /// apart: the bound on both sides of it, the fallback to the server's stamp and when it is
    /// not taken (a `createdAt` unusable or without a value), the server's stamp in the last
    /// second of 9999, a code that is a number or has no value, names in other scripts, a legacy
    /// type, no name.
    static let lines: [String] = [
        family("\(code),\(named),\(createdAt("1764000000123"))"),
        family("\(code),\(createdAt("1764000000123.75"))"),
        family("\(code),\(createdAt("1e300"))"),
        family("\(code),\(createdAt(#""NaN""#))"),
        family("\(code),\(createdAt("-5"))"),
        family("\(code),\(createdAt("253402300799999"))"),
        family("\(code),\(createdAt("253402300800000"))"),
        family(code, created: "1764000000000"),
        family(code, created: "-5"),
        family(code, created: "253402300799500"),
        family("\(code),\(createdAt("1764000000001"))", created: "1700000000000"),
        family("\(code),\(createdAt("1e300"))", created: "1700000000000"),
        family(#"\#(code),"createdAt":{"type":"TIMESTAMP"}"#, created: "1700000000000"),
        family("\(code),\(createdAt("null"))", created: "1700000000000"),
        family(#""code":{"type":"STRING"},\#(named)"#),
        family(#""code":{"type":"NUMBER","value":123456},\#(named)"#),
        family(named),
        family("\(code),\(named)", type: "CKFamily"),
        family(code, name: ""),
    ]

    struct Read: Equatable {
        var recordName, recordType: String
        var code, name: String?
        var createdAt: Int64?
        var codeIsNotString: Bool
        /// The sentence up to its value: the parser's sentence leaves the value out.
        var problem: String?

        init(_ summary: RemoteRecordSummary) {
            (recordName, recordType, code, name) = (summary.recordName, summary.recordType, summary.code, summary.name)
            (createdAt, codeIsNotString) = (summary.createdAtMilliseconds, summary.codeIsNotString)
            problem = summary.invalidValue.map { String($0.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func theParserAndTheDecoderReadEveryLineAlike() throws {
        let folder = try TemporaryDirectory("snapshot-agreement")
        let path = try folder.write("snapshot.jsonl", Self.lines.joined(separator: "\n") + "\n")
        var parsed: [Read] = []
        try SnapshotReader(path: path).read({ parsed.append(Read($0)) }, malformed: { Issue.record("line \($0.line): \($0.reason)") })
        let decoded = try Self.lines.map { line in
            Read(RemoteRecordSummary(try JSONDecoder().decode(CloudKitRecord.self, from: Data(line.utf8))))
        }
        #expect(parsed.count == Self.lines.count)
        for (index, (snapshot, live)) in zip(parsed, decoded).enumerated() {
            #expect(snapshot == live, "line \(index + 1): \(Self.lines[index])")
        }
        // The lines reach every branch: dates kept, dates refused, and none at all.
        #expect(decoded.contains { $0.createdAt != nil } && decoded.contains { $0.problem != nil })
        #expect(decoded.contains { $0.createdAt == nil && $0.problem == nil })
    }

    /// One bound of dates: the parser's constant is the domain's.
    @Test func theParsersDateBoundIsTheDomains() {
        #expect(TB_SNAPSHOT_MIN_MS == Timestamp.supportedMilliseconds.lowerBound)
        #expect(TB_SNAPSHOT_MAX_MS == Timestamp.supportedMilliseconds.upperBound)
    }
}
