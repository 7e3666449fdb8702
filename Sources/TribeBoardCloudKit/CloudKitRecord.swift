import Foundation
import TribeBoardDomain

/// A record dictionary in the Web Services format (also one line of a remote snapshot file).
package struct CloudKitRecord: Codable, Sendable, Equatable {
    package struct Field: Codable, Sendable, Equatable {
        package var value: JSONValue
        package var type: String?

        package init(value: JSONValue, type: String?) {
            self.value = value
            self.type = type
        }

        private enum CodingKeys: String, CodingKey { case value, type }

        /// The value read first as its `type` says (a STRING's string, a TIMESTAMP's number, a
        /// REFERENCE's dictionary): a page's timestamps and references are then read without a
        /// failed attempt each (`JSONValue` tries a string first); a value that is not what its
        /// type says is read as any JSON value, as before. A field without a `value` (which
        /// CloudKit never sends, a snapshot from elsewhere may hold) is a `null` one: the record
        /// is read, and that field is said to have no value, as the snapshot parser says it.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decodeIfPresent(String.self, forKey: .type)
            switch type {
            case "TIMESTAMP", "INT64", "DOUBLE":
                if let number = try? container.decode(Double.self, forKey: .value) {
                    value = .number(number); return
                }
            case "REFERENCE":
                if let object = try? container.decode([String: JSONValue].self, forKey: .value) {
                    value = .object(object); return
                }
            default:
                break
            }
            value = try container.decodeIfPresent(JSONValue.self, forKey: .value) ?? .null
        }

        package static func string(_ value: String) -> Field {
            Field(value: .string(value), type: "STRING")
        }
        package static func timestamp(milliseconds: Int64) -> Field {
            Field(value: .number(Double(milliseconds)), type: "TIMESTAMP")
        }
        /// The app's references: deleting the target deletes the referring record.
        package static func reference(_ recordName: String) -> Field {
            Field(
                value: .object(["recordName": .string(recordName), "action": .string("DELETE_SELF")]
                ), type: "REFERENCE")
        }
    }

    package struct Stamp: Codable, Sendable, Equatable {
        package var timestamp: Int64?
        package var userRecordName: String?

        package init(timestamp: Int64?, userRecordName: String?) {
            self.timestamp = timestamp
            self.userRecordName = userRecordName
        }

        /// Milliseconds from year 1 to the end of 9999 (the domain's bound, to its last
        /// millisecond: the snapshot parser reads the same stamps): a server's 1e300 (or a string)
        /// is no date, and makes this stamp's time unknown instead of failing the whole answer.
        static let plausibleMilliseconds: ClosedRange<Double> =
            -62_135_596_800_000...Double(Timestamp.supportedMilliseconds.upperBound)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let number = try? container.decodeIfPresent(Double.self, forKey: .timestamp)
            timestamp = number.flatMap {
                $0.isFinite && Self.plausibleMilliseconds.contains($0) ? Int64($0) : nil
            }
            userRecordName = try? container.decodeIfPresent(String.self, forKey: .userRecordName)
        }
    }

    package var recordName: String
    package var recordType: String?
    package var fields: [String: Field]?
    package var recordChangeTag: String?
    package var created: Stamp?
    package var modified: Stamp?
    package var deleted: Bool?

    /// The keys of an entry of a records array: a record's, and an error's `serverErrorCode`.
    enum EntryKey: String, CodingKey {
        case recordName, recordType, fields, recordChangeTag, created, modified, deleted,
            serverErrorCode
    }

    package init(from decoder: any Decoder) throws {
        try self.init(decoder.container(keyedBy: EntryKey.self))
    }

    /// A record from its entry's container, which `CloudKitRecordResult` has already opened.
    init(_ container: KeyedDecodingContainer<EntryKey>) throws {
        recordName = try container.decode(String.self, forKey: .recordName)
        recordType = try container.decodeIfPresent(String.self, forKey: .recordType)
        fields = try container.decodeIfPresent([String: Field].self, forKey: .fields)
        recordChangeTag = try container.decodeIfPresent(String.self, forKey: .recordChangeTag)
        created = try container.decodeIfPresent(Stamp.self, forKey: .created)
        modified = try container.decodeIfPresent(Stamp.self, forKey: .modified)
        deleted = try container.decodeIfPresent(Bool.self, forKey: .deleted)
    }

    package init(
        recordName: String, recordType: String, fields: [String: Field],
        recordChangeTag: String? = nil
    ) {
        self.recordName = recordName
        self.recordType = recordType
        self.fields = fields
        self.recordChangeTag = recordChangeTag
    }

    package func string(_ field: String) -> String? { fields?[field]?.value.string }
    /// A REFERENCE field's record name.
    package func reference(_ field: String) -> String? {
        fields?[field]?.value.object?["recordName"]?.string
    }
}

/// One entry of a records array in a response: a record, or the error for that record alone.
package enum CloudKitRecordResult: Sendable, Equatable {
    case record(CloudKitRecord)
    case failure(CloudKitRecordError)
}

package struct CloudKitRecordError: Codable, Sendable, Equatable, Error {
    package var recordName: String?
    package var reason: String?
    package var serverErrorCode: String
    package var retryAfter: Double?
    package var uuid: String?

    package var code: CloudKitServerErrorCode { CloudKitServerErrorCode(rawValue: serverErrorCode) }
}

extension CloudKitRecordResult: Decodable {
    /// A record is read from the container opened to tell it from an error (a page holds 200).
    package init(from decoder: any Decoder) throws {
        let entry = try decoder.container(keyedBy: CloudKitRecord.EntryKey.self)
        if entry.contains(.serverErrorCode) {
            self = .failure(try CloudKitRecordError(from: decoder))
        } else {
            self = .record(try CloudKitRecord(entry))
        }
    }
}
