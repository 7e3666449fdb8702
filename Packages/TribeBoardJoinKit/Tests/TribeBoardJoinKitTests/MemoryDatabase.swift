import Foundation
@testable import TribeBoardJoinKit

/// A database in memory with the public database's creator rule, for the kit's own flow tests.
/// One instance per signed-in user; they share the storage.
final class MemoryStorage: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [String: JoinRecord] = [:]

    func with<T>(_ body: (inout [String: JoinRecord]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&records)
    }
}

struct MemoryDatabase: JoinDatabase {
    let storage: MemoryStorage
    let user: String

    func fetch(_ names: [String]) async throws -> [String: JoinRecord] {
        storage.with { records in records.filter { names.contains($0.key) } }
    }

    func create(_ record: JoinRecord) async throws -> JoinCreateResult {
        storage.with { records in
            if records[record.name] != nil { return .alreadyExists }
            var stored = record
            stored.creator = user
            records[record.name] = stored
            return .created(stored)
        }
    }

    func memberships(ofFamily familyName: String) async throws -> [JoinRecord] {
        storage.with { records in
            records.values.filter { $0.type == JoinRecordType.membership && $0.reference("family") == familyName }
        }
    }
}
