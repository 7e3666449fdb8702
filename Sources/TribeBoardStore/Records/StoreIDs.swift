import GRDB

/// A record id as the app writes it (an uppercase UUID string), typed by what it names so that a
/// family's id cannot be passed where a profile's is expected. Stored and encoded as the text.
public protocol StoreID: RawRepresentable, Hashable, Sendable, Codable, Comparable, CustomStringConvertible,
    DatabaseValueConvertible where RawValue == String {
    init(rawValue: String)
}

extension StoreID {
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

public struct FamilyID: StoreID {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

public struct UserID: StoreID {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

public struct MembershipID: StoreID {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}
