import Foundation
import TribeBoardCloudKit

/// TribeBoard's own expectation, for the toolkit's container when no project tells otherwise:
/// `iCloud.` + the app's published bundle id, or that plus `.test` for a test container.
enum ContainerRule {
    static var expected: String { "iCloud." + CloudKitConfiguration.bundleID }

    static func acceptsWithoutProject(_ container: String) -> Bool {
        container == expected || container == expected + ".test"
    }
}
