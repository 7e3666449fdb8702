import GRDB

/// A record id as the app writes it (an uppercase UUID string), typed by what it names so that a
/// family's id cannot be passed where a profile's is expected. Stored and encoded as the text.
protocol StoreID: RawRepresentable, Hashable, Sendable, Codable, Comparable, CustomStringConvertible,
    DatabaseValueConvertible where RawValue == String {
    init(rawValue: String)
}

extension StoreID {
    package var description: String { rawValue }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

package struct FamilyID: StoreID {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}

package struct UserID: StoreID {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}

package struct MembershipID: StoreID {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}
