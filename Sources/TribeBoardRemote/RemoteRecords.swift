import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardJoinKit

// The toolkit's decoders of TribeBoard's records, beside `RecordMapping` (their encoder) and
// `CodeClaim` (the claim's encoder and decoder, `holder(in:)`). Each reads a record as it is, a
// missing or unusable field left nil, so that audit, doctor and migrate can say what is wrong;
// whether the app can read it is the join kit's decoder (`app`), the app's own rule. A legacy
// family (`CKFamily`) holds the same fields as a `Family` and is read by `RemoteFamily`.

/// The field names of each record type, as `RecordMapping` writes them and the app reads them.
package enum FamilyField: String, CaseIterable, Sendable {
    case name, code, createdByUserId, createdAt
}

package enum ProfileField: String, CaseIterable, Sendable {
    case displayName, appleUserIdHash, avatarUrl, createdAt
}

package enum MembershipField: String, CaseIterable, Sendable {
    case role, status, joinedAt, lastRoleChangeAt, family, user
}

/// A record's fields named by their catalogue (`FamilyField.code`, `MembershipField.user`…), so
/// that no module spells a field's name again (`RecordFieldNamesSourceTests`).
extension CloudKitRecord {
    package subscript<Name: RawRepresentable<String>>(field name: Name) -> Field? {
        get { fields?[name.rawValue] }
        set { fields?[name.rawValue] = newValue }
    }

    package func string<Name: RawRepresentable<String>>(_ name: Name) -> String? {
        string(name.rawValue)
    }

    /// A REFERENCE field's record name.
    package func reference<Name: RawRepresentable<String>>(_ name: Name) -> String? {
        reference(name.rawValue)
    }
}

/// When a record was created, as the toolkit reads it: the app's `createdAt`, else CloudKit's own
/// creation stamp. When the app's field is there but unusable (no value, not a number, out of
/// range) the date is unknown, never the server's (another date): the snapshot parser reads a
/// line with the same rule (`SnapshotParserAgreementTests`). A date outside
/// `Timestamp.supportedMilliseconds` is no date.
package enum RecordCreated: Sendable, Equatable {
    case at(milliseconds: Int64)
    /// Neither field is there.
    case unknown
    /// The value there cannot be a date, in a sentence ("fields.createdAt.value is out of range").
    case invalid(String)

    /// `serverStamp`: the record's `created.timestamp`, or another record's (a copy not yet saved).
    package init(_ record: CloudKitRecord, serverStamp: Int64?? = nil) {
        if let field = record.fields?[FamilyField.createdAt.rawValue] {
            guard let number = field.value.number else {
                self = .invalid(field.value == .null ? "fields.createdAt has no value"
                                                     : "fields.createdAt.value is not a number")
                return
            }
            self = Self.checked(number).map { .at(milliseconds: $0) }
                ?? .invalid("fields.createdAt.value is out of range (\(number))")
        } else if let stamp = serverStamp ?? record.created?.timestamp {
            self =
                Timestamp.supportedMilliseconds.contains(stamp)
                ? .at(milliseconds: stamp)
                : .invalid("created.timestamp is out of range (\(stamp))")
        } else {
            self = .unknown
        }
    }

    /// A TIMESTAMP field's milliseconds inside the supported range; nil for anything else.
    package static func checked(_ number: Double) -> Int64? {
        let range = Timestamp.supportedMilliseconds
        guard number.isFinite, number >= Double(range.lowerBound),
            number <= Double(range.upperBound)
        else { return nil }
        return Int64(number)
    }

    package var milliseconds: Int64? {
        if case .at(let milliseconds) = self { return milliseconds }
        return nil
    }

    package var timestamp: Timestamp? { milliseconds.map(Timestamp.init(milliseconds:)) }

    package var problem: String? {
        if case .invalid(let problem) = self { return problem }
        return nil
    }
}

/// A `Family` (or legacy `CKFamily`) record as it is.
package struct RemoteFamily: Sendable, Equatable {
    package var recordName: String
    package var recordType: String
    package var name: String?
    package var code: String?
    /// `fields.code` is there but its value is not a string (a NUMBER).
    package var codeIsNotString: Bool
    package var createdByUserId: String?
    package var created: RecordCreated

    package init(_ record: CloudKitRecord, serverStamp: Int64?? = nil) {
        recordName = record.recordName
        recordType = record.recordType ?? ""
        name = record.string(FamilyField.name.rawValue)
        code = record.string(FamilyField.code.rawValue)
        codeIsNotString = code == nil && record.fields?[FamilyField.code.rawValue] != nil
        createdByUserId = record.string(FamilyField.createdByUserId.rawValue)
        created = RecordCreated(record, serverStamp: serverStamp)
    }

    /// The family as the app reads it; nil when the app's decoder would refuse it.
    package static func app(_ record: CloudKitRecord) -> FamilyRecord? {
        RecordDecoding.family(record)
    }
}

/// A `UserProfile` record as it is.
package struct RemoteProfile: Sendable, Equatable {
    package var recordName: String
    package var displayName: String?
    package var appleUserIdHash: String?
    package var avatarUrl: String?
    package var created: RecordCreated

    package init(_ record: CloudKitRecord, serverStamp: Int64?? = nil) {
        recordName = record.recordName
        displayName = record.string(ProfileField.displayName.rawValue)
        appleUserIdHash = record.string(ProfileField.appleUserIdHash.rawValue)
        avatarUrl = record.string(ProfileField.avatarUrl.rawValue)
        created = RecordCreated(record, serverStamp: serverStamp)
    }
}

/// A `Membership` record as it is: its references' record names, its dates in range.
package struct RemoteMembership: Sendable, Equatable {
    package var recordName: String
    package var role: String?
    package var status: String?
    package var family: String?
    package var user: String?
    package var joinedAt: Timestamp?
    package var lastRoleChangeAt: Timestamp?

    package init(_ record: CloudKitRecord) {
        recordName = record.recordName
        role = record.string(MembershipField.role.rawValue)
        status = record.string(MembershipField.status.rawValue)
        family = record.reference(MembershipField.family.rawValue)
        user = record.reference(MembershipField.user.rawValue)
        joinedAt = Self.date(record, .joinedAt)
        lastRoleChangeAt = Self.date(record, .lastRoleChangeAt)
    }

    private static func date(_ record: CloudKitRecord, _ field: MembershipField) -> Timestamp? {
        record.fields?[field.rawValue]?.value.number.flatMap(RecordCreated.checked)
            .map(Timestamp.init(milliseconds:))
    }
}
