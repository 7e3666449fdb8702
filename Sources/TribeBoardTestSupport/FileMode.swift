import Foundation

/// A file's permission bits, as `ls -l` shows them; nil when it cannot be read.
package enum FileMode {
    package static func of(_ path: String) -> Int? {
        guard
            let mode = try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]
                as? Int
        else { return nil }
        return mode & 0o777
    }
}
