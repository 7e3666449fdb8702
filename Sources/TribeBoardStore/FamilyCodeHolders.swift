import Foundation
import GRDB
import TribeBoardDomain

/// The store's families as code holders, for a migration deciding who keeps a code, and fresh
/// codes free in the store.
extension TribeBoardStore {
    package struct CodeHolder: Sendable, Equatable {
        package let id: FamilyID
        package let code: String
        /// nil when the column holds no date (a hand edit).
        package let createdAt: Timestamp?
    }
}

extension StoreReading {
    /// The families whose code `matches` (one pass over the table: the caller's comparison is not
    /// SQL's, which is exact). A hand-edited row without a text id or code holds nothing anyone
    /// can match and is passed over.
    package func codeHolders(where matches: (String) -> Bool) throws(StoreError) -> [TribeBoardStore.CodeHolder] {
        do {
            return try reader.read { db in
                var holders: [TribeBoardStore.CodeHolder] = []
                let rows = try Row.fetchCursor(db, sql: "SELECT id, code, created_at FROM families")
                while let row = try rows.next() {
                    guard let id = row.text("id"), let code = row.text("code"), matches(code) else { continue }
                    holders.append(TribeBoardStore.CodeHolder(id: FamilyID(rawValue: id), code: code,
                                                              createdAt: row.timestamp("created_at")))
                }
                return holders
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// A new code, held in the store by no family and not among `taken`.
    package func freeCode(avoiding taken: Set<String>) throws -> FamilyCode {
        guard let code = try freeCodes(1, avoiding: taken, generator: FamilyCodeGenerator()).first else {
            throw StoreError.readFailed(reason: "no free code was generated")
        }
        return code
    }

    /// `count` new codes, none held in the store nor among `taken`, nor equal to each other: the
    /// one free-code operation of the audit's repair, recode and migrate (one read). The
    /// generator's own failures (no free code, no randomness) are thrown as they are.
    package func freeCodes(_ count: Int, avoiding taken: Set<String>, generator: FamilyCodeGenerator) throws -> [FamilyCode] {
        guard count > 0 else { return [] }
        do {
            return try reader.read { db in
                let lookups = try FamilyLookups(db)
                var avoid = taken
                return try (0..<count).map { _ in
                    let code = try generator.generateFree(avoiding: avoid, lookups: lookups)
                    avoid.insert(code.value)
                    return code
                }
            }
        } catch let error as CodeGenerationError {
            throw error
        } catch {
            throw StoreError.reading(error, store: path)
        }
    }
}
