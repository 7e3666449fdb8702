/// A record id as the app writes it (an uppercase UUID string), typed by what it names so that a
/// family's id cannot be passed where a profile's is expected. Stored and encoded as the text
/// (the store's column conformance is the store's). A literal is accepted where an id is expected
/// (fixtures); a `String` value must be wrapped on purpose.
package protocol TypedRecordID: RawRepresentable, Hashable, Sendable, Codable, Comparable,
    CustomStringConvertible,
    ExpressibleByStringLiteral
where RawValue == String {
    init(rawValue: String)
}

extension TypedRecordID {
    package var description: String { rawValue }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    package init(stringLiteral value: String) { self.init(rawValue: value) }
}

package struct FamilyID: TypedRecordID {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}

package struct UserID: TypedRecordID {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}

package struct MembershipID: TypedRecordID {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}
