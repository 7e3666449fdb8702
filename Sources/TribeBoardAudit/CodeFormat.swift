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
