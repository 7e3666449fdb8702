import Foundation

/// The rule the app's crash taught: a container is `iCloud.` + bundle id; a test container adds
/// `.test`. Knows where each bundle id was read, so a mismatch can name both sides.
struct ContainerRule {
    struct Source {
        let bundleID: String
        let configuration: String
        let location: SourceLocation
    }

    let sources: [Source]

    /// Without a project: the app's known bundle id, from the reference data model.
    static let appDefault = ContainerRule(sources: [
        Source(bundleID: CloudKitConfiguration.bundleID, configuration: "the app's published bundle id",
               location: SourceLocation(path: "CloudKitConfiguration.bundleID", line: nil)),
    ])

    var bundleIDs: [String] { Array(Set(sources.map(\.bundleID))).sorted() }

    func expected(for bundleIDs: [String]? = nil) -> [String] {
        (bundleIDs ?? self.bundleIDs).map { "iCloud." + $0 }
    }

    func accepts(_ container: String, bundleIDs: [String]? = nil) -> Bool {
        expected(for: bundleIDs).contains { container == $0 || container == $0 + ".test" }
    }

    /// `iCloud.net.dataenvy.TribeBoard = "iCloud." + PRODUCT_BUNDLE_IDENTIFIER (project.pbxproj:301, Release)`.
    func explanation(for bundleIDs: [String]? = nil) -> String {
        let wanted = Set(bundleIDs ?? self.bundleIDs)
        return sources.filter { wanted.contains($0.bundleID) }
            .reduce(into: [String: [Source]]()) { $0[$1.bundleID, default: []].append($1) }
            .sorted { $0.key < $1.key }
            .map { bundleID, from in
                let places = from.map { "\($0.location), \($0.configuration)" }.joined(separator: "; ")
                return "iCloud.\(bundleID) (\"iCloud.\" + bundle id \(bundleID) at \(places))"
            }
            .joined(separator: " or ")
    }

    /// Replaces the bundle-id variables Xcode's capability editor writes into entitlements.
    static func substitute(_ value: String, bundleID: String) -> String {
        ["$(CFBundleIdentifier)", "${CFBundleIdentifier}", "$(PRODUCT_BUNDLE_IDENTIFIER)", "${PRODUCT_BUNDLE_IDENTIFIER}"]
            .reduce(value) { $0.replacingOccurrences(of: $1, with: bundleID) }
    }
}
