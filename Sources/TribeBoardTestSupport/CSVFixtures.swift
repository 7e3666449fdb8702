import Foundation

/// Generated inputs for tests and benchmarks.
package enum CSVFixtures {
    package static let header =
        "external_id,family_name,admin_display_name,admin_apple_user_id_hash"

    /// `count` valid rows with distinct external ids; every third row has a signed-in admin.
    package static func families(count: Int, idPrefix: String = "F") -> String {
        var lines = [header]
        lines.reserveCapacity(count + 1)
        for index in 1...max(count, 1) where count > 0 {
            let hash = index % 3 == 0 ? hexHash(index) : ""
            lines.append("\(idPrefix)\(index),Family \(letters(index)),Admin \(index),\(hash)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A 64-character lowercase hex string unique to `seed`.
    package static func hexHash(_ seed: Int) -> String {
        let block = String(seed, radix: 16).leftPadded(to: 16)
        return String(repeating: block, count: 4)
    }

    /// Letters only, so the name passes validation: 1 -> "B", 2 -> "C"...
    static func letters(_ number: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var value = number
        var result = ""
        repeat {
            result.append(alphabet[value % 26])
            value /= 26
        } while value > 0
        return result
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
