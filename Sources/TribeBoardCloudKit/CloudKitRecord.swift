import Foundation

/// A record dictionary in the Web Services format (also one line of a remote snapshot file).
public struct CloudKitRecord: Codable, Sendable, Equatable {
    public struct Field: Codable, Sendable, Equatable {
        public var value: JSONValue
        public var type: String?

        public init(value: JSONValue, type: String?) {
            self.value = value
            self.type = type
        }

        public static func string(_ value: String) -> Field { Field(value: .string(value), type: "STRING") }
        public static func timestamp(milliseconds: Int64) -> Field { Field(value: .number(Double(milliseconds)), type: "TIMESTAMP") }
        /// The app's references: deleting the target deletes the referring record.
        public static func reference(_ recordName: String) -> Field {
            Field(value: .object(["recordName": .string(recordName), "action": .string("DELETE_SELF")]), type: "REFERENCE")
        }
    }

    public struct Stamp: Codable, Sendable, Equatable {
        public var timestamp: Int64?
        public var userRecordName: String?

        public init(timestamp: Int64?, userRecordName: String?) {
            self.timestamp = timestamp
            self.userRecordName = userRecordName
        }

        /// Milliseconds from year 1 to 9999: a server's 1e300 (or a string) is no date, and
        /// makes this stamp's time unknown instead of failing the whole answer.
        static let plausibleMilliseconds: ClosedRange<Double> = -62_135_596_800_000...253_402_300_799_000

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let number = try? container.decodeIfPresent(Double.self, forKey: .timestamp)
            timestamp = number.flatMap { $0.isFinite && Self.plausibleMilliseconds.contains($0) ? Int64($0) : nil }
            userRecordName = try? container.decodeIfPresent(String.self, forKey: .userRecordName)
        }
    }

    public var recordName: String
    public var recordType: String?
    public var fields: [String: Field]?
    public var recordChangeTag: String?
    public var created: Stamp?
    public var modified: Stamp?
    public var deleted: Bool?

    public init(recordName: String, recordType: String, fields: [String: Field], recordChangeTag: String? = nil) {
        self.recordName = recordName
        self.recordType = recordType
        self.fields = fields
        self.recordChangeTag = recordChangeTag
    }

    public func string(_ field: String) -> String? { fields?[field]?.value.string }
}

/// One entry of a records array in a response: a record, or the error for that record alone.
public enum CloudKitRecordResult: Sendable, Equatable {
    case record(CloudKitRecord)
    case failure(CloudKitRecordError)
}

public struct CloudKitRecordError: Codable, Sendable, Equatable, Error {
    public var recordName: String?
    public var reason: String?
    public var serverErrorCode: String
    public var retryAfter: Double?
    public var uuid: String?

    public var code: CloudKitServerErrorCode { CloudKitServerErrorCode(rawValue: serverErrorCode) }
}

extension CloudKitRecordResult: Decodable {
    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: ProbeKey.self)
        if probe.contains(.serverErrorCode) {
            self = .failure(try CloudKitRecordError(from: decoder))
        } else {
            self = .record(try CloudKitRecord(from: decoder))
        }
    }

    private enum ProbeKey: String, CodingKey { case serverErrorCode }
}
