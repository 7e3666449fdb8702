import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardAudit
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

    /// The snapshot error an audit of `path` stops with, if any.
    static func snapshotError(_ workspace: AuditWorkspace, path: String) async throws -> SnapshotError? {
        do {
            _ = try await AuditWorkspace.run(AuditRequest(storePath: workspace.provision.storePath, remote: .snapshot(path: path)))
            return nil
        } catch AuditError.snapshot(let error) {
            return error
        }
    }

    @Test("/dev/zero as a snapshot stops at the 4 MB line bound (it grew by 400 MB/s)")
    func devZero() async throws {
        let workspace = try AuditWorkspace(families: 1)
        #expect(try await Self.snapshotError(workspace, path: "/dev/zero") == .lineTooLong(path: "/dev/zero", line: 1))
    }

    @Test("/dev/urandom as a snapshot is not one: it stops after 100,000 unreadable lines (it hung for ever)")
    func devUrandom() async throws {
        let workspace = try AuditWorkspace(families: 1)
        let error = try await Self.snapshotError(workspace, path: "/dev/urandom")
        guard case .notASnapshot(let path, let line)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(path == "/dev/urandom" && line >= SnapshotReader.maxUnreadableLines)
    }

    @Test("a snapshot with more lines than the bound stops with tooManyLines, records before it read")
    func lineBound() throws {
        var workspace = try AuditWorkspace(families: 1)
        for index in 0..<11 { try workspace.snapshot.append(SnapshotFixture.family(code: "LIM\(234 + index)")) }
        try workspace.snapshot.write(to: workspace.snapshotPath)
        var read = 0
        var reader = SnapshotReader(path: workspace.snapshotPath)
        reader.lineLimit = 10
        #expect(throws: SnapshotError.tooManyLines(path: workspace.snapshotPath)) {
            try reader.read({ _ in read += 1 }, malformed: { _ in })
        }
        #expect(read == 10)
        reader.lineLimit = 11
        try reader.read({ _ in read += 1 }, malformed: { _ in })
        #expect(read == 21)
    }
}

