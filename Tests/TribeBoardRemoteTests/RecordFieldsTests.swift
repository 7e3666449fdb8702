import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardTestSupport
@testable import TribeBoardRemote

/// Each record field has one home (`FamilyField`, `ProfileField`, `MembershipField`), held against
/// the app's own field constants, what `RecordMapping` writes and what the decoders read back:
/// a field added in one of these places and not the others fails here, by name.
struct RecordFieldsTests {
    /// Every record type as the mapping writes it with every optional field given.
    static let family = EveryFieldRecords.family
    static let profile = EveryFieldRecords.profile
    static let membership = EveryFieldRecords.membership

    /// The app's `CKFieldName` constants of one record type (`familyName = "name"` → `name`).
    static func appFields(prefix: String) throws -> Set<String> {
        let file = AppFixtureRules.directory.appendingPathComponent("CloudKitConstants.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "struct CKFieldName"))
        let source = String(text[start.lowerBound...].prefix { $0 != "}" })
        let pattern = try NSRegularExpression(pattern: #"static let \#(prefix)[A-Z]\w* = "(\w+)""#)
        let matches = pattern.matches(in: source, range: NSRange(source.startIndex..., in: source))
        return Set(matches.compactMap { Range($0.range(at: 1), in: source).map { String(source[$0]) } })
    }

    @Test func theFieldCataloguesAreTheAppsFields() throws {
        #expect(Set(FamilyField.allCases.map(\.rawValue)) == (try Self.appFields(prefix: "family")))
        #expect(Set(ProfileField.allCases.map(\.rawValue)) == (try Self.appFields(prefix: "user")))
        #expect(Set(MembershipField.allCases.map(\.rawValue)) == (try Self.appFields(prefix: "membership")))
    }

    @Test func theMappingWritesEveryFieldOfTheCatalogue() {
        #expect(Set((Self.family.fields ?? [:]).keys) == Set(FamilyField.allCases.map(\.rawValue)))
        #expect(Set((Self.profile.fields ?? [:]).keys) == Set(ProfileField.allCases.map(\.rawValue)))
        #expect(Set((Self.membership.fields ?? [:]).keys) == Set(MembershipField.allCases.map(\.rawValue)))
    }

    /// The decoder's property named after each field holds what was written: the text or the
    /// referenced record name, or, for a date, a value (the creation date is `created`, the one rule).
    static func unread(_ decoded: Any, _ record: CloudKitRecord, _ names: [String]) -> [String] {
        let properties = Dictionary(Mirror(reflecting: decoded).children.compactMap { child in child.label.map { ($0, child.value) } },
                                    uniquingKeysWith: { first, _ in first })
        return names.filter { name in
            guard let value = properties[name == FamilyField.createdAt.rawValue ? "created" : name] else { return true }
            let shown = String(describing: value)
            if let written = record.string(name) ?? record.reference(name) { return !shown.contains("\"\(written)\"") }
            return shown == "nil" || shown.contains("unknown") || shown.contains("invalid")
        }
    }

    @Test func theDecodersReadBackEveryFieldTheMappingWrites() {
        #expect(Self.unread(RemoteFamily(Self.family), Self.family, FamilyField.allCases.map(\.rawValue)) == [])
        #expect(Self.unread(RemoteProfile(Self.profile), Self.profile, ProfileField.allCases.map(\.rawValue)) == [])
        #expect(Self.unread(RemoteMembership(Self.membership), Self.membership, MembershipField.allCases.map(\.rawValue)) == [])
    }
}
