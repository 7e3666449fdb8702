import Foundation
import TribeBoardDomain

/// What the audit says of a code outside the wire format (`FamilyCode.isWireFormat`).
enum CodeFormat {
    /// What is wrong with a code, without quoting it (the report may be shared).
    static func problem(_ code: String) -> String {
        var problems: [String] = []
        if code.isEmpty { return "it is empty" }
        if code != code.trimmingCharacters(in: .whitespacesAndNewlines) { problems.append("it has surrounding spaces") }
        let trimmed = code.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.unicodeScalars.contains(where: { ("a"..."z").contains($0) }) { problems.append("it has lower-case letters") }
        if trimmed.unicodeScalars.contains(where: { $0.properties.isWhitespace }) { problems.append("it has spaces inside") }
        if trimmed.unicodeScalars.contains(where: { !("a"..."z").contains($0) && !FamilyCode.isWireCharacter($0) && !$0.properties.isWhitespace }) {
            problems.append("it has characters outside A-Z and 0-9")
        }
        if !FamilyCode.allowedLengths.contains(trimmed.count) {
            problems.append("it has \(trimmed.count) characters instead of \(FamilyCode.allowedLengthsText)")
        }
        return problems.isEmpty ? "it does not match \(FamilyCode.wireFormatPattern)" : problems.joined(separator: ", ")
    }
}

/// A record id kept in 16 bytes when it is an uppercase UUID string (the app's ids), as text
/// otherwise: an audit holds a million of them.
enum CompactID: Hashable, Sendable {
    case uuid(UUID)
    case text(String)

    init(_ id: String) {
        var id = id
        self = id.withUTF8 { Self.upperCaseUUID($0) }.map(CompactID.uuid) ?? .text(id)
    }

    /// The 8-4-4-4-12 form in digits and A-F, the one `uuidString` gives back, or nil. By hand:
    /// `UUID(uuidString:)` goes through `sscanf`, a tenth of an audit's time.
    static func upperCaseUUID(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let complete = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            var position = 0
            for index in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = nibble(text[position]), let low = nibble(text[position + 1]) else {
                    return false
                }
                out[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return complete ? UUID(uuid: bytes) : nil
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    var string: String {
        switch self {
        case .uuid(let uuid): return uuid.uuidString
        case .text(let text): return text
        }
    }
}
