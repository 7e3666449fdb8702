import Foundation
import TribeBoardJoinKit
import TribeBoardSupport

/// A family code in the app's wire format: `^[A-Z0-9]{6,8}$`.
///
/// Whoever holds a code can ask to join the family, so `description` masks it; use `value` only
/// where the code itself is the data (the store, the manifest, the QR image).
package struct FamilyCode: Hashable, Sendable, CustomStringConvertible {
    package static let allowedLengths = 6...8
    /// What the toolkit generates: `A-Z0-9` without the look-alikes 0, O, 1 and I.
    /// 32 symbols, so one random byte's low 5 bits pick a symbol without bias.
    package static let generatedAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789".utf8)

    package let value: String

    /// A code as a person typed it, read by the join kit's one normalisation (trimmed of the
    /// exact characters it lists, ASCII upper-cased, full-width and Turkish I's folded, then
    /// checked against `^[A-Z0-9]{6,8}$`): the app finds exactly the codes this accepts.
    /// Look-alike characters are accepted here: codes created by the app may contain them.
    package init(validating raw: String) throws(FamilyCodeFormatError) {
        do {
            self.value = try FamilyCodeText.normalise(raw)
        } catch {
            switch error {
            case .wrongLength(let length): throw .wrongLength(length)
            case .invalidCharacter(let scalar): throw .invalidCharacter(Character(scalar))
            }
        }
    }

    /// The name of this code's `FamilyCodeClaim` record (the join kit's derivation).
    package var claimRecordName: String { JoinNames.claim(forCode: value) }

    init(trusted value: String) {
        self.value = value
    }

    package static func isWireCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    package var description: String { Self.mask(value) }

    /// Keeps the first two characters, enough to tell codes apart in a log, useless to join with.
    package static func mask(_ code: String) -> String {
        String(code.prefix(2)) + String(repeating: "*", count: max(code.count - 2, 0))
    }
}

package enum FamilyCodeFormatError: Error, Equatable, LocalizedError {
    case wrongLength(Int)
    case invalidCharacter(Character)

    package var errorDescription: String? {
        switch self {
        case .wrongLength(let length):
            return "a family code has 6 to 8 characters, this one has \(length)"
        case .invalidCharacter(let character):
            return "a family code uses only A-Z and 0-9, found \"\(character)\""
        }
    }
}
