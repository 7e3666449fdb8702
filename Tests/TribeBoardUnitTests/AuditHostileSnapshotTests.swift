import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardStore

/// Numbers and names from outside the store, as a broken writer leaves them in a snapshot.
@Suite("Audit: hostile snapshot values")
struct AuditHostileSnapshotTests {
    /// A Family record line with a raw `createdAt` value (or `created.timestamp` when `serverStamp`).
    static func line(id: String = UUID().uuidString, code: String, createdAt: String, serverStamp: Bool = false) -> String {
        let fields = #""code":{"type":"STRING","value":"\#(code)"},"name":{"type":"STRING","value":"Broken"}"#
        if serverStamp { return #"{"recordName":"\#(id)","recordType":"Family","fields":{\#(fields)},"created":{"timestamp":\#(createdAt)}}"# }
        return #"{"recordName":"\#(id)","recordType":"Family","fields":{\#(fields),"createdAt":{"type":"TIMESTAMP","value":\#(createdAt)}}}"#
    }

    @Test("an out-of-range creation date is unknown, said so, and never keeps a code in a repair",
          arguments: [("1e300", false), ("-1e300", false), (#""NaN""#, false), ("9223372036854775807", false), ("-5", false),
                      ("1.7976931348623157e308", false), ("-1e300", true), ("18446744073709551615", false)])
    func outOfRangeCreationDate(value: String, serverStamp: Bool) async throws {
        var workspace = try AuditWorkspace(families: 1)
        let family = try #require(try workspace.families().first)
        let remoteID = UUID().uuidString
        let line = workspace.snapshot.appendRaw(Self.line(id: remoteID, code: family.code, createdAt: value, serverStamp: serverStamp))
        let report = try await workspace.audit { $0.repair = .propose }

        let invalid = try #require(report.findings(.invalidValue).first, "\(report.findings)")
        #expect(invalid.families.first?.id == remoteID && invalid.families.first?.snapshotLine == line)
        #expect(invalid.message.contains(serverStamp ? "created.timestamp" : "createdAt"), "\(invalid.message)")
        let duplicate = try #require(report.findings(.duplicateLocalRemote).first)
        #expect(duplicate.families.first?.id == family.id, "the local family, with a real date, is the oldest")
        #expect(duplicate.families.last?.createdAt == nil, "no year -4712")
        #expect(report.repair?.changes.isEmpty == true, "the local family keeps its code")
        #expect(report.repair?.manual.map(\.recordName) == [remoteID])
    }

    @Test("a number no 64-bit type holds makes its line unreadable, and the rest is audited")
    func hugeNumberLine() async throws {
        var workspace = try AuditWorkspace(families: 1)
        let family = try #require(try workspace.families().first)
        let line = workspace.snapshot.appendRaw(Self.line(code: "HUGE234", createdAt: "1e400"))
        try workspace.snapshot.append(SnapshotFixture.family(id: family.id, code: family.code))
        let report = try await workspace.audit()
        #expect(report.findings(.unreadableSnapshotLine).first?.message.contains("line \(line)") == true, "\(report.findings)")
        #expect(report.scanned.remoteRecords["Family"] == 1)
    }

    @Test("a record name read twice is an error finding with both lines, and the audit goes on")
    func duplicateRecordNames() async throws {
        var workspace = try AuditWorkspace(families: 1)
        let family = try #require(try workspace.families().first)
        try workspace.snapshot.append(SnapshotFixture.family(id: family.id, code: family.code))
        try workspace.snapshot.append(SnapshotFixture.family(code: "OTHER234"))
        try workspace.snapshot.append(SnapshotFixture.family(id: family.id, code: "CHANGED2"))
        try workspace.snapshot.append(SnapshotFixture.family(code: "lower234"))
        let report = try await workspace.audit()
        let repeated = report.findings(.duplicateRecordName)
        #expect(repeated.count == 1)
        #expect(repeated.first?.severity == .error)
        #expect(repeated.first?.families.map(\.snapshotLine) == [1, 3])
        #expect(repeated.first?.families.allSatisfy { $0.id == family.id } == true)
        #expect(report.findings(.invalidFormat).count == 1, "the rest of the file was audited")
        #expect(report.reaches(.error))
    }
}
