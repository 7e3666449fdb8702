/// A place in Swift or Objective-C code that names a CloudKit container (or relies on the default
/// one).
package struct ContainerReference: Sendable, Equatable {
    package enum Value: Sendable, Hashable {
        /// `"iCloud.com.company.Product"`, directly or through a name bound to it.
        case literal(String)
        /// `"iCloud." + Bundle.main.bundleIdentifier!`: the prefix, then the target's bundle id.
        case bundleIDSuffix(prefix: String)
        /// `"iCloud.\(id)"`: cannot be verified from the source.
        case interpolated(String)
        /// `CKContainer.default()`, `cloudKitDatabase: .automatic`, `NSPersistentCloudKitContainer`
        /// without options: the first container of the entitlements, as Apple defines it.
        case defaultContainer
        /// Read from the Info.plist at run time (`Bundle.main.object(forInfoDictionaryKey: KEY)`):
        /// the target's Info.plist says what, often through a build setting. `fallback`: the
        /// container the code takes when the Info.plist does not set the key (`… ?? "iCloud.…"`).
        case infoPlist(key: String, fallback: Fallback? = nil)
        /// A name used where a container goes whose value doctor cannot find in the target's code.
        case unresolved(name: String)
    }

    /// What `?? …` gives after an Info.plist lookup: a container, or a name bound elsewhere.
    package enum Fallback: Sendable, Hashable {
        case literal(String)
        case name(String)
    }

    package let value: Value
    /// `CKContainer(identifier:)`, `ModelConfiguration cloudKitDatabase`...
    package let call: String
    package let location: SourceLocation

    package init(value: Value, call: String, location: SourceLocation) {
        self.value = value
        self.call = call
        self.location = location
    }

    /// A store set-up (SwiftData's `ModelConfiguration`, Core Data's
    /// `NSPersistentCloudKitContainer`): it runs when the target opens its store, so a container it
    /// cannot use breaks the build at launch. A `CKContainer` call runs only when the code that
    /// makes it does.
    package var isStoreSetUp: Bool {
        call.hasPrefix("ModelConfiguration") || call.hasPrefix("NSPersistentCloudKitContainer")
    }

    /// SwiftData's `.automatic`: with no container in the entitlements, a local store that syncs
    /// nothing.
    package var isAutomatic: Bool {
        value == .defaultContainer && call == ContainerPatterns.automaticCall
    }
}
