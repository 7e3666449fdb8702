/// How provision recognises, on a later run, the row it made a family from: the operator's
/// external id, or the row's content when it has none. The text the store keeps in
/// `families.import_key`, built and read here only, so that provision, `sheets --external-id`,
/// `sheets --from-import`, `doctor family`, `recode` and the duplicate check agree on it.
package enum ImportKey {
    private static let externalPrefix = "ext:"
    private static let contentPrefix = "row:"

    /// The key of a row with this external id.
    package static func external(_ id: String) -> String { externalPrefix + id }

    /// The key of a row without one: its normalized fields, separated by U+001F (which no field
    /// holds: control characters are refused).
    package static func content(_ fields: [String]) -> String {
        contentPrefix + fields.joined(separator: "\u{1F}")
    }

    /// The external id a stored key holds, when it is one.
    package static func externalId(in key: String?) -> String? {
        guard let key, key.hasPrefix(externalPrefix) else { return nil }
        return String(key.dropFirst(externalPrefix.count))
    }
}
