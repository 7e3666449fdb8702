import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport
import TribeBoardRemote

/// Records as the app's builds wrote them, current or legacy type, for seeding an emulator.
enum MigrateFixtures {
    static let day: Double = 86_400_000

    static func family(_ id: String, code: String, createdAt: Double, legacy: Bool = false, name: String? = nil) -> CloudKitRecord {
        CloudKitRecord(recordName: id, recordType: legacy ? "CKFamily" : "Family", fields: [
            "name": .string(name ?? "Family \(id.prefix(4))"), "code": .string(code),
            "createdByUserId": .string("00000000-0000-0000-0000-000000000001"),
            "createdAt": .timestamp(milliseconds: Int64(createdAt)),
        ])
    }

    static func profile(_ id: String, legacy: Bool = false) -> CloudKitRecord {
        CloudKitRecord(recordName: id, recordType: legacy ? "CKUserProfile" : "UserProfile", fields: [
            "displayName": .string("Person \(id.prefix(4))"), "appleUserIdHash": .string(String(repeating: "a", count: 52) + hexTail(id)),
            "createdAt": .timestamp(milliseconds: 1_700_000_000_000),
        ])
    }

    /// 12 hex digits from an id (a SHA-256 is hex): its last 12 when they are, else its bytes in hex.
    static func hexTail(_ id: String) -> String {
        let tail = id.suffix(12).lowercased()
        if tail.count == 12, tail.allSatisfy(\.isHexDigit) { return tail }
        let hex = id.utf8.map { String(format: "%02x", $0) }.joined()
        return String((String(repeating: "0", count: 12) + hex).suffix(12))
    }

    static func membership(_ id: String, family: String, user: String, role: String = "parent_admin", legacy: Bool = false) -> CloudKitRecord {
        CloudKitRecord(recordName: id, recordType: legacy ? "CKMembership" : "Membership", fields: [
            "role": .string(role), "status": .string("active"), "joinedAt": .timestamp(milliseconds: 1_700_000_000_000),
            "family": .reference(family), "user": .reference(user),
        ])
    }

    static func uuid(_ n: Int, _ kind: Int = 0) -> String {
        String(format: "%08X-0000-4000-8000-%012X", kind, n)
    }

    /// `count` families of one type, each with an admin profile and membership.
    static func families(_ count: Int, legacy: Bool, offset: Int = 0, kindBase: Int = 0) -> [CloudKitRecord] {
        var records: [CloudKitRecord] = []
        for n in offset..<(offset + count) {
            let family = uuid(n, kindBase + 1), user = uuid(n, kindBase + 2)
            records.append(Self.family(family, code: String(format: "M%05d", n), createdAt: 1_600_000_000_000 + Double(n) * 1000, legacy: legacy))
            records.append(profile(user, legacy: legacy))
            records.append(membership(uuid(n, kindBase + 3), family: family, user: user, legacy: legacy))
        }
        return records
    }

    /// The name migrate gives a legacy record's copy; one no record has if it cannot be derived
    /// (then the test fails on the record it does not find).
    static func copy(_ legacyName: String) -> String { (try? LegacyCopyName.of(legacyName)) ?? "underivable \(legacyName)" }

    /// migrate's --json report (another command's: `result.report(Mirror.self)`).
    static func json(_ result: ProcessRunner.Result) throws -> MigrateReportMirror {
        try result.report(MigrateReportMirror.self)
    }

    static func counts(_ report: MigrateReportMirror) -> [String: Int] { report.counts }

    /// The fields of every record, by name: what "the same records" means across two containers.
    static func contents(_ records: [CloudKitRecord]) -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var result: [String: String] = [:]
        for record in records {
            let fields = (try? encoder.encode(record.fields ?? [:])).map { String(decoding: $0, as: UTF8.self) } ?? ""
            result[record.recordName] = "\(record.recordType ?? "") \(fields)"
        }
        return result
    }

    static func sqlite(_ store: String, _ sql: String) throws -> [String] {
        let result = try ProcessRunner.run("/usr/bin/sqlite3", ["-readonly", store, sql])
        try #require(result.status == 0, "sqlite3: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
