/// Finding a family by its code, step by step: normalise, look the claim up by name, check it,
/// look its family up by name. Each step's result is kept, so a support tool can show where the
/// lookup stopped and the app can say why.
public struct CodeLookup: Sendable, Equatable {
    public enum Stop: Sendable, Equatable {
        case invalidCode(FamilyCodeTextError)
        /// No record has the claim's name: nobody holds this code.
        case noClaim
        /// A record has the claim's name but is not a `FamilyCodeClaim`.
        case notAClaim(recordType: String)
        /// The claim names no family.
        case claimWithoutFamily
        /// The claim names a family that is not there (deleted, or never uploaded).
        case familyGone(familyName: String)
        /// The family is there but the app's decoder would refuse it.
        case familyUnreadable(familyName: String)
        /// The claim was not created by whoever created the family: anyone can create a record
        /// with a claim's name, so only the family's own creator's claim counts.
        case foreignClaim(claimCreator: String?, familyCreator: String?)
        /// The family now has another code (recoded); this claim is left over.
        case staleClaim(familyCode: String)
    }

    public var code: String?
    public var claimName: String?
    public var claim: JoinRecord?
    public var familyRecord: JoinRecord?
    public var family: FamilyRecord?
    public var stop: Stop?

    public init() {}

    /// Runs the lookup against a database.
    public static func run(_ typed: String, in database: some JoinDatabase) async throws -> CodeLookup {
        var lookup = CodeLookup()
        let code: String
        do {
            code = try FamilyCodeText.normalise(typed)
        } catch {
            lookup.stop = .invalidCode(error)
            return lookup
        }
        lookup.code = code
        let claimName = JoinNames.claim(forCode: code)
        lookup.claimName = claimName
        guard let claim = try await database.fetch([claimName])[claimName] else {
            lookup.stop = .noClaim
            return lookup
        }
        lookup.claim = claim
        guard claim.type == JoinRecordType.codeClaim else {
            lookup.stop = .notAClaim(recordType: claim.type)
            return lookup
        }
        guard let familyName = claim.string("family"), !familyName.isEmpty else {
            lookup.stop = .claimWithoutFamily
            return lookup
        }
        guard let familyRecord = try await database.fetch([familyName])[familyName] else {
            lookup.stop = .familyGone(familyName: familyName)
            return lookup
        }
        lookup.familyRecord = familyRecord
        guard let family = FamilyRecord(familyRecord) else {
            lookup.stop = .familyUnreadable(familyName: familyName)
            return lookup
        }
        guard let claimCreator = claim.creator, claimCreator == familyRecord.creator else {
            lookup.stop = .foreignClaim(claimCreator: claim.creator, familyCreator: familyRecord.creator)
            return lookup
        }
        guard family.code == code else {
            lookup.stop = .staleClaim(familyCode: family.code)
            return lookup
        }
        lookup.family = family
        return lookup
    }
}
