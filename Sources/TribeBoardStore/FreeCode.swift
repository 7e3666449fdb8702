import TribeBoardDomain

extension FamilyCodeGenerator {
    /// A code no family in the store has, not in `taken`, and not one `isReserved` says is spoken
    /// for (provisioning: a code a later line of the file preassigns). The one free-code rule of
    /// provisioning, the audit's repair and migrate.
    package func generateFree(avoiding taken: Set<String> = [], lookups: FamilyLookups,
                              isReserved: (String) throws -> Bool = { _ in false }) throws -> FamilyCode {
        try generate { candidate in
            if taken.contains(candidate.value) { return true }
            if try lookups.family(code: candidate.value) != nil { return true }
            return try isReserved(candidate.value)
        }
    }
}
