import Synchronization
import Foundation

enum SignalWait {
    /// Ctrl-C or SIGTERM ends the emulator after saving its records.
    static func untilTerminated() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = ResumeOnce(continuation)
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { resumed.resume() }
                source.resume()
                SignalSources.keep(source)
            }
        }
    }
}

/// Resumes a continuation at most once, whichever signal comes first.
final class ResumeOnce: Sendable {
    private let continuation: Mutex<CheckedContinuation<Void, Never>?>

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Mutex(continuation) }

    func resume() {
        continuation.withLock { pending in
            let taken = pending
            pending = nil
            return taken
        }?.resume()
    }
}

/// Signal sources live as long as the process.
enum SignalSources {
    // Written only by `untilTerminated`, once, before any signal can arrive; DispatchSourceSignal
    // is not Sendable, so a Mutex cannot hold it.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    static func keep(_ source: any DispatchSourceSignal) { sources.append(source) }
}
