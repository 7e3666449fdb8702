import CSystemCalls
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The process's standard streams. Writes go straight to the file descriptors, under one lock for
/// stderr, so that a progress line and log lines from several threads never interleave.
///
/// Every byte of stdout goes through `writeOutput`, which keeps the first failure (a full disk,
/// `> /dev/full`, a reader that hung up): the run's report or CSV is then incomplete, and the
/// entry point (`start`) ends the run non-zero through `finishOutput()` instead of 0.
enum Terminal {
    enum Stream { case standardOutput, standardError }

    private static let progressShown = Mutex<Bool>(false)
    /// The errno of the first stdout write that failed; nothing more is written after it.
    private static let outputFailure = Mutex<Int32?>(nil)
    /// A stdout closed at the start (`>&-`, /dev/null since: CSystemCalls) takes no output.
    private static let outputWasClosed = tb_standard_output_was_closed() != 0

    static func isTerminal(_ stream: Stream) -> Bool {
        isatty(stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO) == 1
    }

    static func writeOutput(_ text: String) {
        guard !text.isEmpty else { return }
        outputFailure.withLock { failure in
            guard failure == nil else { return }
            failure = outputWasClosed ? EBADF : write(text, to: STDOUT_FILENO)
        }
    }

    static func writeError(_ text: String) {
        // Diagnostics that cannot be written have nowhere else to go.
        progressShown.withLock { _ in _ = write(text, to: STDERR_FILENO) }
    }

    /// Shows `text` in place of the previous progress line.
    static func showProgress(_ text: String) {
        progressShown.withLock { shown in
            _ = write("\r\u{1B}[2K" + text, to: STDERR_FILENO)
            shown = true
        }
    }

    static func clearProgressLine() {
        progressShown.withLock { shown in
            if shown { _ = write("\r\u{1B}[2K", to: STDERR_FILENO) }
            shown = false
        }
    }

    /// Called once, at the end of the run: closes stdout (a file system may report a failed write
    /// only then) and returns the first failure of the run's output, if any.
    static func finishOutput() -> StandardOutputError? {
        outputFailure.withLock { failure in
            if failure == nil, close(STDOUT_FILENO) != 0, errno != EBADF, errno != EINTR {
                failure = errno
            }
            return failure.map(StandardOutputError.init(errno:))
        }
    }

    /// Writes all of `text`; the errno of a failure, or nil. A non-blocking descriptor (inherited
    /// from a shell that set O_NONBLOCK on a shared pipe) is waited on rather than given up.
    private static func write(_ text: String, to descriptor: Int32) -> Int32? {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return Glibc.write(descriptor, base + offset, buffer.count - offset)
            }
            if result < 0 && errno == EINTR { continue }
            if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
                continue
            }
            if result < 0 { return errno }
            if result == 0 { return EIO }
            offset += result
        }
        return nil
    }
}

/// stdout could not take the whole report: the run ends 74 (or keeps a worse status it had).
struct StandardOutputError: Error, LocalizedError {
    let errno: Int32

    var errorDescription: String? {
        "cannot write to standard output: \(String(cString: strerror(errno))); the output is incomplete"
    }
}
