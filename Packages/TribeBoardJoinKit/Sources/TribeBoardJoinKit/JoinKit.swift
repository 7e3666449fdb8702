import Foundation

/// The app's side of the contract: create a family with a claimed code, find one by its code,
/// join it, and activate an invited admin. Every record it writes is one the app's decoders and
/// validators accept, in the public database's default zone, named by the id the app keeps
/// locally (`UUID(uuidString: record.name)` is the local id).
public struct JoinKit<Database: JoinDatabase>: Sendable {
    public let database: Database

    public init(database: Database) { self.database = database }

    /// A family as its joiner now holds it: save these locally with these ids.
    public struct Joined: Sendable, Equatable {
        public var family: FamilyRecord
        public var profile: ProfileRecord
        public var membership: MembershipRecord
    }

    /// The family a code leads to, or `JoinKitError.familyNotFound` saying where it stopped.
    public func findFamily(code typed: String) async throws -> FamilyRecord {
        let lookup = try await CodeLookup.run(typed, in: database)
        guard let family = lookup.family else {
            throw JoinKitError.familyNotFound(lookup.stop ?? .noClaim)
        }
        return family
    }

    /// Creates a family: claims a generated code first (a taken one is replaced), then writes the
    /// family, the creator's profile and their admin membership (the family's admin seat).
    public func createFamily(name: String, creator: ProfileRecord, familyID: UUID = UUID(),
                             attempts: Int = 5, now: Date = Date(),
                             generate: () -> String = FamilyCodeText.generate) async throws -> Joined {
        if let problem = AppRules.familyNameProblem(name) { throw JoinKitError.nameRefused(problem) }
        try checkProfile(creator)
        let family = FamilyRecord(id: familyID, name: name.trimmingCharacters(in: .whitespacesAndNewlines),
                                  code: try await claimFreeCode(for: familyID, attempts: attempts, generate: generate),
                                  createdByUserId: creator.id, createdAt: now)
        _ = try await database.create(family.record)
        let profile = try await ensureProfile(creator)
        let seat = MembershipRecord(id: JoinNames.adminSeat(forFamily: family.id.uuidString), familyID: family.id,
                                    userID: profile.id, role: .parentAdmin, status: .active, joinedAt: now)
        _ = try await database.create(seat.record)
        return Joined(family: family, profile: profile, membership: seat)
    }

    /// Joins the family of a code as a member (never as its admin).
    public func join(code typed: String, as member: ProfileRecord, role: JoinRole = .adult,
                     membershipID: UUID = UUID(), now: Date = Date()) async throws -> Joined {
        guard role != .parentAdmin else { throw JoinKitError.adminRoleThroughActivation }
        try checkProfile(member)
        let family = try await findFamily(code: typed)
        let profile = try await ensureProfile(member)
        let existing = try await database.memberships(ofFamily: family.id.uuidString)
            .compactMap(MembershipRecord.init)
            .first { $0.userID == profile.id && $0.status == .active }
        if let existing { return Joined(family: family, profile: profile, membership: existing) }
        let membership = MembershipRecord(id: membershipID, familyID: family.id, userID: profile.id,
                                          role: role, status: .active, joinedAt: now)
        _ = try await database.create(membership.record)
        return Joined(family: family, profile: profile, membership: membership)
    }

    /// The invited admin of a family (provisioned without their Apple user id) signs in and
    /// takes the family's admin seat. Exactly one person can: the seat is a membership with a
    /// name derived from the family, and of concurrent creates of one name one succeeds.
    public func activateInvitedAdmin(code typed: String, as admin: ProfileRecord,
                                     now: Date = Date()) async throws -> Joined {
        try checkProfile(admin)
        let family = try await findFamily(code: typed)
        let profile = try await ensureProfile(admin)
        let seatID = JoinNames.adminSeat(forFamily: family.id.uuidString)
        let others = try await database.memberships(ofFamily: family.id.uuidString)
            .compactMap(MembershipRecord.init)
            .filter { $0.isActiveAdmin && $0.id != seatID && $0.userID != profile.id }
        guard others.isEmpty else { throw JoinKitError.familyHasAdmin }
        let seat = MembershipRecord(id: seatID, familyID: family.id, userID: profile.id,
                                    role: .parentAdmin, status: .active, joinedAt: now)
        switch try await database.create(seat.record) {
        case .created:
            return Joined(family: family, profile: profile, membership: seat)
        case .alreadyExists:
            let name = seatID.uuidString
            guard let held = try await database.fetch([name])[name].flatMap(MembershipRecord.init),
                  held.userID == profile.id else { throw JoinKitError.adminSeatTaken }
            return Joined(family: family, profile: profile, membership: held)
        }
    }

    // MARK: Steps

    private func checkProfile(_ profile: ProfileRecord) throws {
        if let problem = AppRules.displayNameProblem(profile.displayName) {
            throw JoinKitError.nameRefused(problem)
        }
    }

    /// Writes the person's profile, or finds it from an earlier family: the same id with the same
    /// `appleUserIdHash` is theirs; with another hash it is someone else's.
    private func ensureProfile(_ profile: ProfileRecord) async throws -> ProfileRecord {
        switch try await database.create(profile.record) {
        case .created:
            return profile
        case .alreadyExists:
            let name = profile.id.uuidString
            guard let stored = try await database.fetch([name])[name].flatMap(ProfileRecord.init),
                  stored.appleUserIdHash == profile.appleUserIdHash else {
                throw JoinKitError.profileBelongsToSomeoneElse
            }
            return stored
        }
    }

    /// Claims a generated code for the family. A claim found already naming this family (an
    /// earlier attempt, interrupted) is ours: nobody else knows a family id before it is written.
    private func claimFreeCode(for familyID: UUID, attempts: Int,
                               generate: () -> String) async throws -> String {
        for _ in 0..<max(attempts, 1) {
            guard let code = try? FamilyCodeText.normalise(generate()) else { continue }
            let name = JoinNames.claim(forCode: code)
            let claim = JoinRecord(name: name, type: JoinRecordType.codeClaim,
                                   fields: ["family": .string(familyID.uuidString)])
            switch try await database.create(claim) {
            case .created:
                return code
            case .alreadyExists:
                let held = try await database.fetch([name])[name]
                if held?.type == JoinRecordType.codeClaim, held?.string("family") == familyID.uuidString {
                    return code
                }
            }
        }
        throw JoinKitError.noFreeCode(attempts: attempts)
    }
}

extension FamilyCodeText {
    /// The symbols of generated codes: `A-Z0-9` without the look-alikes 0, O, 1 and I.
    public static let generatedAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    /// Six symbols from the system's CSPRNG, uniformly (32 symbols: no modulo bias).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in generatedAlphabet[Int(generator.next() % 32)] })
    }
}
