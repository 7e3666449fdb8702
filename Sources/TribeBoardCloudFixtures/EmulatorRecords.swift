import Foundation
import TribeBoardTestSupport
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardRemote

/// The emulator speaks only its own wire types; tests written with the client's records cross
/// over value by value, as the same JSON would (tests poll these, so no JSON round trip).
extension CloudKitEmulator {
    /// The app's records (and the legacy types'): every stored record but the code claims.
    package func records(
        container: String, environment: String = "development", zone: String = "_defaultZone"
    ) async -> [CloudKitRecord] {
        await storedRecords(container: container, environment: environment, zone: zone)
            .filter { $0.recordType != CodeClaim.recordType }.map(Self.clientRecord)
    }

    /// The code claims: claim record name -> the family it names.
    package func claims(
        container: String, environment: String = "development", zone: String = "_defaultZone"
    ) async -> [String: String] {
        var claims: [String: String] = [:]
        let records = await storedRecords(
            container: container, environment: environment, zone: zone)
        for record in records where record.recordType == CodeClaim.recordType {
            claims[record.recordName] = CodeClaim.holder(in: Self.clientRecord(record)) ?? ""
        }
        return claims
    }

    /// Whether every family of `families` (id -> code) holds the claim of its code, and no claim
    /// names a family that is not there (`families` must be every family of the container).
    package func claimsMatch(
        _ families: [String: String], container: String, environment: String = "development"
    ) async throws -> Bool {
        let claims = await claims(container: container, environment: environment)
        var expected: [String: String] = [:]
        for (id, code) in families { expected[try CodeClaim.recordName(forCode: code)] = id }
        return claims == expected
    }

    package func seed(
        _ records: [CloudKitRecord], container: String, environment: String = "development",
        zone: String = "_defaultZone"
    ) async {
        await seedRecords(
            records.map(Self.wireRecord), container: container, environment: environment, zone: zone
        )
    }

    static func clientRecord(_ record: WireRecord) -> CloudKitRecord {
        var converted = CloudKitRecord(
            recordName: record.recordName, recordType: record.recordType ?? "",
            fields: (record.fields ?? [:]).mapValues {
                CloudKitRecord.Field(value: jsonValue($0.value), type: $0.type)
            },
            recordChangeTag: record.recordChangeTag)
        converted.recordType = record.recordType
        converted.fields = record.fields == nil ? nil : converted.fields
        converted.created = record.created.map {
            CloudKitRecord.Stamp(timestamp: $0.timestamp, userRecordName: $0.userRecordName)
        }
        converted.modified = record.modified.map {
            CloudKitRecord.Stamp(timestamp: $0.timestamp, userRecordName: $0.userRecordName)
        }
        converted.deleted = record.deleted
        return converted
    }

    static func wireRecord(_ record: CloudKitRecord) -> WireRecord {
        var converted = WireRecord(
            recordName: record.recordName, recordType: record.recordType,
            fields: record.fields?.mapValues {
                WireRecord.Field(value: wireValue($0.value), type: $0.type)
            },
            recordChangeTag: record.recordChangeTag,
            created: record.created.map {
                WireRecord.Stamp(timestamp: $0.timestamp, userRecordName: $0.userRecordName)
            })
        converted.modified = record.modified.map {
            WireRecord.Stamp(timestamp: $0.timestamp, userRecordName: $0.userRecordName)
        }
        converted.deleted = record.deleted
        return converted
    }

    static func jsonValue(_ value: WireValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(jsonValue))
        case .object(let object): return .object(object.mapValues(jsonValue))
        }
    }

    static func wireValue(_ value: JSONValue) -> WireValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(wireValue))
        case .object(let object): return .object(object.mapValues(wireValue))
        }
    }
}
