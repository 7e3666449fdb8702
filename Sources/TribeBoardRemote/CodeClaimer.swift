import Foundation
import TribeBoardCloudKit
import TribeBoardSupport

/// Creates and releases code claims (`CodeClaim`) in the public database's default zone: one
/// records/modify per 200 claims, a records/lookup only for names CloudKit already holds.
///
/// Nothing remote is ever overwritten: a claim is created (`create`, refused when the name exists)
/// or found by lookup; a claim is deleted only after a lookup showed it names our family, and with
/// the change tag that lookup returned, so a claim someone else re-made meanwhile stays.
package struct CodeClaimer: Sendable {
    package enum Outcome: Sendable, Equatable {
        /// Created now, or found naming this family (an earlier run created it, then was stopped).
        case claimed
        /// Another family holds the code; nil when the claim names none (a damaged record).
        case heldBy(String?)
        /// CloudKit refused this claim alone (THROTTLED, INTERNAL_ERROR...): try it later.
        case failed(CloudKitRecordError)
    }

    package enum ReleaseOutcome: Sendable, Equatable {
        /// Deleted now, or already gone.
        case released
        /// The claim names another family: it is not ours to delete, and stays.
        case notOurs(String?)
        case failed(CloudKitRecordError)
    }

    package struct Answer<Result: Sendable & Equatable>: Sendable {
        /// By claim record name; a name without an entry got no usable answer (see `problem`).
        package var outcomes: [String: Result] = [:]
        /// Results that did not match the request one to one, in a sentence.
        package var problem: String?
        package var requests = 0
    }

    let client: CloudKitClient

    package init(client: CloudKitClient) { self.client = client }

    /// Claims each code for its family. Claims of one code for two families in one call: the first
    /// is sent, the others are held by whoever ends up with it.
    package func claim(_ claims: [CodeClaim]) async throws(CloudKitError) -> Answer<Outcome> {
        var answer = Answer<Outcome>()
        var firstByName: [String: CodeClaim] = [:]
        var unique: [CodeClaim] = []
        for claim in claims where firstByName[claim.recordName] == nil {
            firstByName[claim.recordName] = claim
            unique.append(claim)
        }
        for chunk in unique.chunked(CloudKitClient.maxOperationsPerRequest) {
            try await claimChunk(Array(chunk), into: &answer)
        }
        return answer
    }

    /// `claim(_:)` as a value, for the synchronous pipeline's bridge.
    package func claimResult(_ claims: [CodeClaim]) async -> Result<Answer<Outcome>, CloudKitError> {
        do throws(CloudKitError) {
            return .success(try await claim(claims))
        } catch {
            return .failure(error)
        }
    }

    private func claimChunk(_ chunk: [CodeClaim], into answer: inout Answer<Outcome>) async throws(CloudKitError) {
        answer.requests += 1
        let names = chunk.map(\.recordName)
        let results = try await client.modify(chunk.map { CloudKitOperation(.create, $0.record) })
        let created = MatchedResults(asked: names, results: results, operation: "records/modify (code claims)")
        answer.problem = answer.problem ?? created.problem
        var taken: [CodeClaim] = []
        for claim in chunk {
            switch created.byName[claim.recordName] {
            case nil: continue
            case .record?: answer.outcomes[claim.recordName] = .claimed
            // EXISTS as documented, or CONFLICT as native CloudKit words a repeated create: whose is it?
            case .failure(let error)? where error.code == .exists || error.code == .conflict: taken.append(claim)
            case .failure(let error)?:
                try Self.stopIfConfiguration(error)
                answer.outcomes[claim.recordName] = .failed(error)
            }
        }
        guard !taken.isEmpty else { return }
        answer.requests += 1
        let lookedUp = try await lookup(taken.map(\.recordName), answer: &answer)
        for claim in taken {
            switch lookedUp.byName[claim.recordName] {
            case nil: continue
            case .record(let record)?:
                let holder = CodeClaim.holder(in: record)
                answer.outcomes[claim.recordName] = holder == claim.familyID ? .claimed : .heldBy(holder)
            // Released between our create and this lookup: a later attempt creates it.
            case .failure(let error)?: answer.outcomes[claim.recordName] = .failed(error)
            }
        }
    }

    /// Deletes the claims that still name their family; claims of others are left alone.
    package func release(_ claims: [CodeClaim]) async throws(CloudKitError) -> Answer<ReleaseOutcome> {
        var answer = Answer<ReleaseOutcome>()
        for chunk in claims.chunked(CloudKitClient.maxOperationsPerRequest) {
            answer.requests += 1
            let found = try await lookup(chunk.map(\.recordName), answer: &answer)
            var ours: [CloudKitRecord] = []
            for claim in chunk {
                switch found.byName[claim.recordName] {
                case nil: continue
                case .record(let record)?:
                    let holder = CodeClaim.holder(in: record)
                    if holder == claim.familyID { ours.append(record) } else { answer.outcomes[claim.recordName] = .notOurs(holder) }
                case .failure(let error)? where error.code == .notFound: answer.outcomes[claim.recordName] = .released
                case .failure(let error)?: answer.outcomes[claim.recordName] = .failed(error)
                }
            }
            guard !ours.isEmpty else { continue }
            answer.requests += 1
            let results = try await client.modify(ours.map { CloudKitOperation(.delete, $0) })
            let deleted = MatchedResults(asked: ours.map(\.recordName), results: results, operation: "records/modify (claim releases)")
            answer.problem = answer.problem ?? deleted.problem
            for record in ours {
                switch deleted.byName[record.recordName] {
                case nil: continue
                case .record?: answer.outcomes[record.recordName] = .released
                case .failure(let error)? where error.code == .notFound: answer.outcomes[record.recordName] = .released
                // A refusal (a claim another key made, roles changed) leaves the claim; it is tried again later.
                case .failure(let error)?: answer.outcomes[record.recordName] = .failed(error)
                }
            }
        }
        return answer
    }

    private func lookup<R>(_ names: [String], answer: inout Answer<R>) async throws(CloudKitError) -> MatchedResults {
        let results = try await client.lookup(recordNames: names)
        let found = MatchedResults(asked: names, results: results, operation: "records/lookup (code claims)")
        answer.problem = answer.problem ?? found.problem
        return found
    }

    /// A claim refused for what every claim would be refused for (the type missing from a
    /// production schema, the type's security roles, the key) stops the run as configuration.
    static func stopIfConfiguration(_ error: CloudKitRecordError) throws(CloudKitError) {
        let reason = error.reason ?? ""
        if error.code == .badRequest, let problem = CloudKitError.schemaProblem(in: reason) {
            throw .schema(problem, reason: reason)
        }
        if error.code.category == .configuration {
            throw .service(code: error.code, httpStatus: 0, reason: reason.isEmpty ? "CloudKit refused a code claim" : reason, retryAfter: nil)
        }
    }
}
