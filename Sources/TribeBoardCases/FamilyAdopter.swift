import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardStore

/// What `tribeboard adopt FAMILY` is asked.
package struct AdoptRequest: Sendable {
    package var storePath: String
    package var family: String
    package var apply = false
    package var client: CloudKitClient
    package var showCodes = false

    package init(storePath: String, family: String, client: CloudKitClient) {
        (self.storePath, self.family, self.client) = (storePath, family, client)
    }

    func display(_ code: String) -> String { showCodes ? code : FamilyCode.mask(code) }
}

/// The outcome of one adoption. JSON keys are a stable interface.
package struct AdoptReport: Encodable, Sendable {
    package var command = "adopt"
    package var store: String
    package var applied = false
    package var familyId: String
    /// The store's version and CloudKit's (codes masked unless `--show-codes`).
    package var storeName: String
    package var storeCode: String
    package var cloudKitName = ""
    package var cloudKitCode = ""
    package var codeChanged = false
    /// CloudKit's members, as the store will hold them.
    package var members: [String] = []
    /// The quarantine or conflict resync had set it aside with, ended by --apply.
    package var setAsideEnded = false
    package var claimed = false
    package var requests = 0
    /// Once applied, when the code changed: the card printed from the store's version shows the
    /// wrong code; this prints CloudKit's (a plan's store still holds the old one).
    package var reprintCommand: String?
    /// A plan's command that adopts, with this run's store and remote.
    package var applyCommand: String?
    /// Who wrote CloudKit's record (`created.userRecordName`), and who this key acts as.
    package var creator: String?
    package var caller: String?
    /// The record was written by another creator (an app user, another developer's key): the
    /// store would follow a family this key may read but, under CloudKit's default roles, never
    /// change or delete.
    package var anotherCreator = false
    package var warning: String?
}

/// Takes CloudKit's version of a family into the store (a family resync set aside because an app
/// user's record holds its name, or whose copies differ): name, code and members as CloudKit has
/// them, the set-aside ended. CloudKit is read, then the store changes in one transaction, so a
/// kill leaves the store as it was or adopted, and a rerun converges.
package struct FamilyAdopter: Sendable {
    let request: AdoptRequest
    let logger: Logger

    package init(request: AdoptRequest, logger: Logger) {
        self.request = request
        self.logger = logger
    }

    package func run() async throws(CaseError) -> AdoptReport {
        let (store, writable) = try CaseStore.open(request.storePath, forWriting: request.apply)
        let found: NamedFamily?
        do throws(StoreError) {
            found = try store.namedFamily(request.family)
        } catch {
            throw .store(error)
        }
        guard let family = found else { throw .noSuchFamily(request.family, store: request.storePath) }
        var report = AdoptReport(store: request.storePath, familyId: family.id.rawValue, storeName: family.name,
                                 storeCode: request.display(family.code))
        var cloud = RemoteCase(client: request.client)
        let adopted: AdoptedFamily
        let familyRecord: CloudKitRecord?
        do throws(CloudKitError) {
            familyRecord = try await cloud.records(named: [family.id.rawValue])[family.id.rawValue]
        } catch {
            throw .remote(error)
        }
        guard let record = familyRecord, let code = record.string(FamilyField.code),
            let name = record.string(FamilyField.name)
        else {
            throw .notInCloudKit(family.id.rawValue)
        }
        do throws(CloudKitError) {
            let memberships =
                (try await cloud.memberships(of: [family.id.rawValue]))[family.id.rawValue] ?? []
            let profiles = try await cloud.records(
                named: memberships.compactMap { RemoteMembership($0).user })
            let claimName = try? CodeClaim.recordName(forCode: code)
            let claim = try await cloud.records(named: claimName.map { [$0] } ?? [])
            adopted = AdoptedFamily(id: family.id, name: name, code: CodeClaim.normalise(code),
                                    memberships: memberships.compactMap { Self.move($0, familyID: family.id, profiles: profiles) },
                                    claimed: claimName.flatMap { claim[$0] }.flatMap(CodeClaim.holder) == family.id.rawValue)
        } catch {
            throw .remote(error)
        }
        report.cloudKitName = adopted.name
        report.cloudKitCode = request.display(adopted.code)
        report.codeChanged = adopted.code != family.code
        report.members = adopted.memberships.map { "\($0.role.rawValue) \($0.status.rawValue) \($0.profile?.displayName ?? $0.userID.rawValue)" }
        report.claimed = adopted.claimed
        report.requests = cloud.requests
        try await checkCreator(of: record, report: &report)
        guard request.apply, let writable else {
            report.applyCommand = Advice.adopt(store: request.storePath, familyID: family.id,
                                               remote: request.client.configuration.adviceFlags, apply: true).command
            return report
        }
        do throws(StoreError) {
            try writable.adopt(adopted, previousCode: family.code)
        } catch {
            throw .store(error)
        }
        report.applied = true
        report.setAsideEnded = true
        if report.codeChanged { report.reprintCommand = Advice.reprint(store: request.storePath, familyID: family.id).command }
        logger.notice("family adopted from CloudKit", metadata: ["family": "\(family.id)"])
        return report
    }

    /// Compares the record's creator with the caller this key acts as: another creator's record
    /// is named before it is taken (records without a creator, as in a snapshot, are not judged).
    private func checkCreator(of record: CloudKitRecord, report: inout AdoptReport)
        async throws(CaseError)
    {
        guard let creator = record.created?.userRecordName else { return }
        let caller: String
        do throws(CloudKitError) {
            caller = try await request.client.caller().userRecordName
        } catch {
            throw .remote(error)
        }
        report.requests += 1
        (report.creator, report.caller) = (creator, caller)
        guard creator != caller else { return }
        report.anotherCreator = true
        report.warning = "CloudKit's record \(record.recordName) was written by another creator, \(creator) (this key acts as "
            + "\(caller)): adopting makes the store follow a family that creator owns; this toolkit may read it but, under "
            + "CloudKit's default roles, never change or delete it, so a later recode, merge or remove of this family stops at "
            + "CloudKit (ACCESS_DENIED) and only that creator, in the app, can change it"
    }

    static func move(_ record: CloudKitRecord, familyID: FamilyID, profiles: [String: CloudKitRecord]) -> MemberMove? {
        guard let member = AppMember(membership: record, profiles: profiles) else { return nil }
        let joined = RemoteMembership(record).joinedAt ?? .now
        return MemberMove(membershipID: MembershipID(rawValue: record.recordName), familyID: familyID, userID: member.member.userID,
                          role: MembershipRole(rawValue: member.member.role) ?? .adult,
                          status: MembershipStatus(rawValue: member.member.status) ?? .active, joinedAt: joined,
                          profile: member.profile)
    }
}
