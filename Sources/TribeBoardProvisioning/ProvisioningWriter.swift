import Foundation
import TribeBoardCSV
import TribeBoardDomain
import TribeBoardStore

/// Writes provisioning batches through the store's `ProvisioningBatch` (one IMMEDIATE
/// transaction per batch, a savepoint per family): this decides what each row becomes.
struct ProvisioningWriter {
    let generator: FamilyCodeGenerator
    let reservations: RowTracker?
    let qrFileExists: (FamilyID) -> Bool
    let ids: RecordIDGenerator

    func write(
        _ batch: [BatchEntry], planned: [Int: CodePlanner.Planned] = [:], to store: TribeBoardStore,
        at timestamp: Timestamp
    ) throws(StoreError) -> [ProvisionRowResult] {
        return try store.provisioningBatch(newID: { UserID(rawValue: try ids.make()) }) {
            transaction in
            try batch.map {
                try provision($0, planned: planned, transaction: transaction, timestamp: timestamp)
            }
        }
    }

    private func provision(
        _ entry: BatchEntry, planned: [Int: CodePlanner.Planned], transaction: ProvisioningBatch,
        timestamp: Timestamp
    ) throws -> ProvisionRowResult {
        switch entry {
        case .invalid(let line, let externalId, let name, let importKey, let error):
            try transaction.logFailure(
                importKey: importKey, line: line, reached: [.idle, .validating],
                failure: error.localizedDescription, at: timestamp)
            return ProvisionRowResult(
                line: line, externalId: externalId, familyId: nil, familyName: name,
                code: nil, status: .failed, error: error.localizedDescription, needsQRCode: false)
        case .valid(let row) where row.skipped:
            return .skipped(row)
        case .valid(let row):
            if let existing = try transaction.lookups.family(importKey: row.importKey) {
                if let conflict = try PreassignedCode.conflict(
                    row, existing: existing, lookups: transaction.lookups)
                {
                    return failed(row, conflict.localizedDescription)
                }
                var result = ProvisionRowResult(
                    line: row.line, externalId: row.externalId, familyId: existing.id,
                    familyName: existing.name, code: existing.code, status: .existing,
                    error: nil, needsQRCode: true)
                result.checkExistingQRCode = qrFileExists(existing.id)
                return result
            }
            do {
                return try create(
                    row, planned: planned[row.line], transaction: transaction, timestamp: timestamp)
            } catch let error as RowError {
                try logFailure(
                    row, transaction, timestamp: timestamp,
                    reached: [.idle, .validating, .generatingCode], error)
                return failed(row, error.localizedDescription)
            } catch let error as CodeGenerationError {
                try logFailure(
                    row, transaction, timestamp: timestamp,
                    reached: [.idle, .validating, .generatingCode], error)
                return failed(row, error.localizedDescription)
            } catch let error as RandomSourceError {
                let message = "could not make a record id: \(error.localizedDescription)"
                try logFailure(
                    row, transaction, timestamp: timestamp,
                    reached: [.idle, .validating, .generatingCode, .creatingLocally],
                    RowError(column: nil, message))
                return failed(row, message)
            }
        }
    }

    private func create(
        _ row: ValidatedRow, planned: CodePlanner.Planned?, transaction: ProvisioningBatch,
        timestamp: Timestamp
    ) throws -> ProvisionRowResult {
        let chosen = try chooseCode(for: row, planned: planned, lookups: transaction.lookups)
        let (code, verified) = (chosen.code, chosen.verifiedRemotely)
        let verifiedAt = verified ? timestamp : nil
        let familyID = FamilyID(rawValue: try ids.make())
        try transaction.allOrNothing {
            var creatorID = transaction.operatorID
            var profileID: UserID?
            if let admin = row.admin {
                profileID = try transaction.findOrInsert(UserProfile(id: UserID(rawValue: try ids.make()), displayName: admin.displayName,
                                                                     appleUserIdHash: admin.appleUserIdHash, createdAt: timestamp))
                creatorID = profileID ?? creatorID
            }
            try transaction.insert(Family(id: familyID, name: row.familyName, code: code.value, createdByUserID: creatorID,
                                          createdAt: timestamp, importKey: row.importKey, sourceLine: row.line,
                                          codeVerifiedRemotelyAt: verifiedAt))
            if let admin = row.admin, let profileID {
                try transaction.insert(Membership(id: MembershipID(rawValue: try ids.make()), familyID: familyID, userID: profileID,
                                                  role: .parentAdmin, status: admin.membershipStatus, joinedAt: timestamp))
            }
            try transaction.logCompletedCreation(
                familyID: familyID, importKey: row.importKey, line: row.line, at: timestamp)
        }
        var result = ProvisionRowResult(
            line: row.line, externalId: row.externalId, familyId: familyID,
            familyName: row.familyName, code: code.value, status: .created,
            error: nil, needsQRCode: true, codeVerifiedRemotely: verified)
        result.codePreassigned = row.preassignedCode != nil
        result.possibleDuplicate = row.possibleDuplicate
        return result
    }

    /// A preassigned code is kept or the row fails; it is never silently replaced.
    /// The planned code when it is still free; otherwise (a concurrent run took it) a new one,
    /// checked locally only.
    private func chooseCode(
        for row: ValidatedRow, planned: CodePlanner.Planned?, lookups: FamilyLookups
    ) throws -> CodePlanner.Planned {
        if let code = row.preassignedCode {
            if let problem = try PreassignedCode.problem(
                row, lookups: lookups, reservations: reservations)
            {
                throw problem
            }
            return CodePlanner.Planned(
                code: code, verifiedRemotely: planned?.verifiedRemotely ?? false)
        }
        if let planned, try lookups.family(code: planned.code.value) == nil,
           try reservations?.reservedLine(for: planned.code.value) == nil {
            return planned
        }
        return CodePlanner.Planned(
            code: try generator.generateFree(lookups: lookups, reservations: reservations),
            verifiedRemotely: false)
    }

    private func logFailure(
        _ row: ValidatedRow, _ transaction: ProvisioningBatch, timestamp: Timestamp,
        reached: [FamilyCreationState], _ error: any Error
    ) throws {
        try transaction.logFailure(
            importKey: row.importKey, line: row.line, reached: reached,
            failure: error.localizedDescription, at: timestamp)
    }

    private func failed(_ row: ValidatedRow, _ message: String) -> ProvisionRowResult {
        ProvisionRowResult(
            line: row.line, externalId: row.externalId, familyId: nil, familyName: row.familyName,
            code: nil, status: .failed, error: message, needsQRCode: false)
    }
}
