/// A record as the kit reads and writes it: the Web Services JSON and `CKRecord` both map to it.
public struct JoinRecord: Sendable, Equatable {
    public var name: String
    public var type: String
    public var fields: [String: JoinField]
    /// Who created the record (`created.userRecordName`, `CKRecord.creatorUserRecordID`): the
    /// one fact about a record its writer cannot choose. Nil on a record about to be written.
    public var creator: String?

    public init(name: String, type: String, fields: [String: JoinField], creator: String? = nil) {
        self.name = name
        self.type = type
        self.fields = fields
        self.creator = creator
    }

    public func string(_ field: String) -> String? {
        if case .string(let value)? = fields[field] { return value }
        return nil
    }

    public func reference(_ field: String) -> String? {
        if case .reference(let value)? = fields[field] { return value }
        return nil
    }

    public func milliseconds(_ field: String) -> Int64? {
        if case .timestamp(let value)? = fields[field] { return value }
        return nil
    }
}

/// The field types the app's records use.
public enum JoinField: Sendable, Equatable {
    case string(String)
    /// TIMESTAMP: milliseconds since 1970 (`Date` in the native framework).
    case timestamp(milliseconds: Int64)
    /// REFERENCE with the DELETE_SELF action, as the app writes a membership's family and user.
    case reference(String)
}

/// What a create answered: the record is there now, or a record of that name already was.
public enum JoinCreateResult: Sendable, Equatable {
    case created(JoinRecord)
    /// EXISTS in Web Services; `CKError.serverRecordChanged` natively.
    case alreadyExists
}

/// The database the kit works against: the public database's default zone, where the toolkit's
/// families and claims live. Errors are the adapter's own (native `CKError`s in the app), passed
/// through untouched.
public protocol JoinDatabase: Sendable {
    /// The records of these names that exist; a name with no record is absent from the answer.
    func fetch(_ names: [String]) async throws -> [String: JoinRecord]
    /// Creates the record; never overwrites one of the same name.
    func create(_ record: JoinRecord) async throws -> JoinCreateResult
    /// `Membership` records whose `family` references this family. A query: CloudKit's index
    /// lags, so a membership written seconds ago may be missing. Nothing the kit guarantees
    /// rests on it.
    func memberships(ofFamily familyName: String) async throws -> [JoinRecord]
}
