import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardSupport

/// Creates, reads and releases code claims (`CodeClaim`) in the public database's default zone:
/// one records/modify per 200 claims, a records/lookup only for names CloudKit refused.
///
/// Nothing remote is ever overwritten: a claim is created (`create`, refused when the name exists)
/// or found by lookup and read with `ClaimHolder` (ours only when our caller made it for our
/// family); a claim is deleted only after a lookup showed it ours, with the change tag that lookup
/// returned, so a claim someone else re-made meanwhile stays.
package struct CodeClaimer: Sendable {
    package enum Outcome: Sendable, Equatable {
        /// Created now, or found ours (an earlier run created it, then was stopped).
        case claimed
        /// Someone else holds the name: another family's claim, a foreign claim, a squatter.
        case heldBy(ClaimHolder)
        /// CloudKit refused this claim alone (THROTTLED after every retry, INTERNAL_ERROR...).
        case failed(CloudKitRecordError)
    }

    package enum ReleaseOutcome: Sendable, Equatable {
        /// Deleted now, or already gone.
        case released
        /// The name is held by something not ours (see `ClaimHolder`): it stays.
        case notOurs(ClaimHolder)
        case failed(CloudKitRecordError)
    }

    /// What a lookup found under a claim's name.
    package enum Standing: Sendable, Equatable {
        case absent
        case held(ClaimHolder)
        case failed(CloudKitRecordError)
    }

    package struct Answer<Result: Sendable & Equatable>: Sendable {
        /// By claim record name; a name without an entry got no usable answer (see `problem`).
        package var outcomes: [String: Result] = [:]
        /// Results that did not match the request one to one, in a sentence.
        package var problem: String?
        package var requests = 0
    }

    /// Creates tried per claim: a throttled claim is sent again after its `retryAfter`, and one
    /// released between our refused create and our lookup is created again.
    static let attempts = 4
    /// A `retryAfter` longer than this leaves the claim failed for a later run rather than waiting.
    static let longestWait = 30.0

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
            var pending = Array(chunk)
            for attempt in 1...Self.attempts where !pending.isEmpty {
                let again = try await claimOnce(pending, into: &answer)
                guard attempt < Self.attempts, !again.claims.isEmpty, again.wait <= Self.longestWait
                else { break }
                if again.wait > 0 { try await Self.sleep(again.wait) }
                pending = again.claims
            }
        }
        return answer
    }

    /// `claim(_:)` as a value, for the synchronous pipeline's bridge.
    package func claimResult(_ claims: [CodeClaim]) async -> Result<Answer<Outcome>, CloudKitError>
    {
        do throws(CloudKitError) {
            return .success(try await claim(claims))
        } catch {
            return .failure(error)
        }
    }

    /// Claims to send again, and how long to wait first.
    private struct Again {
        var claims: [CodeClaim] = []
        var wait = 0.0
    }

    /// One create of `chunk`, a lookup of the refused names; returns what is worth another create.
    private func claimOnce(_ chunk: [CodeClaim], into answer: inout Answer<Outcome>)
        async throws(CloudKitError) -> Again
    {
        answer.requests += 1
        let names = chunk.map(\.recordName)
        let results = try await client.modify(chunk.map { CloudKitOperation(.create, $0.record) })
        let created = MatchedResults(
            asked: names, results: results, operation: "records/modify (code claims)")
        answer.problem = answer.problem ?? created.problem
        var again = Again()
        var refused: [(claim: CodeClaim, error: CloudKitRecordError)] = []
        for claim in chunk {
            switch created.byName[claim.recordName] {
            case nil: continue
            case .record?: answer.outcomes[claim.recordName] = .claimed
            // EXISTS as documented, CONFLICT as native CloudKit words a repeated create,
            // ACCESS_DENIED when the name is another creator's: whose is it? Decided per record.
            case .failure(let error)? where Self.refusals.contains(error.code):
                refused.append((claim, error))
            case .failure(let error)? where error.code.category == .transient:
                answer.outcomes[claim.recordName] = .failed(error)
                again.claims.append(claim)
                again.wait = max(
                    again.wait, error.retryAfter.map { $0.isFinite ? max($0, 0) : .infinity } ?? 1)
            case .failure(let error)?:
                try Self.stopIfConfiguration(error)
                answer.outcomes[claim.recordName] = .failed(error)
            }
        }
        guard !refused.isEmpty else { return again }
        let found = try await read(refused.map(\.claim), answer: &answer)
        for (claim, error) in refused {
            switch found[claim.recordName] {
            case nil: continue
            case .held(let holder)?:
                answer.outcomes[claim.recordName] =
                    holder == .family(claim.familyID.rawValue) ? .claimed : .heldBy(holder)
            case .absent?:
                // Nothing under the name: refused for what every claim would be (the type's roles),
                // or released between our create and this lookup, and a create again takes it.
                if error.code == .accessDenied { try Self.stopIfConfiguration(error) }
                answer.outcomes[claim.recordName] = .failed(error)
                again.claims.append(claim)
            case .failed(let failure)?: answer.outcomes[claim.recordName] = .failed(failure)
            }
        }
        return again
    }

    static let refusals: Set<CloudKitServerErrorCode> = [.exists, .conflict, .accessDenied]

    /// Reads what holds each claim's name, by lookup (a request per 200), up to the client's
    /// concurrency of lookups at once: a container of 20,000 codes is 100 round trips, which one
    /// after another would cost more than reading its families. Answers are merged in the order
    /// of the claims, so the first problem reported is the same however the lookups interleave.
    package func standing(_ claims: [CodeClaim]) async throws(CloudKitError) -> Answer<Standing> {
        let chunks = claims.chunked(CloudKitClient.maxOperationsPerRequest).map(Array.init)
        var answer = Answer<Standing>()
        // Who we are is asked once, before the lookups that need it start side by side.
        if !chunks.isEmpty { _ = try await ClaimCaller.name(of: client, requests: &answer.requests) }
        var answers = [Answer<Standing>?](repeating: nil, count: chunks.count)
        var failure: CloudKitError?
        await withTaskGroup(of: (Int, Result<Answer<Standing>, CloudKitError>).self) { group in
            var next = 0
            func launch() {
                guard next < chunks.count, failure == nil else { return }
                let index = next, chunk = chunks[index]
                next += 1
                group.addTask { [self] in (index, await standingResult(chunk)) }
            }
            for _ in 0..<client.concurrency { launch() }
            for await (index, result) in group {
                switch result {
                case .success(let answer): answers[index] = answer
                case .failure(let error):
                    failure = failure ?? error
                    group.cancelAll()
                }
                launch()
            }
        }
        if let failure { throw failure }
        for part in answers.compactMap({ $0 }) {
            answer.requests += part.requests
            answer.problem = answer.problem ?? part.problem
            answer.outcomes.merge(part.outcomes) { first, _ in first }
        }
        return answer
    }

    /// One lookup's standings, as a value for the task group.
    private func standingResult(_ chunk: [CodeClaim]) async -> Result<
        Answer<Standing>, CloudKitError
    > {
        do throws(CloudKitError) {
            var answer = Answer<Standing>()
            let found = try await read(chunk, answer: &answer)
            answer.outcomes = found
            return .success(answer)
        } catch {
            return .failure(error)
        }
    }

    private func read<R>(_ claims: [CodeClaim], answer: inout Answer<R>) async throws(CloudKitError)
        -> [String: Standing]
    {
        let caller = try await ClaimCaller.name(of: client, requests: &answer.requests)
        answer.requests += 1
        let found = try await lookup(claims.map(\.recordName), answer: &answer)
        var standings: [String: Standing] = [:]
        for claim in claims {
            switch found.byName[claim.recordName] {
            case nil: continue
            case .record(let record)?:
                standings[claim.recordName] = .held(ClaimHolder.reading(record, caller: caller))
            case .failure(let error)? where error.code == .notFound:
                standings[claim.recordName] = .absent
            case .failure(let error)?: standings[claim.recordName] = .failed(error)
            }
        }
        return standings
    }

    /// Deletes the claims that are ours for their family; anything else is left alone.
    package func release(_ claims: [CodeClaim]) async throws(CloudKitError) -> Answer<
        ReleaseOutcome
    > {
        var answer = Answer<ReleaseOutcome>()
        let caller = try await ClaimCaller.name(of: client, requests: &answer.requests)
        for chunk in claims.chunked(CloudKitClient.maxOperationsPerRequest) {
            answer.requests += 1
            let found = try await lookup(chunk.map(\.recordName), answer: &answer)
            var ours: [CloudKitRecord] = []
            for claim in chunk {
                switch found.byName[claim.recordName] {
                case nil: continue
                case .record(let record)?:
                    if let holder = ClaimHolder.of(record, familyID: claim.familyID, caller: caller)
                    {
                        answer.outcomes[claim.recordName] = .notOurs(holder)
                    } else {
                        ours.append(Self.deletion(of: record))
                    }
                case .failure(let error)? where error.code == .notFound:
                    answer.outcomes[claim.recordName] = .released
                case .failure(let error)?: answer.outcomes[claim.recordName] = .failed(error)
                }
            }
            guard !ours.isEmpty else { continue }
            answer.requests += 1
            let results = try await client.modify(ours.map { CloudKitOperation(.delete, $0) })
            let deleted = MatchedResults(
                asked: ours.map(\.recordName), results: results,
                operation: "records/modify (claim releases)")
            answer.problem = answer.problem ?? deleted.problem
            for record in ours {
                switch deleted.byName[record.recordName] {
                case nil: continue
                case .record?: answer.outcomes[record.recordName] = .released
                case .failure(let error)? where error.code == .notFound:
                    answer.outcomes[record.recordName] = .released
                // A refusal (changed since the lookup, roles changed) leaves the claim; it is tried
                // again later.
                case .failure(let error)?: answer.outcomes[record.recordName] = .failed(error)
                }
            }
        }
        return answer
    }

    /// A delete as documented: the record's name and the change tag the lookup read.
    static func deletion(of record: CloudKitRecord) -> CloudKitRecord {
        var deletion = CloudKitRecord(
            recordName: record.recordName, recordType: CodeClaim.recordType, fields: [:],
            recordChangeTag: record.recordChangeTag)
        deletion.recordType = nil
        deletion.fields = nil
        return deletion
    }

    private func lookup<R>(_ names: [String], answer: inout Answer<R>) async throws(CloudKitError)
        -> MatchedResults
    {
        let results = try await client.lookup(recordNames: names)
        let found = MatchedResults(
            asked: names, results: results, operation: "records/lookup (code claims)")
        answer.problem = answer.problem ?? found.problem
        return found
    }

    private static func sleep(_ seconds: Double) async throws(CloudKitError) {
        do {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        } catch {
            throw .outOfTime
        }
    }

    /// A claim refused for what every claim would be refused for (the type missing from a
    /// production schema, the type's security roles, the key) stops the run as configuration.
    static func stopIfConfiguration(_ error: CloudKitRecordError) throws(CloudKitError) {
        let reason = error.reason ?? ""
        if error.code == .badRequest, let problem = CloudKitError.schemaProblem(in: reason) {
            throw .schema(problem, reason: reason)
        }
        if error.code.category == .configuration {
            throw .service(
                code: error.code, httpStatus: 0,
                reason: reason.isEmpty ? "CloudKit refused a code claim" : reason, retryAfter: nil)
        }
    }
}
