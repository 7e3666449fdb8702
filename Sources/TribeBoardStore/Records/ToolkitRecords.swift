import GRDB
import TribeBoardDomain

/// Why a record waits or was set aside (`sync_state.status`).
package enum SyncStatus: String, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
    /// Failed, tried again after a backoff.
    case retrying
    /// Failed permanently or too often: waits for a person (`resync --release`).
    case quarantined
    /// Its code is held by another record in CloudKit: never uploaded as is.
    case conflict
}

extension SyncTable: Decodable, DatabaseValueConvertible {}

/// A row of `sync_state`: resync's bookkeeping for a record that failed at least once.
package struct SyncStateEntry: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "sync_state"

    package var table: SyncTable
    package var recordID: String
    package var status: SyncStatus
    package var attempts: Int
    package var lastError: String?
    package var lastAttemptAt: Timestamp?
    package var nextAttemptAt: Timestamp?
    /// The record in CloudKit that holds this family's code, for a conflict.
    package var conflictWith: String?

    enum CodingKeys: String, CodingKey {
        case table = "record_table", recordID = "record_id", status, attempts, lastError = "last_error"
        case lastAttemptAt = "last_attempt_at", nextAttemptAt = "next_attempt_at", conflictWith = "conflict_with"
    }
}

/// A row of `creation_log`: one transition of one family's creation.
struct CreationLogEntry: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "creation_log"

    /// Nil until inserted.
    package var id: Int64?
    /// Nil for a row that failed before it had a family.
    package var familyID: FamilyID?
    package var importKey: String?
    package var sourceLine: Int?
    package var state: FamilyCreationState
    package var progress: Double
    package var error: String?
    package var at: Timestamp

    enum CodingKeys: String, CodingKey {
        case id, state, progress, error, at
        case familyID = "family_id", importKey = "import_key", sourceLine = "source_line"
    }
}
