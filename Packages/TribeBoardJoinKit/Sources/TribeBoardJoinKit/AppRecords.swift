import Foundation

/// The app's record types and fields (its `CloudKitConstants.swift`), and the kit's claim.
public enum JoinRecordType {
    public static let family = "Family"
    public static let userProfile = "UserProfile"
    public static let membership = "Membership"
    public static let codeClaim = "FamilyCodeClaim"
}

/// A `Family` as the app's `Family.updateFromCKRecord` reads it: all four fields required, the
/// record name the family's id.
public struct FamilyRecord: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var code: String
    public var createdByUserId: UUID
    public var createdAt: Date
    /// Who created the record in CloudKit (not `createdByUserId`, which any writer chooses).
    public var creator: String?

    public init(id: UUID, name: String, code: String, createdByUserId: UUID, createdAt: Date) {
        self.id = id
        self.name = name
        self.code = code
        self.createdByUserId = createdByUserId
        self.createdAt = createdAt
    }

    /// Nil when the app's decoder would throw `invalidRecord`.
    public init?(_ record: JoinRecord) {
        guard record.type == JoinRecordType.family, let id = UUID(uuidString: record.name),
              let name = record.string("name"), let code = record.string("code"),
              let creatorText = record.string("createdByUserId"),
              let createdBy = UUID(uuidString: creatorText),
              let createdAt = record.milliseconds("createdAt") else { return nil }
        self.init(id: id, name: name, code: code, createdByUserId: createdBy,
                  createdAt: Date(milliseconds: createdAt))
        creator = record.creator
    }

    public var record: JoinRecord {
        JoinRecord(name: id.uuidString, type: JoinRecordType.family, fields: [
            "name": .string(name), "code": .string(code),
            "createdByUserId": .string(createdByUserId.uuidString),
            "createdAt": .timestamp(milliseconds: createdAt.milliseconds),
        ])
    }
}

/// A `UserProfile` as the app's decoder reads it: `appleUserIdHash` is required (a profile without
/// it throws `invalidRecord`), so the kit never writes one without it.
public struct ProfileRecord: Sendable, Equatable {
    public var id: UUID
    public var displayName: String
    public var appleUserIdHash: String
    public var createdAt: Date

    public init(id: UUID, displayName: String, appleUserIdHash: String, createdAt: Date) {
        self.id = id
        self.displayName = displayName
        self.appleUserIdHash = appleUserIdHash
        self.createdAt = createdAt
    }

    public init?(_ record: JoinRecord) {
        guard record.type == JoinRecordType.userProfile, let id = UUID(uuidString: record.name),
              let name = record.string("displayName"), let hash = record.string("appleUserIdHash"),
              let createdAt = record.milliseconds("createdAt") else { return nil }
        self.init(id: id, displayName: name, appleUserIdHash: hash, createdAt: Date(milliseconds: createdAt))
    }

    public var record: JoinRecord {
        JoinRecord(name: id.uuidString, type: JoinRecordType.userProfile, fields: [
            "displayName": .string(displayName), "appleUserIdHash": .string(appleUserIdHash),
            "createdAt": .timestamp(milliseconds: createdAt.milliseconds),
        ])
    }
}

/// The app's `Role` and `MembershipStatus` raw values.
public enum JoinRole: String, Sendable, CaseIterable { case parentAdmin = "parent_admin", adult, kid, visitor }
public enum JoinMembershipStatus: String, Sendable, CaseIterable { case active, invited, removed }

/// A `Membership` as the app's decoder reads it (role, status, joinedAt required), with the
/// references the app's `toCKRecord` writes.
public struct MembershipRecord: Sendable, Equatable {
    public var id: UUID
    public var familyID: UUID
    public var userID: UUID
    public var role: JoinRole
    public var status: JoinMembershipStatus
    public var joinedAt: Date

    public init(id: UUID, familyID: UUID, userID: UUID, role: JoinRole, status: JoinMembershipStatus,
                joinedAt: Date) {
        self.id = id
        self.familyID = familyID
        self.userID = userID
        self.role = role
        self.status = status
        self.joinedAt = joinedAt
    }

    public init?(_ record: JoinRecord) {
        guard record.type == JoinRecordType.membership, let id = UUID(uuidString: record.name),
              let role = record.string("role").flatMap(JoinRole.init(rawValue:)),
              let status = record.string("status").flatMap(JoinMembershipStatus.init(rawValue:)),
              let joinedAt = record.milliseconds("joinedAt"),
              let family = record.reference("family").flatMap(UUID.init(uuidString:)),
              let user = record.reference("user").flatMap(UUID.init(uuidString:)) else { return nil }
        self.init(id: id, familyID: family, userID: user, role: role, status: status,
                  joinedAt: Date(milliseconds: joinedAt))
    }

    public var record: JoinRecord {
        JoinRecord(name: id.uuidString, type: JoinRecordType.membership, fields: [
            "role": .string(role.rawValue), "status": .string(status.rawValue),
            "joinedAt": .timestamp(milliseconds: joinedAt.milliseconds),
            "family": .reference(familyID.uuidString), "user": .reference(userID.uuidString),
        ])
    }

    /// What the app counts as the family's admin: an active `parent_admin`.
    public var isActiveAdmin: Bool { role == .parentAdmin && status == .active }
}

extension Date {
    init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }

    var milliseconds: Int64 {
        let value = (timeIntervalSince1970 * 1000).rounded()
        return value.isFinite && abs(value) < 9e15 ? Int64(value) : 0
    }
}
