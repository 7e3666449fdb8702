import Foundation
import TribeBoardCSV
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// Chooses the codes of a batch's new families before its store transaction: generation (with its
/// retry backoff) and the remote check (a network round trip) must not hold SQLite's write lock.
/// The transaction re-checks each planned code locally, in case a concurrent run took it meanwhile.
struct CodePlanner {
    struct Planned: Sendable {
        var code: FamilyCode
        var verifiedRemotely: Bool
    }

    /// Rounds of "regenerate what the remote already has, ask again".
    static let remoteRounds = 3

    let generator: FamilyCodeGenerator
    let reservations: RowTracker?
    let remote: RemoteCodeCheck?

    /// Planned codes by CSV line. Rows whose preassigned code a remote family holds become invalid.
    func plan(_ batch: inout [BatchEntry], store: TribeBoardStore) async throws -> [Int: Planned] {
        var planned: [Int: Planned] = [:]
        var preassigned: [Int: Int] = [:]  // line -> index in batch
        var taken = Set<String>()          // codes of this batch, and remote ones to avoid
        try store.withFamilyLookups { lookups in
            for (index, entry) in batch.enumerated() {
                guard case .valid(let row) = entry, !row.skipped, try lookups.family(importKey: row.importKey) == nil else { continue }
                if let code = row.preassignedCode {
                    preassigned[row.line] = index
                    planned[row.line] = Planned(code: code, verifiedRemotely: false)
                    taken.insert(code.value)
                    continue
                }
                // A generation failure is left to the store transaction, which fails and logs that
                // row alone; a store failure stops the run as one.
                guard let code = try generateOrNil(avoiding: taken, lookups: lookups) else { continue }
                taken.insert(code.value)
                planned[row.line] = Planned(code: code, verifiedRemotely: false)
            }
        }
        guard let remote else { return planned }
        var unchecked = Set(planned.keys)
        for _ in 0..<Self.remoteRounds where !unchecked.isEmpty {
            let lines = unchecked.sorted()
            guard
                let holders = await remote.holders(of: lines.compactMap { planned[$0]?.code.value })
            else { break }
            var collided = Set<Int>()
            for line in lines {
                guard let code = planned[line]?.code.value else { continue }
                guard let holder = holders[code] else {
                    planned[line]?.verifiedRemotely = true
                    continue
                }
                taken.insert(code)
                if let index = preassigned[line], case .valid(let row) = batch[index] {
                    // Seed requirement 2.2 applies to generated codes only: a kept code is never replaced.
                    batch[index] = .invalid(line: row.line, externalId: row.externalId, familyName: row.familyName, importKey: row.importKey,
                                            error: RowError(column: FamilyCSVColumn.code.rawValue, "is already used by family \(holder) in CloudKit"))
                    planned[line] = nil
                } else {
                    collided.insert(line)
                }
            }
            if !collided.isEmpty {
                try store.withFamilyLookups { lookups in
                    for line in collided {
                        planned[line] = nil
                        guard let code = try generateOrNil(avoiding: taken, lookups: lookups) else {
                            continue
                        }
                        taken.insert(code.value)
                        planned[line] = Planned(code: code, verifiedRemotely: false)
                    }
                }
            }
            unchecked = collided
        }
        return planned
    }

    /// Nil when no code could be generated (the random source failed or every try collided).
    private func generateOrNil(avoiding taken: Set<String>, lookups: FamilyLookups) throws
        -> FamilyCode?
    {
        do {
            return try generator.generateFree(
                avoiding: taken, lookups: lookups, reservations: reservations)
        } catch is CodeGenerationError {
            return nil
        }
    }
}

extension FamilyCodeGenerator {
    /// A code no family in the store has, no line of the file preassigns, and not in `taken`.
    package func generateFree(
        avoiding taken: Set<String> = [], lookups: FamilyLookups, reservations: RowTracker?
    ) throws -> FamilyCode {
        try generateFree(avoiding: taken, lookups: lookups) {
            try reservations?.reservedLine(for: $0) != nil
        }
    }
}
