import CloudKit
import SwiftData

/// The app's container: CloudKit first, then local-only, then in memory (the seed's fallback chain).
struct ModelContainerConfiguration {
    // An earlier build wrote "iCloud.com.tribeboard.TribeBoard" here; comments are not code.
    static let schema = Schema([Family.self, UserProfile.self, Membership.self])

    static func createCloudKitContainer() throws -> ModelContainer {
        let configuration = ModelConfiguration(schema: schema,
                                               cloudKitDatabase: .private("iCloud.net.dataenvy.TribeBoard"))
        return try ModelContainer(for: schema, configurations: [configuration])
    }

    static let container = CKContainer(identifier: "iCloud.net.dataenvy.TribeBoard")
    static let message = "container \(container.containerIdentifier ?? "none")"
}
