import Foundation

/// Record names both sides derive from a code or a family, so they need no query to find.
public enum JoinNames {
    public static let claimPrefix = "tribeboard-family-code-claim:v1:"
    public static let adminSeatPrefix = "tribeboard-family-admin-seat:v1:"

    /// The claim of a code in wire form: lowercase hex SHA-256 of the prefix and the code.
    public static func claim(forCode code: String) -> String {
        JoinKitSHA256.hexHash(claimPrefix + code)
    }

    /// The claim of a code as typed: normalised first, so only a valid code is hashed.
    public static func claim(forTyped typed: String) throws(FamilyCodeTextError) -> String {
        claim(forCode: try FamilyCodeText.normalise(typed))
    }

    /// The id of a family's admin membership (its "admin seat"): a UUID made from the first 16
    /// bytes of SHA-256(prefix + the family's record name), with the RFC 9562 version 8 and
    /// variant bits set. Of any number of creates of this name exactly one succeeds, so one
    /// person, and only one, becomes the admin of a family whose admin was invited.
    public static func adminSeat(forFamily familyName: String) -> UUID {
        var bytes = Array(JoinKitSHA256.hash(Array((adminSeatPrefix + familyName).utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
        return UUID(uuid: uuid)
    }
}
