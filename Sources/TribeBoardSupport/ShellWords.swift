import Foundation

/// Arguments as a POSIX shell reads them back, quoted only when they need it: every command the
/// toolkit advises is printed so that it runs as printed (a store path with a space included).
package enum ShellWords {
    package static func command(_ words: [String]) -> String {
        words.map(quoted).joined(separator: " ")
    }

    /// An option and its value as the words of a command: `--store=-x.sqlite` when the value
    /// starts with `-` (it would read as an option of its own), `--store`, `VALUE` otherwise.
    package static func option(_ name: String, _ value: String) -> [String] {
        value.hasPrefix("-") ? ["\(name)=\(value)"] : [name, value]
    }

    package static func quoted(_ word: String) -> String {
        if !word.isEmpty, word.unicodeScalars.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static let plain = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,")
}
