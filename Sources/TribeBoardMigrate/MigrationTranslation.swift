import CCloudKitCrypto
import Foundation
import TribeBoardCloudKit
import TribeBoardDomain

/// How a source record becomes its destination copy: the same record under the same name for a
/// container copy; for legacy types the current type under a name derived from the old one (record
/// names are unique in a zone whatever the type), with references renamed the same way.
struct MigrationTranslation: Sendable {
    let mode: MigrationMode
    /// Names of the records being migrated: a reference to one of them follows its rename.
    let sourceNames: Set<String>

    func destinationName(of sourceName: String) -> RecordID {
        mode == .container ? sourceName : Self.copyName(of: sourceName)
    }

    func destinationType(of record: CloudKitRecord, kind: MigratedKind) -> String {
        mode == .container ? (record.recordType ?? kind.currentType) : kind.currentType
    }

    /// The record to write: fields as they are (a field this toolkit does not know is still the
    /// app's data), references renamed, the code replaced for a re-coded family.
    func copy(of record: CloudKitRecord, kind: MigratedKind, code: String?) -> CloudKitRecord {
        var fields = record.fields ?? [:]
        for (name, field) in fields where field.type == "REFERENCE" {
            guard var target = field.value.object, let referenced = target["recordName"]?.string,
                  sourceNames.contains(referenced) else { continue }
            target["recordName"] = .string(destinationName(of: referenced))
            fields[name] = CloudKitRecord.Field(value: .object(target), type: field.type)
        }
        if let code { fields["code"] = .string(code) }
        return CloudKitRecord(recordName: destinationName(of: record.recordName), recordType: destinationType(of: record, kind: kind),
                              fields: fields)
    }

    /// The name of a legacy record's copy: a UUID (the app's record names are uppercase UUIDs)
    /// made of SHA-256 of the old name, version 8 ("custom") as RFC 9562 allows, so every run
    /// derives the same one and finds its own copies.
    static func copyName(of legacyName: String) -> RecordID {
        let message = Array("tribeboard-migrate legacy-types \(legacyName)".utf8)
        var encoded = [CChar](repeating: 0, count: 64)
        let status = tb_sha256_base64(message, message.count, &encoded, encoded.count)
        let digest = status == 0 ? Data(base64Encoded: String(cString: encoded)).map(Array.init) : nil
        var bytes = Array((digest ?? Self.fallbackDigest(message)).prefix(16))
        while bytes.count < 16 { bytes.append(0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString
    }

    /// Only if libcrypto failed to hash (it does not for a short message): FNV-1a, still deterministic.
    private static func fallbackDigest(_ message: [UInt8]) -> [UInt8] {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var out: [UInt8] = []
        for round in 0..<2 {
            for byte in message + [UInt8(round)] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            out += withUnsafeBytes(of: hash.bigEndian, Array.init)
        }
        return out
    }

    /// Two records hold the same data: type and every field (system fields such as change tags and
    /// creation stamps differ between a record and its copy by nature).
    static func same(_ expected: CloudKitRecord, _ found: CloudKitRecord) -> Bool {
        expected.recordType == found.recordType && normalized(expected.fields) == normalized(found.fields)
    }

    /// The fields in which two records differ, for the report.
    static func differingFields(_ expected: CloudKitRecord, _ found: CloudKitRecord) -> [String] {
        let left = normalized(expected.fields), right = normalized(found.fields)
        var names = Set(left.keys).union(right.keys).filter { left[$0] != right[$0] }.sorted()
        if expected.recordType != found.recordType { names.insert("recordType", at: 0) }
        return names
    }

    /// A reference's zone (written or not, it is the default zone) and a missing type do not make
    /// two values different.
    private static func normalized(_ fields: [String: CloudKitRecord.Field]?) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (name, field) in fields ?? [:] {
            if field.type == "REFERENCE", let object = field.value.object {
                result[name] = .object(["recordName": object["recordName"] ?? .null, "action": object["action"] ?? .null])
            } else {
                result[name] = field.value
            }
        }
        return result
    }
}

/// The name `migrate legacy-types` gives a legacy record's copy (for scripts and tests that
/// look a copy up).
package enum LegacyCopyName {
    package static func of(_ legacyName: String) -> RecordID { MigrationTranslation.copyName(of: legacyName) }
}
