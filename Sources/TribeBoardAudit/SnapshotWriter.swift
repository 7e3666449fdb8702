import Foundation
import TribeBoardCloudKit
import TribeBoardSupport

/// Writes a remote snapshot: one record dictionary per line, in the Web Services format, exactly
/// what `SnapshotReader` reads back. Owner-only, renamed into place when complete.
final class SnapshotWriter {
    private let file: StreamingFile
    private let encoder: JSONEncoder

    init(path: String) throws(FileSystemError) {
        file = try StreamingFile(path: path)
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func append(_ record: CloudKitRecord) throws {
        try file.append(encoder.encode(record))
        try file.append(CollectionOfOne(UInt8(ascii: "\n")))
    }

    func commit() throws(FileSystemError) { try file.commit() }

    func abandon() { file.abandon() }
}
