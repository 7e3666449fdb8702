import Foundation
import TribeBoardJoinKit
import TribeBoardSupport

/// A family code in the app's wire format: `^[A-Z0-9]{6,8}$`.
///
/// Whoever holds a code can ask to join the family, so `description` masks it; use `value` only
/// where the code itself is the data (the store, the manifest, the QR image).
package struct FamilyCode: Hashable, Sendable, CustomStringConvertible {
    /// The join kit's (the app's) lengths: `6...8`.
    package static let allowedLengths = FamilyCodeText.allowedLengths
    /// `allowedLengths` in words, for messages ("6 to 8").
    package static let allowedLengthsText =
        "\(allowedLengths.lowerBound) to \(allowedLengths.upperBound)"
    /// Each length, for an option's message ("6, 7 or 8").
    package static let allowedLengthsList: String = {
        let lengths = allowedLengths.map(String.init)
        return lengths.dropLast().joined(separator: ", ") + " or " + (lengths.last ?? "")
    }()
    /// The wire format as a regular expression, for messages (`^[A-Z0-9]{6,8}$`).
    package static let wireFormatPattern =
        "^[A-Z0-9]{\(allowedLengths.lowerBound),\(allowedLengths.upperBound)}$"
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

    /// Whether a text is a code in wire form (`^[A-Z0-9]{6,8}$`, what a record's `code` must
    /// hold): the join kit's `isWireForm`, checked on bytes, since an audit checks a million codes
    /// (`FamilyCodeTests` keeps the two equal).
    package static func isWireFormat(_ code: String) -> Bool {
        guard allowedLengths.contains(code.utf8.count) else { return false }
        return code.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy(isWireByte) }
            ?? code.utf8.allSatisfy(isWireByte)
    }

    private static func isWireByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
    }

    /// The code the app finds for what a person typed (the join kit's normalisation: trimmed,
    /// case and full-width forms folded), or nil when the text is no code.
    package static func normalised(_ typed: String) -> String? {
        try? FamilyCodeText.normalise(typed)
    }

    /// Codes a person would take for the same (how audit and migrate group them, and how a family
    /// is found by its code): the code the app finds, else the text trimmed and upper-cased, so
    /// that text which is no code still meets its look-alikes.
    package static func key(_ typed: String) -> String {
        if isWireFormat(typed) { return typed }
        return normalised(typed)
            ?? typed.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
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
            return "a family code has \(FamilyCode.allowedLengthsText) characters, this one has \(length)"
        case .invalidCharacter(let character):
            return "a family code uses only A-Z and 0-9, found \"\(character)\""
        }
    }
}

/// What an operator typed to name a family (`doctor family`, `recode`, `remove`, `merge`,
/// `adopt`, `resync --reupload`, `sheets --family-id/--external-id/--code`, a `--from-file`
/// line): a record id, a code or an external id, trimmed as the join kit trims a code (tabs,
/// line breaks, no-break and zero-width spaces pasted from a message included).
package struct FamilyQuery: Sendable, Equatable {
    /// Trimmed, otherwise as typed: an external id is compared as it is.
    package let typed: String

    package init(_ query: String) {
        let scalars = query.unicodeScalars
        let start = scalars.firstIndex { !FamilyCodeText.trimmed.contains($0) } ?? scalars.endIndex
        let end =
            scalars.lastIndex { !FamilyCodeText.trimmed.contains($0) }.map(scalars.index(after:))
            ?? start
        typed = String(scalars[start..<max(start, end)])
    }

    /// Nothing but white space (or the zero-width characters the kit trims) was typed.
    package var isEmpty: Bool { typed.isEmpty }
    /// As a record id: the app's ids are uppercase UUIDs.
    package var recordID: String { typed.uppercased() }
    /// As a code: the one the app finds for it (`FamilyCode.key`).
    package var code: String { FamilyCode.key(typed) }
}
