import Foundation

/// An XML (or binary) property list file read with PropertyListSerialization, plus the lines its
/// keys and string values are written on, so that a finding can name `file:line`.
package struct XMLPlistFile: Sendable {
    package let path: String
    let root: [String: any Sendable]
    private let lines: [Substring]
    /// Entitlements and Info.plist files are a few KB.
    static let maxFileSize = 8_000_000

    package static func read(_ path: String) throws(XcodeProjectError) -> XMLPlistFile {
        let data = try ProjectFileReader.read(path, limit: maxFileSize)
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(
                from: data, options: [], format: nil)
        } catch {
            throw .malformed(
                path: path, line: 0, reason: "not a property list (\(error.localizedDescription))")
        }
        guard let dictionary = object as? [String: Any] else {
            throw .malformed(path: path, line: 0, reason: "the top level is not a dictionary")
        }
        // A binary plist (bplist00) has no lines: findings then name the file alone.
        let text =
            data.starts(with: Array("bplist00".utf8)) ? "" : String(decoding: data, as: UTF8.self)
        return XMLPlistFile(
            path: path, root: dictionary.compactMapValues(Self.sendable),
            lines: text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline))
    }

    /// Plist values doctor reads: strings, arrays of strings, and the keys of a dictionary
    /// (`NSUbiquitousContainers` is keyed by container identifiers).
    private static func sendable(_ value: Any) -> (any Sendable)? {
        if let string = value as? String { return string }
        if let array = value as? [Any] { return array.compactMap { $0 as? String } }
        if let bool = value as? Bool { return bool }
        if let dictionary = value as? [String: Any] {
            return DictionaryKeys(keys: dictionary.keys.sorted())
        }
        return nil
    }

    /// A dictionary value, of which doctor keeps the keys (sorted: a plist dictionary has no
    /// order).
    struct DictionaryKeys: Sendable { let keys: [String] }

    package func has(_ key: String) -> Bool { root[key] != nil }

    package func string(_ key: String) -> String? { root[key] as? String }

    /// The keys of a dictionary value (`NSUbiquitousContainers`), sorted; nil when it is no
    /// dictionary.
    package func dictionaryKeys(_ key: String) -> [String]? { (root[key] as? DictionaryKeys)?.keys }

    /// A string array; a lone string reads as a one-element array.
    package func strings(_ key: String) -> [String]? {
        if let array = root[key] as? [String] { return array }
        return string(key).map { [$0] }
    }

    /// The line of `<key>key</key>` (1-based), nil when not found (a binary plist).
    package func line(ofKey key: String) -> Int? {
        lines.firstIndex { $0.contains("<key>\(Self.escaped(key))</key>") }.map { $0 + 1 }
    }

    /// The line of a string value written after `key`: the first `<string>value</string>` at or
    /// after the key's line.
    package func line(ofValue value: String, after key: String) -> Int? {
        let start = (line(ofKey: key) ?? 1) - 1
        let needle = "<string>\(Self.escaped(value))</string>"
        return lines[start...].firstIndex { $0.contains(needle) }.map { $0 + 1 } ?? line(ofKey: key)
    }

    package func location(ofKey key: String) -> SourceLocation {
        SourceLocation(path: path, line: line(ofKey: key))
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;"
        )
        .replacingOccurrences(of: ">", with: "&gt;")
    }
}
