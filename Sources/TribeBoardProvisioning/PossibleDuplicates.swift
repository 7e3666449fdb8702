import Foundation
import TribeBoardSupport
import TribeBoardCSV
import TribeBoardDomain
import TribeBoardStore

/// Finds possible duplicates: a key per (folded name, folded admin name) and per (folded name,
/// admin hash), looked up in a scratch index of the store's families and the file's earlier rows.
/// Rows without an admin are not checked: a family name alone is shared by many families.
struct PossibleDuplicateCheck: Sendable {
    let index: NameAndAdminIndex
    let skip: Bool
    let storePath: String

    static let loadChunk = 4096

    init(skip: Bool, storePath: String) throws(StoreError) {
        index = try NameAndAdminIndex()
        self.skip = skip
        self.storePath = storePath
    }

    static func keys(name: String, adminName: String, adminHash: String?) -> [String] {
        NameFold.registrationKeys(name: name, adminName: adminName, adminHash: adminHash)
    }

    /// The store's families with an admin, read once in one pass at the start of the run.
    func load(from store: some StoreReading) throws(StoreError) {
        var chunk: [(key: String, holder: NameAndAdminIndex.Holder)] = []
        chunk.reserveCapacity(Self.loadChunk)
        try store.forEachFamilyWithAdmin { family in
            let external = ImportKey.externalId(in: family.importKey)
            let holder = NameAndAdminIndex.Holder(
                familyID: family.familyID, line: nil, externalId: external,
                name: family.name, importKey: family.importKey)
            for key in Self.keys(
                name: family.name, adminName: family.adminName, adminHash: family.adminHash)
            {
                chunk.append((key, holder))
            }
            if chunk.count >= Self.loadChunk {
                try index.add(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try index.add(chunk)
    }

    /// Marks the batch's possible duplicates: noted on the row (created, with a warning) or the
    /// row turned into a skipped one.
    func check(_ batch: inout [BatchEntry]) throws(StoreError) {
        var positions: [Int] = []
        var candidates: [NameAndAdminIndex.Candidate] = []
        for (position, entry) in batch.enumerated() {
            guard case .valid(let row) = entry, let admin = row.admin else { continue }
            positions.append(position)
            candidates.append(
                .init(
                    keys: Self.keys(
                        name: row.familyName, adminName: admin.displayName,
                        adminHash: admin.appleUserIdHash),
                    holder: .init(
                        familyID: nil, line: row.line, externalId: row.externalId,
                        name: row.familyName, importKey: row.importKey)))
        }
        guard !candidates.isEmpty else { return }
        let holders = try index.firstHolders(of: candidates, keepMatched: !skip)
        for (position, holder) in zip(positions, holders) {
            guard let holder, case .valid(var row) = batch[position] else { continue }
            let duplicate = PossibleDuplicate(
                line: row.line, externalId: row.externalId, familyName: row.familyName,
                skipped: skip,
                matches: .init(
                    source: holder.familyID == nil ? "file" : "store",
                    familyId: holder.familyID?.rawValue,
                    line: holder.line, externalId: holder.externalId, familyName: holder.name),
                look: Advice.doctorFamily(store: storePath, family: holder.name).command)
            row.possibleDuplicate = duplicate
            batch[position] = .valid(row)
        }
    }
}

extension ProvisionRowResult {
    /// A row left out as a possible duplicate: no family, no code, no QR file.
    static func skipped(_ row: ValidatedRow) -> ProvisionRowResult {
        var result = ProvisionRowResult(
            line: row.line, externalId: row.externalId, familyId: nil, familyName: row.familyName,
            code: nil, status: .skipped,
            error: row.possibleDuplicate.map {
                "possible duplicate of \($0.matchDescription) (same name and admin); "
                    + "skipped (--skip-possible-duplicates)"
            },
            needsQRCode: false)
        result.possibleDuplicate = row.possibleDuplicate
        return result
    }
}
