import Foundation
import TribeBoardDomain

/// The wire format `^[A-Z0-9]{6,8}$`, checked on bytes (a million codes a run), and the key under
/// which codes count as "the same" for people: the app trims and upper-cases what is typed.
enum CodeFormat {
    static func isValid(_ code: String) -> Bool {
        guard FamilyCode.allowedLengths.contains(code.utf8.count) else { return false }
        return code.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy(isWireByte) }
            ?? code.utf8.allSatisfy(isWireByte)
    }

    private static func isWireByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
    }

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
        if !FamilyCode.allowedLengths.contains(trimmed.count) { problems.append("it has \(trimmed.count) characters instead of 6 to 8") }
        return problems.isEmpty ? "it does not match ^[A-Z0-9]{6,8}$" : problems.joined(separator: ", ")
    }

    /// Codes a person would take for the same: trimmed and upper-cased.
    static func key(_ code: String) -> String {
        isValid(code) ? code : code.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
    }
}

/// A record id kept in 16 bytes when it is an uppercase UUID string (the app's ids), as text
/// otherwise: an audit holds a million of them.
enum CompactID: Hashable, Sendable {
    case uuid(UUID)
    case text(String)

    init(_ id: String) {
        if id.utf8.count == 36, !id.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x66 }), let uuid = UUID(uuidString: id) {
            self = .uuid(uuid)
        } else {
            self = .text(id)
        }
    }

    var string: String {
        switch self {
        case .uuid(let uuid): return uuid.uuidString
        case .text(let text): return text
        }
    }
}
