import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The process's standard streams. Writes go straight to the file descriptors, under one lock for
/// stderr, so that a progress line and log lines from several threads never interleave.
enum Terminal {
    enum Stream { case standardOutput, standardError }

    private static let progressShown = Mutex<Bool>(false)

    static func isTerminal(_ stream: Stream) -> Bool {
        isatty(stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO) == 1
    }

    static func writeOutput(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    static func writeError(_ text: String) {
        progressShown.withLock { _ in write(text, to: STDERR_FILENO) }
    }

    /// Shows `text` in place of the previous progress line.
    static func showProgress(_ text: String) {
        progressShown.withLock { shown in
            write("\r\u{1B}[2K" + text, to: STDERR_FILENO)
            shown = true
        }
    }

    static func clearProgressLine() {
        progressShown.withLock { shown in
            if shown { write("\r\u{1B}[2K", to: STDERR_FILENO) }
            shown = false
        }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return Glibc.write(descriptor, base + offset, buffer.count - offset)
            }
            if result < 0 && errno == EINTR { continue }
            if result <= 0 { return }
            offset += result
        }
    }
}
