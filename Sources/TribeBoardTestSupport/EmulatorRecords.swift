import Foundation
import TribeBoardCloudKitEmulator
import TribeBoardCore

/// The emulator speaks only its own wire types; tests written with the client's records cross
/// over through JSON, the one thing both sides share, as on the wire.
extension CloudKitEmulator {
    public func records(container: String, environment: String = "development", zone: String = "_defaultZone") async -> [CloudKitRecord] {
        Self.convert(await storedRecords(container: container, environment: environment, zone: zone))
    }

    public func seed(_ records: [CloudKitRecord], container: String, environment: String = "development",
                     zone: String = "_defaultZone") async {
        await seedRecords(Self.convert(records), container: container, environment: environment, zone: zone)
    }

    static func convert<From: Encodable, To: Decodable>(_ values: [From]) -> [To] {
        guard let data = try? JSONEncoder().encode(values), let converted = try? JSONDecoder().decode([To].self, from: data) else { return [] }
        return converted
    }
}
