import Foundation

/// A record dictionary in the Web Services format (also one line of a remote snapshot file).
package struct CloudKitRecord: Codable, Sendable, Equatable {
    package struct Field: Codable, Sendable, Equatable {
        package var value: JSONValue
        package var type: String?

        package init(value: JSONValue, type: String?) {
            self.value = value
            self.type = type
        }

        package static func string(_ value: String) -> Field { Field(value: .string(value), type: "STRING") }
        package static func timestamp(milliseconds: Int64) -> Field { Field(value: .number(Double(milliseconds)), type: "TIMESTAMP") }
        /// The app's references: deleting the target deletes the referring record.
        package static func reference(_ recordName: String) -> Field {
            Field(value: .object(["recordName": .string(recordName), "action": .string("DELETE_SELF")]), type: "REFERENCE")
        }
    }

    package struct Stamp: Codable, Sendable, Equatable {
        package var timestamp: Int64?
        package var userRecordName: String?

        package init(timestamp: Int64?, userRecordName: String?) {
            self.timestamp = timestamp
            self.userRecordName = userRecordName
        }

        /// Milliseconds from year 1 to 9999: a server's 1e300 (or a string) is no date, and
        /// makes this stamp's time unknown instead of failing the whole answer.
        static let plausibleMilliseconds: ClosedRange<Double> = -62_135_596_800_000...253_402_300_799_000

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let number = try? container.decodeIfPresent(Double.self, forKey: .timestamp)
            timestamp = number.flatMap { $0.isFinite && Self.plausibleMilliseconds.contains($0) ? Int64($0) : nil }
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

    package init(recordName: String, recordType: String, fields: [String: Field], recordChangeTag: String? = nil) {
        self.recordName = recordName
        self.recordType = recordType
        self.fields = fields
        self.recordChangeTag = recordChangeTag
    }

    package func string(_ field: String) -> String? { fields?[field]?.value.string }
    /// A REFERENCE field's record name.
    package func reference(_ field: String) -> String? { fields?[field]?.value.object?["recordName"]?.string }
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
    package init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: ProbeKey.self)
        if probe.contains(.serverErrorCode) {
            self = .failure(try CloudKitRecordError(from: decoder))
        } else {
            self = .record(try CloudKitRecord(from: decoder))
        }
    }

    private enum ProbeKey: String, CodingKey { case serverErrorCode }
}
