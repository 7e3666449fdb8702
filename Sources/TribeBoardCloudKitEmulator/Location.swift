import Foundation

/// Where a request lands: `/database/1/{container}/{environment}/{database}/...` and a zone.
struct Location: Hashable {
    var container: String
    var environment: String
    var database: String
    var zone: String

    var isProduction: Bool { environment == "production" }
    /// The key of the zone's records in the database file.
    var zoneKey: String { "\(container)/\(environment)/\(database)/\(zone)" }
    /// The key of the environment's schema (one per container environment, shared by its
    /// databases).
    var schemaKey: String { "\(container)/\(environment)" }
}

/// Who sent a request, and when the server received it.
struct Caller {
    var userRecordName: String
    var now: Int64

    /// Whoever wrote records seeded into a container no key opens: a developer of its own,
    /// stable per container, like Apple's `_` and 32 hex digits.
    static func developer(of container: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in container.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "_" + String(repeating: "0", count: 16 - hex.count) + hex
            + String(repeating: "0", count: 16)
    }
}
