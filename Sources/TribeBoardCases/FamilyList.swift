import Foundation
import TribeBoardDomain
import TribeBoardSupport

/// `--from-file`: one family a line (record id, code or external id, trimmed as `FamilyQuery`
/// trims); blank lines and lines starting with `#` are skipped. Bounded: a list of 100,000 ids
/// is under 4 MB.
package enum FamilyList {
    package static let maxBytes = 16 << 20

    package static func read(_ path: String) throws(CaseError) -> [String] {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .list(FileSystemError("open", path: path)) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .list(
                FileSystemError(
                    "open", path: path,
                    reason: "not a regular file (a symbolic link, a folder or a device)"))
        }
        guard status.st_size <= Int64(maxBytes) else {
            throw .listTooLarge(path: path, limit: maxBytes)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .list(FileSystemError("read", path: path))
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { FamilyQuery(String($0)).typed }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
