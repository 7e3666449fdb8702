import Foundation

/// The doctor's fixtures: Xcode-like projects under `Tests/Fixtures/doctor` (its stores are
/// `TribeBoardStoreFixtures`').
package enum DoctorFixtures {
    /// `correct`, `wrong-identifier`, `mismatched-entitlements`, `missing-entitlements`.
    package static func project(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures/doctor/\(name)").path
    }
}
