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

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = Mutex(continuation)
    }

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
    private static let sources = Mutex<[KeptSource]>([])

    static func keep(_ source: any DispatchSourceSignal) {
        sources.withLock { $0.append(KeptSource(source: source)) }
    }

    /// Only held, never used: DispatchSourceSignal is not marked Sendable, and holding it from
    /// any thread is safe (Dispatch objects are thread-safe).
    private struct KeptSource: @unchecked Sendable {
        let source: any DispatchSourceSignal
    }
}
