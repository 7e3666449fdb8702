import Foundation
import TribeBoardSupport

/// Tells a provision run whether another one is writing to the same store. Runs do not need to
/// exclude each other (every batch re-checks import keys and codes inside its own IMMEDIATE
/// transaction), but an operator should be told why rows show up as `existing`.
final class StoreActivityMarker {
    private let descriptor: Int32
    let otherRunPID: Int32?

    init(storePath: String) throws(FileSystemError) {
        descriptor = try SidecarFile.open(storePath + ".provision-lock")
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            otherRunPID = nil
            let pid = "\(getpid())\n"
            _ = ftruncate(descriptor, 0)
            _ = pwrite(descriptor, pid, pid.utf8.count, 0)
        } else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            let text = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            otherRunPID = Int32(text.trimmed) ?? -1
        }
    }

    deinit {
        close(descriptor)
    }
}
