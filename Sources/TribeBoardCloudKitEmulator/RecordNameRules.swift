import Foundation

/// What Apple's reference says of a record name: it "must contain only ASCII characters, must not
/// exceed 255 characters, and must not start with an underscore". The server's own wording of
/// the refusal is not published: the reason quotes the reference.
enum RecordNameRules {
    static let maxLength = 255
    static let rule =
        "a record name must contain only ASCII characters, must not exceed 255 characters, "
        + "and must not start with an underscore"

    static func check(_ name: String) throws(Refusal) {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 < 0x80 }), name.utf8.count <= maxLength,
            !name.hasPrefix("_")
        else {
            let shown = name.count > 64 ? String(name.prefix(64)) + "…" : name
            throw Refusal(.badRequest, "Invalid record name \"\(shown)\": \(rule)")
        }
    }
}
