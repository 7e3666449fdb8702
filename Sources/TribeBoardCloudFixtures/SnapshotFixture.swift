import Foundation
import TribeBoardTestSupport
import TribeBoardCloudKit
import TribeBoardRemote
import TribeBoardDomain

/// Remote snapshot files for audit tests: CloudKit record dictionaries, one a line.
package struct SnapshotFixture {
    package private(set) var lines: [String] = []

    package init() {}

    package static func family(id: String = UUID().uuidString, code: String, name: String = "Remote Family",
                              createdAt: Date = Date(), type: String = RecordMapping.familyType) -> CloudKitRecord {
        var record = RecordMapping.family(id: FamilyID(rawValue: id), name: name, code: code,
                                          createdByUserId: UserID(rawValue: UUID().uuidString), createdAt: Timestamp(createdAt))
        record.recordType = type
        return record
    }

    package mutating func append(_ record: CloudKitRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        lines.append(String(decoding: try encoder.encode(record), as: UTF8.self))
    }

    /// A line that is not a record; returns its line number.
    @discardableResult
    package mutating func appendRaw(_ line: String) -> Int {
        lines.append(line)
        return lines.count
    }

    package func write(to path: String) throws {
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
    }
}
