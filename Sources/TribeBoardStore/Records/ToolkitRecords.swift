import GRDB
import TribeBoardDomain

/// Why a record waits or was set aside (`sync_state.status`).
public enum SyncStatus: String, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
    /// Failed, tried again after a backoff.
    case retrying
    /// Failed permanently or too often: waits for a person (`resync --release`).
    case quarantined
    /// Its code is held by another record in CloudKit: never uploaded as is.
    case conflict
}

extension SyncTable: Decodable, DatabaseValueConvertible {}

/// A row of `sync_state`: resync's bookkeeping for a record that failed at least once.
public struct SyncStateEntry: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "sync_state"

    public var table: SyncTable
    public var recordID: String
    public var status: SyncStatus
    public var attempts: Int
    public var lastError: String?
    public var lastAttemptAt: Timestamp?
    public var nextAttemptAt: Timestamp?
    /// The record in CloudKit that holds this family's code, for a conflict.
    public var conflictWith: String?

    enum CodingKeys: String, CodingKey {
        case table = "record_table", recordID = "record_id", status, attempts, lastError = "last_error"
        case lastAttemptAt = "last_attempt_at", nextAttemptAt = "next_attempt_at", conflictWith = "conflict_with"
    }
}

/// A row of `creation_log`: one transition of one family's creation.
public struct CreationLogEntry: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "creation_log"

    /// Nil until inserted.
    public var id: Int64?
    /// Nil for a row that failed before it had a family.
    public var familyID: FamilyID?
    public var importKey: String?
    public var sourceLine: Int?
    public var state: FamilyCreationState
    public var progress: Double
    public var error: String?
    public var at: Timestamp

    enum CodingKeys: String, CodingKey {
        case id, state, progress, error, at
        case familyID = "family_id", importKey = "import_key", sourceLine = "source_line"
    }
}

/// A row of `code_repairs`: a code an audit repair replaced, and which family kept it.
public struct CodeRepairEntry: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "code_repairs"

    public var id: Int64?
    public var familyID: FamilyID
    public var oldCode: String
    public var newCode: String
    public var keptBy: FamilyID
    public var reason: String
    public var at: Timestamp

    enum CodingKeys: String, CodingKey {
        case id, reason, at
        case familyID = "family_id", oldCode = "old_code", newCode = "new_code", keptBy = "kept_by"
    }
}
