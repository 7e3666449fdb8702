import Foundation

/// A record dictionary as "CloudKit Web Services Reference" describes it (Record Dictionary,
/// Field Value Dictionary), written from Apple's pages rather than from the client.
public struct WireRecord: Codable, Sendable, Equatable {
    public struct Field: Codable, Sendable, Equatable {
        public var value: WireValue
        /// STRING, INT64, DOUBLE, BYTES, TIMESTAMP, REFERENCE, ASSET, LOCATION and the `_LIST`
        /// forms; optional on requests (the server infers it), always sent on responses.
        public var type: String?

        public init(value: WireValue, type: String?) {
            self.value = value
            self.type = type
        }
    }

    /// `created` and `modified`: when, and by which user record.
    public struct Stamp: Codable, Sendable, Equatable {
        public var timestamp: Int64?
        public var userRecordName: String?

        public init(timestamp: Int64?, userRecordName: String?) {
            self.timestamp = timestamp
            self.userRecordName = userRecordName
        }
    }

    public var recordName: String
    public var recordType: String?
    public var fields: [String: Field]?
    public var recordChangeTag: String?
    public var created: Stamp?
    public var modified: Stamp?
    public var deleted: Bool?

    public init(
        recordName: String, recordType: String?, fields: [String: Field]?,
        recordChangeTag: String? = nil,
        created: Stamp? = nil
    ) {
        self.recordName = recordName
        self.recordType = recordType
        self.fields = fields
        self.recordChangeTag = recordChangeTag
        self.created = created
        self.modified = created
    }

    enum CodingKeys: String, CodingKey {
        case recordName, recordType, fields, recordChangeTag, created, modified, deleted
    }

    /// A record sent without `recordName` reads as "" (a create then gets a name assigned).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordName = try container.decodeIfPresent(String.self, forKey: .recordName) ?? ""
        recordType = try container.decodeIfPresent(String.self, forKey: .recordType)
        fields = try container.decodeIfPresent([String: Field].self, forKey: .fields)
        recordChangeTag = try container.decodeIfPresent(String.self, forKey: .recordChangeTag)
        created = try container.decodeIfPresent(Stamp.self, forKey: .created)
        modified = try container.decodeIfPresent(Stamp.self, forKey: .modified)
        deleted = try container.decodeIfPresent(Bool.self, forKey: .deleted)
    }

    /// A delete's answer: the name and `deleted: true`.
    static func deletedMarker(_ name: String) -> WireRecord {
        var record = WireRecord(recordName: name, recordType: nil, fields: nil)
        record.deleted = true
        return record
    }
}

/// `{"zoneName", "ownerRecordName"?}`.
struct WireZoneID: Codable, Equatable {
    var zoneName: String
    var ownerRecordName: String?
}
