/// How a family code a person typed (or a scanner read) becomes the code: the one normalisation
/// the app and the toolkit share, scalar by scalar, with no locale and no Foundation.
///
/// 1. Trim: drop leading and trailing scalars of `trimmed` (the white space and line breaks of
///    Unicode's `White_Space` property, plus U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER and
///    U+FEFF, which copying from messaging apps leaves around a code). Inside a code they stay,
///    and are refused in step 3.
/// 2. Fold, scalar by scalar: `a`-`z` (0x61-0x7A) minus 0x20 to `A`-`Z`; full-width `０`-`９`,
///    `Ａ`-`Ｚ`, `ａ`-`ｚ` (U+FF10-FF19, U+FF21-FF3A, U+FF41-FF5A: what CJK input methods type) to
///    their ASCII letters, upper-cased; `İ` (U+0130) and `ı` (U+0131), the Turkish I's, to `I`.
///    Nothing else changes: no locale's upper-casing (a Turkish locale makes `i` into `İ`), no
///    expansion (`ß` would become `SS` and change the length), no compatibility mapping.
/// 3. Check: the result must match `^[A-Z0-9]{6,8}$`; otherwise the first scalar outside it, or
///    the length, is the error. Only a code that passes is hashed or sent anywhere.
public enum FamilyCodeText {
    public static let allowedLengths: ClosedRange<Int> = 6...8

    /// Scalars trimmed at either end (and only at the ends).
    public static let trimmed: Set<Unicode.Scalar> = {
        let values: [UInt32] = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680,
                                0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
                                0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
                                0x200B, 0x2060, 0xFEFF]
        return Set(values.compactMap(Unicode.Scalar.init))
    }()

    /// The code in its wire form (`^[A-Z0-9]{6,8}$`), or why the text is not one.
    public static func normalise(_ typed: String) throws(FamilyCodeTextError) -> String {
        let scalars = Array(typed.unicodeScalars)
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, trimmed.contains(scalars[start]) { start += 1 }
        while end > start, trimmed.contains(scalars[end - 1]) { end -= 1 }
        var result = String.UnicodeScalarView()
        for scalar in scalars[start..<end] {
            guard let folded = fold(scalar) else { throw .invalidCharacter(scalar) }
            result.append(folded)
        }
        let count = end - start
        guard allowedLengths.contains(count) else { throw .wrongLength(count) }
        return String(result)
    }

    /// The wire character a scalar stands for, or nil when it stands for none.
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let value = scalar.value
        switch value {
        case 0x30...0x39, 0x41...0x5A: return scalar
        case 0x61...0x7A: return Unicode.Scalar(value - 0x20)
        case 0xFF10...0xFF19, 0xFF21...0xFF3A: return Unicode.Scalar(value - 0xFEE0)
        case 0xFF41...0xFF5A: return Unicode.Scalar(value - 0xFEE0 - 0x20)
        case 0x130, 0x131: return "I"
        default: return nil
        }
    }

    /// Whether a text is already a code in wire form (what a record's `code` field must hold).
    public static func isWireForm(_ code: String) -> Bool {
        allowedLengths.contains(code.unicodeScalars.count)
            && code.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}

public enum FamilyCodeTextError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongLength(Int)
    case invalidCharacter(Unicode.Scalar)

    public var description: String {
        switch self {
        case .wrongLength(let length):
            let lengths = FamilyCodeText.allowedLengths
            return "a family code has \(lengths.lowerBound) to \(lengths.upperBound) characters, this one has \(length)"
        case .invalidCharacter(let scalar):
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return "a family code uses only A-Z and 0-9, found \"\(Character(scalar))\" (U+\(padded))"
        }
    }
}
