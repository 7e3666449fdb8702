import Foundation

/// One field of a record type: its type (`STRING`, `STRING_LIST`, `REFERENCE`...) and indexes.
public struct SchemaField: Codable, Sendable, Equatable {
    public var type: String
    public var queryable = false
    public var sortable = false
    public var searchable = false

    public init(
        type: String, queryable: Bool = false, sortable: Bool = false, searchable: Bool = false
    ) {
        self.type = type
        self.queryable = queryable
        self.sortable = sortable
        self.searchable = searchable
    }
}

/// What a security role may do with a record type's records.
public enum Permission: String, Codable, Sendable, CaseIterable {
    case read = "READ", create = "CREATE", write = "WRITE"
}

public struct RecordTypeSchema: Codable, Sendable, Equatable {
    public var fields: [String: SchemaField]
    /// Role (`_world`, `_icloud`, `_creator` or a custom role) to what it is granted.
    public var grants: [String: Set<Permission>]

    /// The system fields CloudKit gives every type it creates, without indexes: Apple's
    /// "Inspecting and Editing an iCloud Container's Schema" says to add QUERYABLE to recordName.
    public static let systemFields: [String: SchemaField] = [
        "___createTime": SchemaField(type: "TIMESTAMP"),
        "___createdBy": SchemaField(type: "REFERENCE"),
        "___etag": SchemaField(type: "STRING"), "___modTime": SchemaField(type: "TIMESTAMP"),
        "___modifiedBy": SchemaField(type: "REFERENCE"),
        "___recordID": SchemaField(type: "REFERENCE")
    ]

    /// The public database's default security roles: everyone reads, any iCloud user creates,
    /// only the creator writes.
    public static let defaultGrants: [String: Set<Permission>] = [
        "_world": [.read], "_icloud": [.create], "_creator": [.write]
    ]

    public init(
        fields: [String: SchemaField] = [:],
        grants: [String: Set<Permission>] = RecordTypeSchema.defaultGrants
    ) {
        self.fields = fields
        self.grants = grants
    }

    /// A type made just in time by a development write: system fields and the written ones, no
    /// indexes.
    static func justInTime(fields: [String: String]) -> RecordTypeSchema {
        var schema = RecordTypeSchema(fields: systemFields)
        for (name, type) in fields { schema.fields[name] = SchemaField(type: type) }
        return schema
    }

    /// Whether a user who is not the record's creator holds `permission` through `_world` or
    /// `_icloud`.
    func grantsEveryone(_ permission: Permission) -> Bool {
        grants["_world"]?.contains(permission) == true
            || grants["_icloud"]?.contains(permission) == true
    }
}

/// A container environment's schema: its record types. The `.ckdb` language of `cktool`.
public struct ContainerSchema: Codable, Sendable, Equatable {
    public var types: [String: RecordTypeSchema]
    /// Roles made with CREATE ROLE.
    public var roles: Set<String>

    public init(types: [String: RecordTypeSchema] = [:], roles: Set<String> = []) {
        self.types = types
        self.roles = roles
    }

    public static let empty = ContainerSchema()
}
